/**
 * Fault injection (issue 12): a real upstream on 127.0.0.1 that refuses, resets (before headers, mid-body, mid-event,
 * between events), trickles, hangs, stalls (after headers, mid-stream), sends malformed JSON or SSE, the wrong content
 * type, an error with HTTP 200, 429 with `retry-after`, 500, 529, an HTML error page or a huge body — for passthrough
 * and translated pairs, JSON and stream, on the Web path (`gateway.fetch`) and the Node fast path
 * (`toNodeListener(gateway)`, node:http upstreams). Every case ends in the client format's native error with the status
 * of the README's table, or — once a stream has started — the format's in-stream error and a clean end; within the
 * configured timeouts. Passthrough relays a same-format upstream's 2xx bytes untouched (policy 1), so a malformed 2xx
 * body is relayed as it came.
 *
 * All cases run concurrently in `beforeAll` (the timeouts overlap); each `it` then checks one recorded outcome.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js'
import type { GatewayOptions, UpstreamOptions } from '../../src/gateway/options.js'
import type { FormatId } from '../../src/ir/index.js'
import { toNodeListener } from '../../src/node.js'
import { authHeaders, type Json, parseSse, summarize, summarizeSse, wireRequest } from '../gateway-helpers.js'
import { answerText, type Fault, type FaultUpstream, faultBase, faults, startFaultUpstream } from './fault-upstream.js'

const timeoutMs = 3000
const idleTimeoutMs = 1500
const maxResponseBytes = 64 * 1024
/** Generous: a case must end well within the configured timeouts, not hang (the machine is shared and slow). */
const endWithinMs = timeoutMs + 6000

type Pair = { client: FormatId; upstream: FormatId }
const pairs: Pair[] = [
  { client: 'chat-completions', upstream: 'chat-completions' },
  { client: 'messages', upstream: 'messages' },
  { client: 'content-generation', upstream: 'content-generation' },
  { client: 'responses', upstream: 'responses' },
  { client: 'messages', upstream: 'chat-completions' },
  { client: 'chat-completions', upstream: 'messages' },
  { client: 'responses', upstream: 'content-generation' },
  { client: 'content-generation', upstream: 'responses' },
]
const transports = ['web (gateway.fetch)', 'node (toNodeListener)'] as const
type Transport = (typeof transports)[number]

type Expected =
  | { kind: 'ok' }
  | { kind: 'relayed' }
  | { kind: 'error'; status: number; retryAfter?: string }
  | { kind: 'in-stream'; code: 'timeout' | 'upstream' }

/** What the README's error table and streaming section promise for each fault. */
function expected(fault: Fault, pair: Pair, stream: boolean): Expected {
  const passthrough = pair.client === pair.upstream
  switch (fault) {
    case 'ok':
    case 'trickle':
      return { kind: 'ok' }
    case 'refused':
    case 'reset-before-headers':
    case 'html-error':
      return { kind: 'error', status: 502 }
    case 'reset-mid-body':
    case 'reset-mid-event':
    case 'reset-between-events':
      return stream ? { kind: 'in-stream', code: 'upstream' } : { kind: 'error', status: 502 }
    case 'hang':
    case 'stall-after-headers':
      return { kind: 'error', status: 504 }
    case 'stall-mid-stream':
      return stream ? { kind: 'in-stream', code: 'timeout' } : { kind: 'error', status: 504 }
    case 'malformed-json':
    case 'malformed-sse':
      return passthrough ? { kind: 'relayed' } : { kind: 'error', status: 502 }
    case 'wrong-content-type':
      // A translated JSON answer is parsed whatever its label; SSE labelled text/html is not SSE.
      return passthrough ? { kind: 'relayed' } : stream ? { kind: 'error', status: 502 } : { kind: 'ok' }
    case 'error-200':
      // A content-generation error body carries its HTTP code; the others' do not (502).
      return passthrough
        ? { kind: 'relayed' }
        : { kind: 'error', status: pair.upstream === 'content-generation' ? 400 : 502 }
    case '429-retry-after':
      return { kind: 'error', status: 429, retryAfter: '7' }
    case '500':
      return { kind: 'error', status: 500 }
    case '529':
      return { kind: 'error', status: 529 }
    case 'huge-body':
      // A stream is relayed as it comes (nothing held whole); a body read whole is capped.
      return passthrough && stream ? { kind: 'relayed' } : { kind: 'error', status: 502 }
  }
}

