/**
 * Policy 9 and friends through the gateway: 401 in each format's shape, 404, 400 naming the path, 413, upstream
 * statuses kept and re-encoded (429 + retry-after), unreachable → 502, timeout → 504, mid-stream failure → the
 * client format's in-stream error then a clean end, client abort → upstream abort.
 */
import { describe, expect, it } from 'vitest'
import type { FormatId } from '../src/ir/index.js'
import {
  failingUpstream,
  formatIds,
  geminiChunk,
  type Json,
  parseSse,
  post,
  stack,
  wireRequest,
} from './gateway-helpers.js'

const unauthorized: Record<FormatId, (body: Json) => void> = {
  'chat-completions': (body) =>
    expect(body.error).toMatchObject({ type: expect.any(String), message: 'Invalid API key' }),
  messages: (body) =>
    expect(body).toMatchObject({ type: 'error', error: { type: 'authentication_error', message: 'Invalid API key' } }),
  // As Gemini answers a wrong key: 400 INVALID_ARGUMENT, reason API_KEY_INVALID (issue 24 §3).
  'content-generation': (body) =>
    expect(body.error).toMatchObject({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: 'API key not valid. Please pass a valid API key.',
      details: [expect.objectContaining({ reason: 'API_KEY_INVALID' })],
    }),
  responses: (body) =>
    expect(body.error).toMatchObject({ type: expect.any(String), code: 'invalid_api_key', message: 'Invalid API key' }),
}

describe.each(formatIds)('%s client', (format) => {
  const model = `via-${format === 'messages' ? 'chat-completions' : 'messages'}`

  it('401 (Gemini: 400 API_KEY_INVALID) for a wrong key, in the client format, without echoing it', async () => {
    const { gateway, calls } = stack()
    const { path, body } = wireRequest(format, model)
    const response = await gateway.fetch(post(format, path, body, 'wrong-secret'))
    expect(response.status).toBe(format === 'content-generation' ? 400 : 401)
    const text = await response.text()
    expect(text).not.toContain('wrong-secret')
    unauthorized[format](JSON.parse(text))
    expect(calls).toEqual([])
  })

  it('401 (Gemini: 403 PERMISSION_DENIED) for a missing key', async () => {
    const { gateway } = stack()
    const { path, body } = wireRequest(format, model)
    const response = await gateway.fetch(new Request(`http://g${path}`, { method: 'POST', body: JSON.stringify(body) }))
    // As Gemini answers a request without a key: 403 PERMISSION_DENIED, "Method doesn't allow unregistered callers".
    if (format !== 'content-generation') expect(response.status).toBe(401)
    else
      expect([response.status, (await response.json()).error]).toEqual([
        403,
        {
          code: 403,
          status: 'PERMISSION_DENIED',
          message: expect.stringMatching(/^Method doesn't allow unregistered callers/),
        },
      ])
  })

  it('404 for an unknown model', async () => {
    const { gateway } = stack()
    const { path, body } = wireRequest(format, 'no-such-model')
    const response = await gateway.fetch(post(format, path, body))
    expect(response.status).toBe(404)
    expect(await response.text()).toContain('no-such-model')
  })

  it('400 for invalid JSON', async () => {
    const { gateway } = stack()
    const response = await gateway.fetch(post(format, wireRequest(format, model).path, '{"model": '))
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('not valid JSON')
  })

  it('413 for a body over the limit', async () => {
    const { gateway } = stack({ maxBodyBytes: 100 })
    const { path, body } = wireRequest(format, model, { text: 'x'.repeat(200) })
    const response = await gateway.fetch(post(format, path, body))
    expect(response.status).toBe(413)
  })

  it('502 when the upstream is unreachable, 504 when it is too slow', async () => {
    const unreachable = stack({}, async () => {
      throw new TypeError('fetch failed')
    })
    const { path, body } = wireRequest(format, model)
    expect((await unreachable.gateway.fetch(post(format, path, body))).status).toBe(502)
    const ignoresSignal = stack({ timeoutMs: 30 }, () => new Promise<Response>(() => {}))
    const honoursSignal = stack(
      { timeoutMs: 30 },
      (request) =>
        new Promise<Response>((_, reject) =>
          request.signal.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    )
    const slow = await Promise.all([
      ignoresSignal.gateway.fetch(post(format, path, body)),
      honoursSignal.gateway.fetch(post(format, path, body)),
    ])
    expect(slow.map((response) => response.status)).toEqual([504, 504])
  })
})

describe('400 naming the JSON path of the bad field', () => {
  it.each([
    [
      'chat-completions',
      { model: 'via-messages', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 5 } }] }] },
      'messages[0].content[0].image_url.url',
    ],
    [
      'messages',
      { model: 'via-chat-completions', max_tokens: 'ten', messages: [{ role: 'user', content: 'hi' }] },
      'max_tokens',
    ],
    ['content-generation', { contents: [{ role: 'user', parts: [{ text: 5 }] }] }, 'contents[0].parts[0].text'],
  ] as const)('%s', async (format, body, path) => {
    const { gateway } = stack()
    const url =
      format === 'content-generation' ? '/v1beta/models/via-messages:generateContent' : wireRequest(format, 'x').path
    const response = await gateway.fetch(post(format, url, body))
    expect(response.status).toBe(400)
    expect(await response.text()).toContain(path)
  })
})

