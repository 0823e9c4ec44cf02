/**
 * Callers (issue 14): `authenticate` returns a caller (allow-list, identity in hooks and events) or a refusal (401,
 * 403, 429 + retry-after), each answered in the client's format; listings follow the allow-list; `onResponse` carries
 * the usage of passthrough answers (streams and JSON) as well as translated ones. Web and Node paths.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, refuse } from '../src/gateway/create-gateway.js'
import type { Caller, GatewayContext, GatewayOptions, GatewayResponseEvent } from '../src/gateway/options.js'
import { usageObjectIn } from '../src/gateway/usage-scan.js'
import type { FormatId } from '../src/ir/index.js'
import { toNodeListener } from '../src/node.js'
import {
  authHeaders,
  base,
  failingUpstream,
  formatIds,
  type Json,
  post,
  stack,
  wireRequest,
} from './gateway-helpers.js'

const alice: Caller = { id: 'acct-alice', models: ['via-chat-completions', 'via-messages'], plan: 'pro' }

/** Keys of the tests: who they are, or how they are refused. */
function authenticate(key: string) {
  if (key === 'alice-key') return alice
  if (key === 'open-key') return { id: 'acct-open' }
  if (key === 'slow-key') return refuse('rate-limit', { retryAfter: 29.2 })
  if (key === 'banned-key') return refuse('permission', { message: 'This account is suspended' })
  if (key === 'expired-key') return refuse('authentication', { message: 'This API key has expired' })
  if (key === 'literal-key') return { refuse: 'rate-limit' as const }
  return false
}

function callerStack(extra: Partial<GatewayOptions> = {}) {
  return stack({ apiKeys: [], authenticate, ...extra })
}

/** The native 403 body of each format for a model outside the allow-list. */
const modelForbidden: Record<FormatId, Json> = {
  'chat-completions': {
    error: {
      message: 'This API key may not use the model "via-content-generation"',
      type: 'invalid_request_error',
      param: 'model',
      code: 'model_not_found',
    },
  },
  responses: {
    error: {
      message: 'This API key may not use the model "via-content-generation"',
      type: 'invalid_request_error',
      param: 'model',
      code: 'model_not_found',
    },
  },
  messages: {
    type: 'error',
    error: { type: 'permission_error', message: 'This API key may not use the model "via-content-generation"' },
    request_id: null,
  },
  'content-generation': {
    error: {
      code: 403,
      message: 'This API key may not use the model "via-content-generation"',
      status: 'PERMISSION_DENIED',
    },
  },
}

/** The native 429 body of each format for a refused caller. */
const rateLimited: Record<FormatId, Json> = {
  'chat-completions': {
    error: {
      message: 'Rate limit exceeded for this API key',
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    },
  },
  responses: {
    error: {
      message: 'Rate limit exceeded for this API key',
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    },
  },
  messages: {
    type: 'error',
    error: { type: 'rate_limit_error', message: 'Rate limit exceeded for this API key' },
    request_id: null,
  },
  'content-generation': {
    error: {
      code: 429,
      message: 'Rate limit exceeded for this API key',
      status: 'RESOURCE_EXHAUSTED',
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '30s' }],
    },
  },
}

const suspended: Record<FormatId, (body: Json) => unknown> = {
  'chat-completions': (body) => [body.error.type, body.error.message],
  responses: (body) => [body.error.type, body.error.message],
  messages: (body) => [body.error.type, body.error.message],
  'content-generation': (body) => [body.error.status, body.error.message],
}
const suspendedExpected: Record<FormatId, unknown> = {
  'chat-completions': ['permission_error', 'This account is suspended'],
  responses: ['permission_error', 'This account is suspended'],
  messages: ['permission_error', 'This account is suspended'],
  'content-generation': ['PERMISSION_DENIED', 'This account is suspended'],
}