/** The README's error table: the client format's error type (chat-completions/responses `type`, Gemini `status`). */
const errorTypes: Record<number, Record<FormatId, string>> = {
  400: {
    'chat-completions': 'invalid_request_error',
    messages: 'invalid_request_error',
    'content-generation': 'INVALID_ARGUMENT',
    responses: 'invalid_request_error',
  },
  429: {
    'chat-completions': 'requests',
    messages: 'rate_limit_error',
    'content-generation': 'RESOURCE_EXHAUSTED',
    responses: 'requests',
  },
  500: {
    'chat-completions': 'server_error',
    messages: 'api_error',
    'content-generation': 'INTERNAL',
    responses: 'server_error',
  },
  502: {
    'chat-completions': 'server_error',
    messages: 'api_error',
    'content-generation': 'UNAVAILABLE',
    responses: 'server_error',
  },
  504: {
    'chat-completions': 'server_error',
    messages: 'timeout_error',
    'content-generation': 'DEADLINE_EXCEEDED',
    responses: 'server_error',
  },
  529: {
    'chat-completions': 'server_error',
    messages: 'overloaded_error',
    'content-generation': 'UNAVAILABLE',
    responses: 'server_error',
  },
}

/** A native error body of `format`: its shape, and its error type per the table. */
function expectNativeError(format: FormatId, status: number, text: string): void {
  const body = JSON.parse(text) as Json
  if (format === 'messages') {
    expect(body).toMatchObject({ type: 'error', error: { type: expect.any(String), message: expect.any(String) } })
  } else if (format === 'content-generation') {
    expect(body.error).toMatchObject({ code: status, message: expect.any(String), status: expect.any(String) })
  } else {
    expect(body.error).toMatchObject({ message: expect.any(String), type: expect.any(String) })
  }
  const type = format === 'content-generation' ? body.error.status : body.error.type
  expect(type).toBe(errorTypes[status]?.[format])
  if (status === 504 && format !== 'messages' && format !== 'content-generation')
    expect(body.error.code).toBe('timeout')
  expect(text).not.toMatch(/<html|upstream-secret-key/i)
}

/** In-stream error markers of each format: the error frame's type or code. */
const inStreamMarkers: Record<'timeout' | 'upstream', Record<FormatId, RegExp>> = {
  timeout: {
    'chat-completions': /"code":"timeout"/,
    messages: /"type":"timeout_error"/,
    'content-generation': /"status":"DEADLINE_EXCEEDED"/,
    // Codex retries codes it does not know: the Responses in-stream timeout is `server_error`, told by its message.
    responses: /"code":"server_error","message":"The upstream \\"[^"\\]+\\" sent nothing for/,
  },
  upstream: {
    'chat-completions': /"type":"server_error"/,
    messages: /"type":"api_error"/,
    'content-generation': /"status":"UNAVAILABLE"/,
    responses: /"code":"server_error"/,
  },
}

interface Outcome {
  status: number
  headers: Headers
  text: string
  elapsed: number
  /** The body did not end cleanly (reset, or no end within the bound). */
  failure?: string
}

let upstream: FaultUpstream
let front: Server
let frontBase = ''
let gateway: Gateway
const outcomes = new Map<string, Outcome>()
const caseKey = (transport: Transport, pair: Pair, fault: Fault, stream: boolean) =>
  `${transport}|${pair.client}>${pair.upstream}|${fault}|${stream}`

function options(): GatewayOptions {
  const upstreams: Record<string, UpstreamOptions> = {}
  const models: NonNullable<GatewayOptions['models']> = {}
  for (const fault of faults) {
    for (const format of ['chat-completions', 'messages', 'content-generation', 'responses'] as const) {
      const name = `${fault}.${format}`
      upstreams[name] = { format, baseURL: faultBase(upstream, fault, format), apiKey: 'upstream-secret-key' }
      models[name] = { upstream: name, model: 'm' }
    }
  }
  return { upstreams, models, timeoutMs, idleTimeoutMs, maxResponseBytes, apiKeys: ['client-key'] }
}

async function run(transport: Transport, pair: Pair, fault: Fault, stream: boolean): Promise<Outcome> {
  const { path, body } = wireRequest(pair.client, `${fault}.${pair.upstream}`, { stream })
  const init: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders(pair.client, 'client-key') },
    body: JSON.stringify(body),
  }
  const started = Date.now()
  const bound = AbortSignal.timeout(endWithinMs)
  try {
    const response =
      transport === 'web (gateway.fetch)'
        ? await gateway.fetch(new Request(`http://gateway.test${path}`, { ...init, signal: bound }))
        : await fetch(`${frontBase}${path}`, { ...init, signal: bound })
    let text = ''
    let failure: string | undefined
    try {
      const reading = response.text()
      const timer = new Promise<never>((_, reject) =>
        bound.addEventListener('abort', () => reject(new Error('no end within the bound')), { once: true }),
      )
      text = await Promise.race([reading, timer])
    } catch (error) {
      failure = `body: ${(error as Error).message}`
    }
    return { status: response.status, headers: response.headers, text, elapsed: Date.now() - started, failure }
  } catch (error) {
    return { status: 0, headers: new Headers(), text: '', elapsed: Date.now() - started, failure: String(error) }
  }
}