describe('upstream statuses are kept and bodies re-encoded', () => {
  const rateLimited = async () =>
    new Response(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } }), {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '7' },
    })

  it.each([
    ['chat-completions', (body: Json) => expect(body.error.message).toBe('Slow down')],
    [
      'content-generation',
      (body: Json) =>
        expect(body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Slow down' }),
    ],
  ] as const)('messages upstream 429 → %s client 429 with retry-after', async (format, check) => {
    const { gateway } = stack({}, rateLimited)
    const { path, body } = wireRequest(format, 'via-messages')
    const response = await gateway.fetch(post(format, path, body))
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toBe('7')
    check(await response.json())
  })
})

describe('mid-stream upstream failure → in-stream error, then a clean end', () => {
  const failing = failingUpstream

  it('chat-completions client, content-generation upstream: data {"error"} after the partial text', async () => {
    const { gateway } = stack({}, failing(geminiChunk))
    const { path, body } = wireRequest('chat-completions', 'via-content-generation', { stream: true })
    const response = await gateway.fetch(post('chat-completions', path, body))
    expect(response.status).toBe(200)
    const events = parseSse(await response.text())
    expect(events.some((e) => e.data !== '[DONE]' && e.data.choices?.[0]?.delta?.content === 'Partial')).toBe(true)
    const error = events.find((e) => e.data !== '[DONE]' && e.data.error)
    expect(error?.data.error).toMatchObject({ message: expect.any(String) })
  })

  it('messages client: event: error', async () => {
    const { gateway } = stack({}, failing(geminiChunk))
    const { path, body } = wireRequest('messages', 'via-content-generation', { stream: true })
    const events = parseSse(await (await gateway.fetch(post('messages', path, body))).text())
    expect(events.at(-1)).toMatchObject({
      event: 'error',
      data: { type: 'error', error: { type: expect.any(String) } },
    })
  })

  it('passthrough: the format error frame is appended', async () => {
    const { gateway } = stack({}, failing(geminiChunk))
    const { path, body } = wireRequest('content-generation', 'via-content-generation', { stream: true })
    const text = await (await gateway.fetch(post('content-generation', path, body))).text()
    expect(text.startsWith(geminiChunk)).toBe(true)
    expect(parseSse(text).at(-1)?.data.error).toMatchObject({ code: 502 })
  })

  it('an error before any content is an HTTP error', async () => {
    const { gateway } = stack(
      {},
      async () =>
        new Response(
          'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    )
    const { path, body } = wireRequest('chat-completions', 'via-messages', { stream: true })
    const response = await gateway.fetch(post('chat-completions', path, body))
    expect(response.status).toBeGreaterThanOrEqual(500)
    expect(((await response.json()) as Json).error.message).toBe('Overloaded')
  })
})

describe('client abort aborts the upstream request', () => {
  const firstChunk: Record<string, string> = {
    'via-chat-completions':
      'data: {"id":"1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"a"},"finish_reason":null}]}\n\n',
    'via-messages':
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1}}}\n\n' +
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}\n\n',
  }
  it.each([
    ['chat-completions', 'via-messages'],
    ['chat-completions', 'via-chat-completions'],
    ['messages', 'via-messages'],
  ] as const)('%s client streaming %s', async (format, model) => {
    const chunk = new TextEncoder().encode(firstChunk[model])
    const upstreamBody = () => new ReadableStream({ start: (c) => c.enqueue(chunk) })
    const { gateway, calls } = stack(
      {},
      async () => new Response(upstreamBody(), { headers: { 'content-type': 'text/event-stream' } }),
    )
    const client = new AbortController()
    const { path, body } = wireRequest(format, model, { stream: true })
    const response = await gateway.fetch(post(format, path, body, 'client-key', { signal: client.signal }))
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    await reader.read()
    expect(calls[0]?.signal?.aborted).toBe(false)
    await reader.cancel()
    expect(calls[0]?.signal?.aborted).toBe(true)
  })

  it('request.signal aborting before the upstream answers aborts its fetch', async () => {
    let upstreamSignal: AbortSignal | undefined
    const { gateway } = stack({}, (request) => {
      upstreamSignal = request.signal
      return new Promise<Response>((_, reject) =>
        request.signal.addEventListener('abort', () => reject(new Error('aborted'))),
      )
    })
    const client = new AbortController()
    const { path, body } = wireRequest('messages', 'via-content-generation')
    const pending = gateway.fetch(post('messages', path, body, 'client-key', { signal: client.signal }))
    await new Promise((resolve) => setTimeout(resolve, 10))
    client.abort()
    await pending
    expect(upstreamSignal?.aborted).toBe(true)
  })
})