describe.each(formatIds)('%s client', (format) => {
  const request = (key: string, model = 'via-messages', scenario = {}) => {
    const { path, body } = wireRequest(format, model, scenario)
    return post(format, path, body, key)
  }

  it('a model outside the allow-list is a 403 in the client format, never sent upstream', async () => {
    const { gateway, calls } = callerStack()
    const response = await gateway.fetch(request('alice-key', 'via-content-generation'))
    expect(response.status).toBe(403)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.json()).toEqual(modelForbidden[format])
    expect(calls).toEqual([])
    // The same model for a caller without an allow-list passes.
    expect((await gateway.fetch(request('open-key', 'via-content-generation'))).status).toBe(200)
  })

  it('a rate-limited caller is a 429 with retry-after (rounded up to whole seconds)', async () => {
    const { gateway, calls } = callerStack()
    for (const key of ['slow-key', 'literal-key']) {
      const response = await gateway.fetch(request(key))
      expect(response.status).toBe(429)
      const body = (await response.json()) as Json
      if (key === 'slow-key') {
        expect(response.headers.get('retry-after')).toBe('30')
        expect(body).toEqual(rateLimited[format])
      } else {
        expect(response.headers.get('retry-after')).toBeNull()
        expect(JSON.stringify(body)).toContain('Rate limit exceeded for this API key')
      }
    }
    expect(calls).toEqual([])
  })

  it('a refused caller is a 403 or a 401 with the message chosen; unknown and missing keys are 401 (Gemini: 403 without a key)', async () => {
    const { gateway } = callerStack()
    const banned = await gateway.fetch(request('banned-key'))
    expect(banned.status).toBe(403)
    expect(suspended[format](await banned.json())).toEqual(suspendedExpected[format])
    const expired = await gateway.fetch(request('expired-key'))
    expect(expired.status).toBe(401)
    expect(JSON.stringify(await expired.json())).toContain('This API key has expired')
    expect((await gateway.fetch(request('nobody'))).status).toBe(401)
    const { path, body } = wireRequest(format, 'via-messages')
    const anonymous = await gateway.fetch(new Request(`${base}${path}`, { method: 'POST', body: JSON.stringify(body) }))
    expect(anonymous.status).toBe(format === 'content-generation' ? 403 : 401)
  })

  it("the caller reaches onRequest and onResponse (never the key), with a passthrough stream's usage", async () => {
    const events: Json[] = []
    const { gateway } = callerStack({
      onRequest: (event) => events.push({ hook: 'request', ...event }),
      onResponse: (event) => events.push({ hook: 'response', ...event }),
    })
    // Same-format upstream: the stream is forwarded as is, its usage read from the bytes.
    const model = format === 'messages' ? 'via-messages' : 'via-chat-completions'
    const answer = await gateway.fetch(request('alice-key', model, { stream: true }))
    expect(answer.status).toBe(200)
    expect(events.map((event) => event.hook)).toEqual(['request'])
    await answer.text()
    const response = events.find((event) => event.hook === 'response')
    expect(response).toMatchObject({ caller: alice, model, status: 200, stream: true })
    if (format === 'messages' || format === 'chat-completions') {
      expect(response.upstream).toBe(format === 'messages' ? 'anthropic' : 'openai')
      expect(response.usage).toEqual(expect.objectContaining({ inputTokens: 3, outputTokens: 15 }))
    }
    expect(JSON.stringify(events)).not.toMatch(/alice-key|upstream-\w+-key/)
  })

  it('the caller reaches resolveModel', async () => {
    const seen: GatewayContext[] = []
    const { gateway } = stack({
      apiKeys: [],
      authenticate,
      models: undefined,
      resolveModel: (model, context) => {
        seen.push(context)
        return context.caller?.plan === 'pro' ? { upstream: 'anthropic', model } : undefined
      },
    })
    expect((await gateway.fetch(request('alice-key', 'via-messages'))).status).toBe(200)
    expect(seen[0]?.caller).toBe(alice)
    expect((await gateway.fetch(request('open-key', 'via-messages'))).status).toBe(404)
  })
})

