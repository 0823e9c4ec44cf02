/**
 * Issue 21 §2: Claude Code 2.1.330's request (test/fixtures/messages/claude-code*.request.json, modeled on a recorded
 * one: a `role: "system"` entry last in `messages`, adaptive thinking with `display: "omitted"`, `output_config.effort`,
 * `context_management`, the deferred `DeferredToolPlaceholder`, `Read` with a draft 2020-12 `$schema`, a JSON document
 * as `metadata.user_id`) completes a Read round trip with each model alias Claude Code sends — on the embedded mock
 * model, and through every upstream format (the mock model behind a second gateway plays each upstream). Read with the
 * Anthropic SDK's own stream parser, over real HTTP on 127.0.0.1.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Anthropic from '@anthropic-ai/sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../src/gateway/create-gateway.js'
import type * as ir from '../src/ir/index.js'
import type { FormatId } from '../src/ir/index.js'
import type { Json } from './gateway-helpers.js'
import { type Running, serve } from './sdk/servers.js'
import { type StrictUpstream, startStrictUpstream, strictGatewayOptions, strictModels } from './sdk/strict-upstreams.js'

const fixture = (name: string): Json =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'messages', `${name}.request.json`), 'utf8'))
const turn1 = fixture('claude-code')
const turn2 = fixture('claude-code-tool-result')

/** What `--model sonnet|opus|haiku` sends (read from the 2.1.330 binary's requests). */
const aliases = ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5']
const upstreamModel: Record<FormatId, string> = {
  'chat-completions': 'gpt-5',
  responses: 'gpt-5',
  'content-generation': 'gemini-3-flash-preview',
  messages: 'claude-upstream',
}
const routes = ['mock', 'chat-completions', 'responses', 'content-generation', 'messages'] as const
type Route = (typeof routes)[number]

const servers: Running[] = []
const fronts = new Map<Route, { url: string; received: Json[]; warnings: ir.Warning[] }>()

beforeAll(async () => {
  const upstream = createGateway()
  for (const route of routes) {
    const received: Json[] = []
    const warnings: ir.Warning[] = []
    const onWarning = (warning: ir.Warning) => warnings.push(warning)
    let gateway = createGateway({ onWarning })
    if (route !== 'mock') {
      const server = await serve(async (request) => {
        received.push(await request.clone().json())
        return upstream.fetch(request)
      })
      servers.push(server)
      const baseURL = route === 'chat-completions' || route === 'responses' ? `${server.url}/v1` : server.url
      gateway = createGateway({
        upstreams: { up: { format: route, baseURL, apiKey: 'upstream-key' } },
        models: Object.fromEntries(aliases.map((alias) => [alias, { upstream: 'up', model: upstreamModel[route] }])),
        onWarning,
      })
    }
    const front = await serve(gateway.fetch)
    servers.push(front)
    fronts.set(route, { url: front.url, received, warnings })
  }
})
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
})

/** Streams one request the way Claude Code does (`POST /v1/messages?beta=true`, SSE) and returns the final message. */
async function send(route: Route, body: Json): Promise<Json> {
  const client = new Anthropic({ apiKey: 'x', baseURL: fronts.get(route)?.url, maxRetries: 0 })
  return client.beta.messages.stream(body).finalMessage()
}

const thinkingTexts = (message: Json) =>
  message.content.filter((block: Json) => block.type === 'thinking').map((block: Json) => block.thinking)

describe.each(routes)('Claude Code 2.1.330 through %s', (route) => {
  it.each(aliases)('%s: turn 1 calls Read on the named file, turn 2 answers from its result', async (model) => {
    const first = await send(route, { ...turn1, model })
    expect(first.stop_reason).toBe('tool_use')
    const call = first.content.at(-1)
    expect(call).toMatchObject({ type: 'tool_use', name: 'Read', input: { file_path: '/home/user/project/notes.txt' } })
    // display: "omitted": thinking blocks come signed and empty, whatever the upstream returned.
    for (const text of thinkingTexts(first)) expect(text).toBe('')

    const [user, environment, , result] = turn2.messages
    const toolResult = { ...result, content: [{ ...result.content[0], tool_use_id: call.id }] }
    const assistant = { role: 'assistant', content: first.content }
    for (const messages of [
      [user, environment, assistant, toolResult],
      // The system entry last, after the tool result: still the tool result's turn.
      [user, assistant, toolResult, environment],
    ]) {
      const second = await send(route, { ...turn2, model, messages })
      expect(second.stop_reason).toBe('end_turn')
      expect(second.content.at(-1)).toMatchObject({ type: 'text', text: expect.stringContaining('PINEAPPLE') })
    }
  })
})

