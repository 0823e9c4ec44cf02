/**
 * Issue 21, "a guard against the next release": every request the clients sent when last recorded
 * (test/fixtures/clients/<client>/<version>/, written by `npm run clients:record`) is replayed through the gateway to
 * strict stand-ins of each format (test/sdk/strict-upstreams.ts: they reject what the real services reject) — through
 * passthrough when the upstream speaks the client's format, through translation otherwise — as JSON and as a stream,
 * and the answer is read with the client's own parser where one is installed (./clients/parsers.ts).
 *
 * A turn-1 request must come back as a call of one of the tools the client offered; a turn after a tool result as the
 * upstream's text. A request that points at state kept upstream (`item_reference`, `previous_response_id`: the AI
 * SDK's `openai(model)` with its default `store`) can only be resolved by the upstream that keeps it: it passes through
 * to a Responses upstream, and a translated upstream's gateway, which never saw turn 1, answers a clean 4xx in the
 * client's format naming the missing item.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../src/gateway/create-gateway.js'
import { type ClientFixture, replay, swapFetch, variant } from './clients/parsers.js'
import type { Json } from './gateway-helpers.js'
import { type Running, serve } from './sdk/servers.js'
import {
  type FormatId,
  functionNames,
  hasToolResult,
  type StrictUpstream,
  startStrictUpstream,
} from './sdk/strict-upstreams.js'

const root = join(import.meta.dirname, 'fixtures', 'clients')

function loadFixtures(): ClientFixture[] {
  const out: ClientFixture[] = []
  for (const client of readdirSync(root))
    for (const version of readdirSync(join(root, client)))
      for (const file of readdirSync(join(root, client, version)).sort())
        if (file.endsWith('.json'))
          out.push(JSON.parse(readFileSync(join(root, client, version, file), 'utf8')) as ClientFixture)
  return out
}

const fixtures = loadFixtures().filter((fixture) => fixture.format !== undefined)
const upstreamFormats: FormatId[] = ['chat-completions', 'messages', 'content-generation', 'responses']

let upstream: StrictUpstream
const gateways = new Map<FormatId, Running>()

beforeAll(async () => {
  upstream = await startStrictUpstream()
  for (const format of upstreamFormats) {
    const baseURL = format === 'chat-completions' || format === 'responses' ? `${upstream.url}/v1` : upstream.url
    const gateway = createGateway({
      upstreams: { strict: { format, baseURL, apiKey: `upstream-${format}` } },
      resolveModel: () => ({ upstream: 'strict', model: `strict-${format}` }),
      apiKeys: ['client-key'],
    })
    gateways.set(format, await serve(gateway.fetch))
  }
})
afterAll(async () => {
  for (const gateway of gateways.values()) await gateway.close()
  await upstream?.close()
})

/** Refers to what only the upstream that answered turn 1 keeps. */
function stateful(body: Json): boolean {
  return (
    body.previous_response_id != null ||
    (Array.isArray(body.input) && body.input.some((item: Json) => item?.type === 'item_reference'))
  )
}

/** `codex 0.171.0 exec-tool-loop.1 (responses)`: the fixture's file name and format. */
const title = (fixture: ClientFixture, turn: number) =>
  `${fixture.client} ${fixture.version} ${fixture.scenario}.${turn} (${fixture.format})`

const turns = new Map<string, number>()
const named = fixtures.map((fixture) => {
  const key = `${fixture.client}/${fixture.version}/${fixture.scenario}`
  const turn = (turns.get(key) ?? 0) + 1
  turns.set(key, turn)
  return { fixture, title: title(fixture, turn) }
})

describe('recorded client requests', () => {
  it('include the three agent CLIs and the libraries', () => {
    const clients = new Set(fixtures.map((fixture) => fixture.client))
    for (const client of ['codex', 'claude-code', 'gemini-cli', 'ai-sdk-openai', 'langchain-openai', 'openai-agents'])
      expect(clients).toContain(client)
  })
})

describe.each(named)('$title', ({ fixture }) => {
  const cases = upstreamFormats.flatMap((to) =>
    [false, true].map((stream) => ({
      to,
      stream,
      how: `${fixture.format === to ? 'passthrough to' : 'translated to'} ${to}, ${stream ? 'stream' : 'JSON'}`,
    })),
  )
  it.each(cases)('$how', async ({ to, stream }) => {
    const gateway = gateways.get(to) as Running
    const body = variant(fixture, stream)
    const passthrough = fixture.format === to
    if (passthrough) upstream.adopt(to, body)
    const rejectionsBefore = upstream.rejections.length
    const receivedBefore = upstream.received.length

    if (stateful(body) && !passthrough) {
      const answer = await fetch(`${gateway.url}${fixture.path}`, {
        method: 'POST',
        headers: { authorization: 'Bearer client-key', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      expect([400, 404]).toContain(answer.status)
      expect(((await answer.json()) as Json).error.message).toMatch(/rs_|item|previous/i)
      expect(upstream.received.length).toBe(receivedBefore)
      return
    }

    const parsed = await replay(gateway.url, fixture, body, stream)
    expect(upstream.rejections.slice(rejectionsBefore)).toEqual([])
    expect(upstream.received.length).toBe(receivedBefore + 1)
    // A passthrough forwards what the client sent, only the model renamed (Claude Code's system entries, Codex's
    // additional_tools, every vendor field).
    if (passthrough) {
      const forwarded = upstream.received.at(-1) as Json
      expect(body.model === undefined ? forwarded : { ...forwarded, model: body.model }).toEqual(body)
    }
    if (hasToolResult(fixture.body)) {
      expect(parsed.toolCalls).toEqual([])
      expect(parsed.text).toMatch(/^Done after \d+ turns\.$/)
    } else {
      expect(parsed.toolCalls.length).toBe(1)
      expect(functionNames(fixture.format as FormatId, fixture.body)).toContain(parsed.toolCalls[0])
    }
  })
})

describe('the replay sends what the client sent', () => {
  it('swaps in the recorded body and headers, never the redacted credentials', async () => {
    const fixture = fixtures.find((f) => f.client === 'claude-code') as ClientFixture
    const seen: Array<{ headers: Headers; body: string }> = []
    const echo = await serve(async (request) => {
      seen.push({ headers: request.headers, body: await request.text() })
      return Response.json({ error: { type: 'x', message: 'x' } }, { status: 400 })
    })
    try {
      const swapped = swapFetch(fixture, fixture.body)
      await swapped(`${echo.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'client-key' }, body: '{}' })
      expect(JSON.parse(seen[0]?.body ?? '')).toEqual(fixture.body)
      expect(seen[0]?.headers.get('x-api-key')).toBe('client-key')
      expect(seen[0]?.headers.get('anthropic-beta')).toBe(fixture.headers['anthropic-beta'])
      expect(seen[0]?.headers.get('user-agent')).toMatch(/^claude-cli\//)
    } finally {
      await echo.close()
    }
  })
})