describe('passthrough usage in onResponse', () => {
  const upstreamOf: Record<FormatId, string> = {
    'chat-completions': 'via-chat-completions',
    messages: 'via-messages',
    'content-generation': 'via-content-generation',
    responses: 'via-responses',
  }

  it.each(formatIds)('%s: streamed, JSON, and translated both ways', async (format) => {
    const events: GatewayResponseEvent[] = []
    const { gateway, calls } = callerStack({ onResponse: (event) => events.push(event) })
    const run = async (model: string, stream: boolean) => {
      const { path, body } = wireRequest(format, model, { stream })
      const response = await gateway.fetch(post(format, path, body, 'open-key'))
      expect(response.status).toBe(200)
      await response.text()
      return events.at(-1) as GatewayResponseEvent
    }
    const passthroughStream = await run(upstreamOf[format], true)
    // The bytes were forwarded untouched (same format): the upstream call was a stream of this format.
    expect(calls.at(-1)?.url).toMatch(format === 'content-generation' ? /streamGenerateContent/ : /./)
    const passthroughJson = await run(upstreamOf[format], false)
    const other = format === 'messages' ? 'via-chat-completions' : 'via-messages'
    const translatedStream = await run(other, true)
    const translatedJson = await run(other, false)
    for (const event of [passthroughStream, passthroughJson, translatedStream, translatedJson]) {
      expect(event.caller).toEqual({ id: 'acct-open' })
      expect(event.usage).toMatchObject({ inputTokens: 3, outputTokens: 15 })
    }
  })

  it('content-generation without alt=sse (a JSON array, not at event boundaries) still reports usage', async () => {
    const events: GatewayResponseEvent[] = []
    const { gateway, calls } = callerStack({ onResponse: (event) => events.push(event) })
    const { body } = wireRequest('content-generation', 'via-content-generation')
    const response = await gateway.fetch(
      post('content-generation', '/v1beta/models/via-content-generation:streamGenerateContent', body, 'open-key'),
    )
    expect(response.headers.get('content-type')).toBe('application/json')
    const chunks = (await response.json()) as Json[]
    expect(chunks.length).toBeGreaterThan(1)
    // Passthrough: the upstream was asked for its JSON array too (no alt=sse), and its bytes forwarded.
    expect(calls[0]?.url).toBe('http://upstream.test/v1beta/models/upstream-model:streamGenerateContent')
    expect(events[0]?.usage).toMatchObject({ inputTokens: 3, outputTokens: 15 })
  })

  it('messages: input counts from message_start, output from message_delta, cache reads included', async () => {
    const events: GatewayResponseEvent[] = []
    const sse = [
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"cache_read_input_tokens":90,"output_tokens":1}}}\n\n',
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a \\"usage\\": {\\"input_tokens\\": 999} in text"}}\n\n',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":42}}\n\n',
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ]
    const upstream = async () =>
      new Response(
        new ReadableStream({
          start(controller) {
            for (const chunk of sse) controller.enqueue(new TextEncoder().encode(chunk))
            controller.close()
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      )
    const { gateway } = stack({ onResponse: (event) => events.push(event) }, upstream)
    const { path, body } = wireRequest('messages', 'via-messages', { stream: true })
    const text = await (await gateway.fetch(post('messages', path, body))).text()
    expect(text).toBe(sse.join(''))
    expect(events[0]?.usage).toEqual({ inputTokens: 100, outputTokens: 42, cachedInputTokens: 90 })
  })

  it('an upstream failing mid-stream: the usage sent so far, with the error', async () => {
    const events: GatewayResponseEvent[] = []
    const start =
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":1}}}\n\n'
    const { gateway } = stack({ onResponse: (event) => events.push(event) }, failingUpstream(start))
    const { path, body } = wireRequest('messages', 'via-messages', { stream: true })
    const text = await (await gateway.fetch(post('messages', path, body))).text()
    expect(text.startsWith(start)).toBe(true)
    expect(text).toContain('event: error')
    expect(events[0]).toMatchObject({ error: 'upstream', usage: { inputTokens: 7, outputTokens: 1 } })
  })

  it('a client leaving a passthrough stream early reports what was sent', async () => {
    const events: GatewayResponseEvent[] = []
    const { gateway } = stack({ onResponse: (event) => events.push(event) })
    const { path, body } = wireRequest('messages', 'via-messages', { stream: true })
    const response = await gateway.fetch(post('messages', path, body))
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    await reader.read()
    await reader.cancel()
    expect(events).toHaveLength(1)
    expect(events[0]?.usage?.inputTokens).toBe(3)
  })
})