beforeAll(async () => {
  upstream = await startFaultUpstream()
  gateway = createGateway(options())
  front = createServer(toNodeListener(gateway))
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  frontBase = `http://127.0.0.1:${(front.address() as AddressInfo).port}`
  const cases: Array<[Transport, Pair, Fault, boolean]> = []
  for (const transport of transports)
    for (const pair of pairs)
      for (const fault of faults) for (const stream of [false, true]) cases.push([transport, pair, fault, stream])
  // Bounded concurrency: the timeouts overlap, the shared machine is not flooded.
  let next = 0
  const worker = async () => {
    while (next < cases.length) {
      const [transport, pair, fault, stream] = cases[next++] as (typeof cases)[number]
      outcomes.set(caseKey(transport, pair, fault, stream), await run(transport, pair, fault, stream))
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker))
}, 180_000)

afterAll(async () => {
  front?.closeAllConnections()
  await new Promise((resolve) => front?.close(resolve))
  await upstream?.close()
})

function check(outcome: Outcome, want: Expected, pair: Pair, fault: Fault, stream: boolean): void {
  const context = `${outcome.status} ${outcome.failure ?? ''} ${outcome.text.slice(0, 200)} … ${outcome.text.slice(-300)}`
  expect(outcome.failure, context).toBeUndefined()
  expect(outcome.elapsed).toBeLessThan(endWithinMs)
  const format = pair.client
  if (want.kind === 'error') {
    expect(outcome.status, context).toBe(want.status)
    expectNativeError(format, want.status, outcome.text)
    if (want.retryAfter) expect(outcome.headers.get('retry-after')).toBe(want.retryAfter)
    return
  }
  if (want.kind === 'relayed') {
    const sent = upstream.sent.get(`${fault}/${pair.upstream}/${stream}`)
    expect(sent, 'the upstream recorded what it sent').toBeDefined()
    expect(outcome.status, context).toBe(sent?.status)
    expect(sent?.bodies.has(outcome.text), context).toBe(true)
    return
  }
  expect(outcome.status, context).toBe(200)
  if (want.kind === 'ok') {
    if (stream) {
      const summary = summarizeSse(format, outcome.text)
      expect(summary.error, context).toBeUndefined()
      expect(summary.text).toBe(answerText)
      expect(summary.finish).toBeDefined()
    } else {
      expect(summarize(format, JSON.parse(outcome.text)).text).toBe(answerText)
    }
    return
  }
  // In-stream: some content, then the format's error frame; every event parses (no half event before it).
  const events = parseSse(outcome.text)
  expect(events.length).toBeGreaterThan(1)
  // The text that came before the cut: the answer's beginning, whole events only.
  const before = summarizeSse(format, outcome.text).text
  expect(before.length, context).toBeGreaterThan(0)
  expect(answerText.startsWith(before), context).toBe(true)
  expect(summarizeSse(format, outcome.text).error, context).toBeDefined()
  expect(outcome.text).toMatch(inStreamMarkers[want.code][format])
  expect(outcome.text.endsWith('\n\n')).toBe(true)
}

describe.each(transports)('%s', (transport) => {
  describe.each(pairs.map((pair) => [`${pair.client} → ${pair.upstream}`, pair] as const))('%s', (_, pair) => {
    describe.each(faults)('%s', (fault) => {
      it.each([false, true])('stream %s', (stream) => {
        const outcome = outcomes.get(caseKey(transport, pair, fault, stream))
        expect(outcome).toBeDefined()
        check(outcome as Outcome, expected(fault, pair, stream), pair, fault, stream)
      })
    })
  })
})

it('the fault upstream saw every request end (nothing left open upstream)', async () => {
  // Hangs and stalls are cancelled by the gateway's timeouts; give the last cancellations a moment to land.
  for (let i = 0; i < 50 && upstream.stats.open > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100))
  expect(upstream.stats.received).toBeGreaterThan(0)
  expect(upstream.stats.open).toBe(0)
})