describe('what each translated upstream receives', () => {
  const first = (route: Route): Json => fronts.get(route)?.received[0]
  const serialized = (route: Route) => JSON.stringify(fronts.get(route)?.received)

  it('the placeholder is left out (a warning says so), Read is offered, the environment entry is kept', () => {
    for (const route of ['chat-completions', 'responses', 'content-generation'] as const) {
      expect(serialized(route)).not.toContain('DeferredToolPlaceholder')
      expect(serialized(route)).toContain('Primary working directory: /home/user/project')
      expect(fronts.get(route)?.warnings).toContainEqual(
        expect.objectContaining({ type: 'dropped', path: 'tools[0]', message: expect.stringContaining('placeholder') }),
      )
    }
    // The passthrough forwards the request as it came.
    expect(first('messages').tools.map((tool: Json) => tool.name)).toEqual(['DeferredToolPlaceholder', 'Read'])
    expect(first('messages').messages.at(-1)).toEqual(turn1.messages.at(-1))
  })

  it('chat-completions: the system entry in place, reasoning_effort, a user id OpenAI accepts', () => {
    const body = first('chat-completions')
    expect(body.messages.map((message: Json) => message.role)).toEqual(['system', 'user', 'system'])
    expect(body.reasoning_effort).toBe('medium')
    expect(body.user).toMatch(/^il-[0-9a-f]{16}$/)
  })

  it('responses: the system entry in place, reasoning.effort, a safety_identifier of at most 64 characters', () => {
    const body = first('responses')
    expect(body.input.map((item: Json) => item.role)).toEqual(['user', 'system'])
    expect(body.reasoning).toEqual({ effort: 'medium' })
    expect(body.safety_identifier).toMatch(/^il-[0-9a-f]{16}$/)
  })

  it('content-generation (Gemini 3): thinkingLevel, no thoughts, the system entry hoisted with a warning', () => {
    const body = first('content-generation')
    expect(body.generationConfig.thinkingConfig).toEqual({ thinkingLevel: 'MEDIUM', includeThoughts: false })
    expect(body.systemInstruction.parts.at(-1).text).toContain('# Environment')
    expect(body.tools[0].functionDeclarations[0].parametersJsonSchema.$schema).toBeUndefined()
    expect(fronts.get('content-generation')?.warnings).toContainEqual(
      expect.objectContaining({ path: 'messages[2]', message: expect.stringContaining('hoisted') }),
    )
  })
})

describe('a system entry holding anything but text', () => {
  it.each(routes)('is a 400 naming its path through %s (passthrough included)', async (route) => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }
    const body = { ...turn1, stream: false, messages: [turn1.messages[0], { role: 'system', content: [image] }] }
    const response = await fetch(`${fronts.get(route)?.url}/v1/messages?beta=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'x', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(body),
    })
    expect(response.status).toBe(400)
    const error = (await response.json()) as Json
    expect(error.type).toBe('error')
    expect(error.error.message).toMatch(/^messages\[1\]\.content\[0\]\.type: a system message holds only text blocks/)
  })
})

describe('accepted by the strict upstream stand-ins (tools, tool-result pairing, signatures)', () => {
  let strict: StrictUpstream
  let gateway: Running
  beforeAll(async () => {
    strict = await startStrictUpstream()
    gateway = await serve(createGateway(strictGatewayOptions(strict.url)).fetch)
  })
  afterAll(async () => {
    await gateway?.close()
    await strict?.close()
  })

  it.each(Object.values(strictModels))('%s: turn 1 calls a tool, turn 2 with its result is answered', async (model) => {
    const client = new Anthropic({ apiKey: 'client-key', baseURL: gateway.url, maxRetries: 0 })
    const first = await client.beta.messages.stream({ ...turn1, model } as Json).finalMessage()
    expect(first.stop_reason).toBe('tool_use')
    const call = first.content.at(-1) as Json
    const [user, environment, , result] = turn2.messages
    const toolResult = { ...result, content: [{ ...result.content[0], tool_use_id: call.id }] }
    const messages = [user, environment, { role: 'assistant', content: first.content }, toolResult]
    const second = await client.beta.messages.stream({ ...turn2, model, messages } as Json).finalMessage()
    expect(second.stop_reason).toBe('end_turn')
    expect(strict.rejections).toEqual([])
  })
})