describe('model listings follow the allow-list', () => {
  const listings: Array<[FormatId, string, Record<string, string>, (body: Json) => string[]]> = [
    ['chat-completions', '/v1/models', {}, (body) => body.data.map((m: Json) => m.id)],
    ['messages', '/v1/models', { 'anthropic-version': '2023-06-01' }, (body) => body.data.map((m: Json) => m.id)],
    ['content-generation', '/v1beta/models', {}, (body) => body.models.map((m: Json) => m.baseModelId)],
  ]

  it.each(listings)('%s', async (format, path, extra, ids) => {
    const { gateway } = callerStack()
    const list = async (key: string) => {
      const response = await gateway.fetch(
        new Request(`${base}${path}`, { headers: { ...authHeaders(format, key), ...extra } }),
      )
      expect(response.status).toBe(200)
      return ids(await response.json())
    }
    expect(await list('alice-key')).toEqual(['via-chat-completions', 'via-messages'])
    expect(await list('open-key')).toHaveLength(4)
    const one = async (model: string) =>
      gateway.fetch(
        new Request(`${base}${path}/${model}`, { headers: { ...authHeaders(format, 'alice-key'), ...extra } }),
      )
    expect((await one('via-messages')).status).toBe(200)
    const forbidden = await one('via-responses')
    expect(forbidden.status).toBe(403)
    expect(JSON.stringify(await forbidden.json())).toContain('may not use the model \\"via-responses\\"')
  })
})

describe('authenticate answers', () => {
  it('onWarning receives the caller', async () => {
    const seen: Json[] = []
    const { gateway } = callerStack({ onWarning: (warning, event) => seen.push({ path: warning.path, event }) })
    const body = { model: 'via-messages', messages: [{ role: 'user', content: 'hi' }], logit_bias: { '50256': -100 } }
    expect((await gateway.fetch(post('chat-completions', '/v1/chat/completions', body, 'alice-key'))).status).toBe(200)
    expect(seen).toContainEqual({ path: 'logit_bias', event: expect.objectContaining({ caller: alice }) })
  })

  it('true and false keep working, apiKeys still pass without a caller', async () => {
    const events: GatewayResponseEvent[] = []
    const gateway = createGateway({
      apiKeys: ['static-key'],
      authenticate: (key) => key === 'yes',
      onResponse: (event) => events.push(event),
    })
    const { path, body } = wireRequest('chat-completions', 'm')
    expect((await gateway.fetch(post('chat-completions', path, body, 'yes'))).status).toBe(200)
    expect((await gateway.fetch(post('chat-completions', path, body, 'static-key'))).status).toBe(200)
    expect((await gateway.fetch(post('chat-completions', path, body, 'no'))).status).toBe(401)
    expect(events.map((event) => [event.status, 'caller' in event])).toEqual([
      [200, false],
      [200, false],
      [401, false],
    ])
  })

  it('onResponse tells a refusal (its reason, never a caller) from an upstream error or an allow-list 403', async () => {
    const events: GatewayResponseEvent[] = []
    const requests: unknown[] = []
    const upstream429 = async () =>
      Response.json({ error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } }, { status: 429 })
    const { gateway } = stack(
      {
        apiKeys: [],
        authenticate,
        onRequest: (event) => requests.push(event),
        onResponse: (event) => events.push(event),
      },
      upstream429,
    )
    const { path, body } = wireRequest('chat-completions', 'via-messages')
    const send = (key?: string) => gateway.fetch(post('chat-completions', path, body, key))
    for (const key of ['slow-key', 'banned-key', 'expired-key', 'nobody', 'alice-key', 'open-key']) {
      await (await send(key)).text()
    }
    await (await gateway.fetch(new Request(`${base}${path}`, { method: 'POST', body: JSON.stringify(body) }))).text()
    const forbidden = await gateway.fetch(
      post('chat-completions', path, { ...body, model: 'via-responses' }, 'alice-key'),
    )
    await forbidden.text()
    const seen = events.map((event) => [event.status, event.error, event.refused, event.caller?.id, event.upstream])
    expect(seen).toEqual([
      [429, 'rate-limit', 'rate-limit', undefined, undefined],
      [403, 'permission', 'permission', undefined, undefined],
      [401, 'authentication', 'authentication', undefined, undefined],
      [401, 'authentication', 'authentication', undefined, undefined],
      // The upstream's own 429: no `refused`, with the caller and the upstream.
      [429, 'rate-limit', undefined, 'acct-alice', 'anthropic'],
      [429, 'rate-limit', undefined, 'acct-open', 'anthropic'],
      // No key at all.
      [401, 'authentication', 'authentication', undefined, undefined],
      // A model outside the allow-list: the caller's 403, not a refusal of the key.
      [403, 'permission', undefined, 'acct-alice', undefined],
    ])
    // onRequest fires only for requests that were routed to an upstream.
    expect(requests).toHaveLength(2)
    for (const event of events.filter((event) => event.refused)) {
      expect(Object.keys(event).sort()).toEqual(
        ['error', 'firstByteMs', 'format', 'kind', 'latencyMs', 'refused', 'requestId', 'status', 'warnings'].sort(),
      )
    }
  })

  it('a malformed answer (a caller without an id, an unknown refusal) fails closed', async () => {
    const { path, body } = wireRequest('messages', 'm')
    for (const answer of [{ models: ['m'] }, { refuse: 'later' }]) {
      const gateway = createGateway({ authenticate: () => answer as never })
      const response = await gateway.fetch(post('messages', path, body))
      expect(response.status).toBe(500)
      expect(((await response.json()) as Json).error.type).toBe('api_error')
    }
  })
})

