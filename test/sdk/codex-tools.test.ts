/**
 * Issue 21 item 1: Codex 0.169's request (test/fixtures/responses/codex-0.169.body.json, modelled on the recorded
 * body: a `namespace` tool and a hosted `web_search`) through every translated upstream, JSON and stream, driven by the
 * official `openai` SDK against the gateway on 127.0.0.1, in front of stand-ins that reject what the real services
 * reject (./strict-upstreams.ts: tool types, tool names, unmatched tool results, thinking signatures). Turn 1 the model
 * calls a namespace function; the client must see `name` + `namespace`; turn 2 replays the output items and the
 * `function_call_output`, and the upstream must get the flattened name and a matching tool result.
 */
import { readFileSync } from 'node:fs'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { Json } from '../gateway-helpers.js'
import { type Running, serve } from './servers.js'
import {
  functionNames,
  type StrictUpstream,
  startStrictUpstream,
  strictGatewayOptions,
  strictModels,
} from './strict-upstreams.js'

const codex = JSON.parse(
  readFileSync(new URL('../fixtures/responses/codex-0.169.body.json', import.meta.url), 'utf8'),
) as Json

const models = strictModels
type Upstream = keyof typeof models

let upstream: StrictUpstream
let gateway: Running

beforeAll(async () => {
  upstream = await startStrictUpstream({ callTool: (names) => names.find((name) => name.endsWith('spawn_agent')) })
  gateway = await serve(createGateway(strictGatewayOptions(upstream.url)).fetch)
})
afterAll(async () => {
  await gateway?.close()
  await upstream?.close()
})

const client = () => new OpenAI({ apiKey: 'client-key', baseURL: `${gateway.url}/v1`, maxRetries: 0 })

/** One turn through the SDK: the final response, and (streamed) the items of `output_item.added` / `.done`. */
async function turn(body: Json, stream: boolean): Promise<{ response: Json; added: Json[]; done: Json[] }> {
  if (!stream) {
    const response = await client().responses.create({ ...body, stream: false } as never)
    return { response: response as unknown as Json, added: [], done: [] }
  }
  const events = await client().responses.create({ ...body, stream: true } as never)
  const added: Json[] = []
  const done: Json[] = []
  let response: Json | undefined
  for await (const event of events as unknown as AsyncIterable<Json>) {
    if (event.type === 'response.output_item.added') added.push(event.item)
    if (event.type === 'response.output_item.done') done.push(event.item)
    if (event.type === 'response.completed') response = event.response
  }
  return { response: response as Json, added, done }
}

const pairs = (Object.keys(models) as Upstream[]).flatMap((to) => [false, true].map((stream) => [to, stream] as const))

describe.each(pairs)('Codex 0.169 request → %s upstream (stream: %s)', (to, stream) => {
  it('turn 1 calls a namespace function (name + namespace); turn 2 replays it and gets a matching result upstream', async () => {
    const before = upstream.rejections.length
    const body = { ...codex, model: models[to] }
    const first = await turn(body, stream)
    expect(upstream.rejections.slice(before)).toEqual([])
    const call = (first.response.output as Json[]).find((item) => item.type === 'function_call')
    expect(call).toMatchObject({ name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '{"city":"Paris"}' })
    if (stream) {
      for (const items of [first.added, first.done])
        expect(items.find((item) => item.type === 'function_call')).toMatchObject({
          name: 'spawn_agent',
          namespace: 'multi_agent_v1',
        })
    }
    // What went upstream on turn 1: flattened functions the service accepts, web search mapped or left out.
    const sent = upstream.received.at(-1) as Json
    expect(functionNames(to, sent)).toContain('multi_agent_v1__spawn_agent')
    if (to === 'messages') expect(sent.tools.at(-1)).toEqual({ type: 'web_search_20250305', name: 'web_search' })
    else expect(JSON.stringify(sent.tools)).not.toMatch(/web_search|googleSearch/)

    // Turn 2: Codex sends back the output items it got and the call's output.
    const replay = {
      ...body,
      input: [
        ...codex.input,
        ...first.response.output,
        { type: 'function_call_output', call_id: call.call_id, output: 'agent a1 started' },
      ],
    }
    const second = await turn(replay, stream)
    expect(upstream.rejections.slice(before)).toEqual([])
    const message = (second.response.output as Json[]).find((item) => item.type === 'message')
    expect(message.content[0].text).toMatch(/^Done after/)
    if (to === 'messages') {
      // Anthropic's search: a web_search_call item, and the citation as a url_citation annotation.
      const search = (second.response.output as Json[]).find((item) => item.type === 'web_search_call')
      expect(search).toMatchObject({
        status: 'completed',
        action: {
          type: 'search',
          query: 'interlingua gateway',
          sources: [
            { type: 'url', url: 'https://example.com/interlingua' },
            { type: 'url', url: 'https://example.org/other' },
          ],
        },
      })
      expect(message.content[0].annotations).toEqual([
        {
          type: 'url_citation',
          start_index: 0,
          end_index: message.content[0].text.length,
          title: 'Interlingua',
          url: 'https://example.com/interlingua',
        },
      ])
      if (stream) expect(second.done.map((item) => item.type)).toEqual(['web_search_call', 'message'])
    } else expect(message.content[0].annotations).toEqual([])
    const history = JSON.stringify(upstream.received.at(-1))
    expect(history).toContain('multi_agent_v1__spawn_agent')
    expect(history).toContain('agent a1 started')
    expect(history).not.toContain('"namespace"')
  })
})

describe('the stand-ins refuse what the gateway used to send', () => {
  it('messages: an unknown tool type and an invalid tool name are 400s', async () => {
    const post = (tools: Json[]) =>
      fetch(`${upstream.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], tools }),
      })
    expect((await post([{ type: 'namespace', name: 'multi_agent_v1', tools: [] }])).status).toBe(400)
    expect((await post([{ name: 'multi_agent_v1.spawn_agent', input_schema: { type: 'object' } }])).status).toBe(400)
    expect((await post([{ type: 'web_search', external_web_access: false }])).status).toBe(400)
    expect((await post([{ type: 'web_search_20250305', name: 'web_search' }])).status).toBe(200)
  })

  it('content-generation: googleSearch beside function declarations is a 400', async () => {
    const response = await fetch(`${upstream.url}/v1beta/models/g:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        tools: [{ functionDeclarations: [{ name: 'f' }] }, { googleSearch: {} }],
      }),
    })
    expect(response.status).toBe(400)
  })
})