describe('usageObjectIn', () => {
  it('takes the first or last object value, skipping null, escaped keys and cut objects', () => {
    const text =
      '{"usage":null,"text":"\\"usage\\": {\\"a\\": 1}","usage":{"a":2,"d":{"b":"}"}},"x":{"usage":{"a":3}}, "usage" : {"a":'
    expect(usageObjectIn(text, 'usage', false)).toEqual({ a: 2, d: { b: '}' } })
    expect(usageObjectIn(text, 'usage', true)).toEqual({ a: 3 })
    expect(usageObjectIn('"usageMetadata":{"a":1}', 'usage', true)).toBeUndefined()
    expect(usageObjectIn('"usage":{"a":1', 'usage', true)).toBeUndefined()
  })
})

describe('the Node fast path', () => {
  let server: Server
  let url: string
  const events: GatewayResponseEvent[] = []
  beforeAll(async () => {
    const { gateway } = callerStack({ onResponse: (event) => events.push(event) })
    server = createServer(toNodeListener(gateway))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('answers 429 with retry-after and 403, and reports the caller and passthrough stream usage', async () => {
    const send = (key: string, model: string, stream = false) => {
      const { path, body } = wireRequest('content-generation', model, { stream })
      return fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...authHeaders('content-generation', key) },
        body: JSON.stringify(body),
      })
    }
    const limited = await send('slow-key', 'via-content-generation')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('30')
    expect(await limited.json()).toEqual(rateLimited['content-generation'])
    const forbidden = await send('alice-key', 'via-content-generation')
    expect(forbidden.status).toBe(403)
    expect(await forbidden.json()).toEqual(modelForbidden['content-generation'])
    const streamed = await send('open-key', 'via-content-generation', true)
    expect(streamed.status).toBe(200)
    await streamed.text()
    await expect.poll(() => events.length).toBe(3)
    expect(events.map((event) => [event.status, event.caller?.id])).toEqual([
      [429, undefined],
      [403, 'acct-alice'],
      [200, 'acct-open'],
    ])
    expect(events[2]?.usage).toMatchObject({ inputTokens: 3, outputTokens: 15 })
  })
})
