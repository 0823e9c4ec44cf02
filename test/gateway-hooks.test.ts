/**
 * Warnings (header + onWarning, strict mode), observability hooks (no keys), media fetching for content-generation
 * upstreams (policy 8), authenticate(), and a `{ format: 'mock' }` upstream.
 */
import { describe, expect, it, vi } from 'vitest'
import { createGateway } from '../src/gateway/create-gateway.js'
import type { GatewayRequestEvent, GatewayResponseEvent } from '../src/gateway/options.js'
import type * as ir from '../src/ir/index.js'
import { type Json, post, stack, summarize, wireRequest } from './gateway-helpers.js'

describe('warnings', () => {
  const body = { model: 'via-messages', messages: [{ role: 'user', content: 'hi' }], logit_bias: { '50256': -100 } }

  it('go to onWarning and the x-interlingua-warnings header', async () => {
    const seen: Array<{ warning: ir.Warning; event: GatewayRequestEvent }> = []
    const { gateway } = stack({ onWarning: (warning, event) => seen.push({ warning, event }) })
    const response = await gateway.fetch(post('chat-completions', '/v1/chat/completions', body))
    expect(response.status).toBe(200)
    const header = JSON.parse(response.headers.get('x-interlingua-warnings') ?? '[]') as string[]
    expect(header.some((item) => item.startsWith('logit_bias'))).toBe(true)
    expect(seen.some(({ warning }) => warning.path === 'logit_bias')).toBe(true)
    expect(seen[0]?.event).toMatchObject({ format: 'chat-completions', model: 'via-messages', upstream: 'anthropic' })
  })

  it('strict mode refuses the request with 400 unsupported-feature', async () => {
    const { gateway, calls } = stack({ strict: true })
    const response = await gateway.fetch(post('chat-completions', '/v1/chat/completions', body))
    expect(response.status).toBe(400)
    expect(((await response.json()) as Json).error.message).toContain('logit_bias')
    expect(calls).toEqual([])
  })

  it('passthrough reports none', async () => {
    const { gateway } = stack()
    const response = await gateway.fetch(
      post('chat-completions', '/v1/chat/completions', { ...body, model: 'via-chat-completions' }),
    )
    expect(response.headers.get('x-interlingua-warnings')).toBeNull()
  })
})

describe('observability hooks', () => {
  it('report format, model, upstream, status, usage and latency, never keys', async () => {
    const requests: GatewayRequestEvent[] = []
    const responses: GatewayResponseEvent[] = []
    const { gateway } = stack({ onRequest: (e) => requests.push(e), onResponse: (e) => responses.push(e) })
    const { path, body } = wireRequest('messages', 'via-content-generation')
    const response = await gateway.fetch(post('messages', path, body))
    await response.json()
    expect(requests).toEqual([
      {
        requestId: expect.stringMatching(/^req_/),
        format: 'messages',
        kind: 'generate',
        model: 'via-content-generation',
        stream: false,
        upstream: 'gemini',
        upstreamModel: 'upstream-model',
      },
    ])
    expect(responses).toEqual([
      {
        ...requests[0],
        status: 200,
        latencyMs: expect.any(Number),
        firstByteMs: expect.any(Number),
        usage: { inputTokens: 3, outputTokens: 15, totalTokens: 18 },
        warnings: 0,
      },
    ])
    expect(JSON.stringify([requests, responses])).not.toMatch(/client-key|upstream-\w+-key/)
  })

  it('fire onResponse at the end of a stream, with its usage, and on errors with the code', async () => {
    const responses: GatewayResponseEvent[] = []
    const { gateway } = stack({ onResponse: (e) => responses.push(e) })
    const { path, body } = wireRequest('chat-completions', 'via-messages', { stream: true })
    const response = await gateway.fetch(post('chat-completions', path, body))
    expect(responses).toEqual([])
    await response.text()
    expect(responses[0]).toMatchObject({ status: 200, stream: true, usage: { inputTokens: 3, outputTokens: 15 } })
    await gateway.fetch(post('chat-completions', path, body, 'bad-key'))
    expect(responses[1]).toMatchObject({ status: 401, error: 'authentication' })
    expect(JSON.stringify(responses)).not.toContain('bad-key')
  })
})

describe('time to the first byte', () => {
  it("is a stream's start, before its slow chunks; the end is latencyMs", async () => {
    const responses: GatewayResponseEvent[] = []
    const encoder = new TextEncoder()
    const chunk = (delta: Json) =>
      encoder.encode(
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, ...delta }] })}\n\n`,
      )
    // The upstream answers at once, then takes 300 ms for the rest of its stream.
    const slow = async () =>
      new Response(
        new ReadableStream({
          async start(controller) {
            controller.enqueue(chunk({ delta: { role: 'assistant', content: 'Hel' } }))
            await new Promise((resolve) => setTimeout(resolve, 300))
            controller.enqueue(chunk({ delta: { content: 'lo' }, finish_reason: 'stop' }))
            controller.enqueue(encoder.encode('data: [DONE]\n\n'))
            controller.close()
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      )
    const { gateway } = stack({ onResponse: (e) => responses.push(e) }, slow)
    const { path, body } = wireRequest('chat-completions', 'via-chat-completions', { stream: true })
    const response = await gateway.fetch(post('chat-completions', path, body))
    expect(await response.text()).toContain('lo')
    const [event] = responses
    expect(event?.firstByteMs).toBeLessThan(250)
    expect(event?.latencyMs).toBeGreaterThanOrEqual(290)
  })

  it("is a whole answer's latency", async () => {
    const responses: GatewayResponseEvent[] = []
    const { gateway } = stack({ onResponse: (e) => responses.push(e) })
    const { path, body } = wireRequest('chat-completions', 'via-messages')
    await (await gateway.fetch(post('chat-completions', path, body))).json()
    expect(responses[0]?.firstByteMs).toBe(responses[0]?.latencyMs)
  })

  it("is a whole answer's latency even when the clock ticks between two readings", async () => {
    const responses: GatewayResponseEvent[] = []
    const { gateway } = stack({ onResponse: (e) => responses.push(e) })
    const { path, body } = wireRequest('chat-completions', 'via-messages')
    let clock = Date.now()
    const now = vi.spyOn(Date, 'now').mockImplementation(() => clock++)
    try {
      await (await gateway.fetch(post('chat-completions', path, body))).json()
    } finally {
      now.mockRestore()
    }
    expect(responses[0]?.latencyMs).toBeGreaterThan(0)
    expect(responses[0]?.firstByteMs).toBe(responses[0]?.latencyMs)
  })
})

describe('media for content-generation upstreams (policy 8)', () => {
  const png = Uint8Array.from(atob('iVBORw0KGgo='), (c) => c.charCodeAt(0))
  const mediaFetch = (async (input: RequestInfo | URL) => {
    expect(String(input)).toBe('https://img.example.com/cat.png')
    return new Response(png, { headers: { 'content-type': 'image/png' } })
  }) as typeof fetch

  it('fetches an allowed http(s) image and inlines it, so it reaches the model', async () => {
    const { gateway, calls } = stack({ media: { fetch: mediaFetch, allowHosts: ['img.example.com'] } })
    const { path, body } = wireRequest('chat-completions', 'via-content-generation', {
      imageUrl: 'https://img.example.com/cat.png',
    })
    const response = await gateway.fetch(post('chat-completions', path, body))
    expect(summarize('chat-completions', await response.json()).text).toContain('I see 1 image (image/png)')
    const sent = JSON.parse(calls[0]?.body ?? '{}') as Json
    expect(sent.contents[0].parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } })
  })

  it.each([
    ['http://127.0.0.1/cat.png', 'media URL refused: 127.0.0.1 is a private or loopback address'],
    ['http://localhost/cat.png', 'media URL refused: localhost is a private or loopback address'],
    ['https://evil.example.net/cat.png', 'media URL refused: evil.example.net is not in the allowed hosts'],
  ])('refuses %s with 400 naming the part', async (url, message) => {
    const { gateway, calls } = stack({
      media: { fetch: mediaFetch, allowHosts: ['img.example.com', 'localhost', '127.0.0.1'] },
    })
    const { path, body } = wireRequest('messages', 'via-content-generation', { imageUrl: url })
    const response = await gateway.fetch(post('messages', path, body))
    expect(response.status).toBe(400)
    expect(((await response.json()) as Json).error).toEqual({
      type: 'invalid_request_error',
      message: `messages[0].content[1]: ${message}`,
    })
    expect(calls).toEqual([])
  })

  it('leaves URLs alone for formats that accept them', async () => {
    const { gateway, calls } = stack({ media: { fetch: mediaFetch } })
    const { path, body } = wireRequest('chat-completions', 'via-messages', { imageUrl: 'http://127.0.0.1/cat.png' })
    expect((await gateway.fetch(post('chat-completions', path, body))).status).toBe(200)
    expect(calls[0]?.body).toContain('http://127.0.0.1/cat.png')
  })
})

describe('authentication options', () => {
  it('authenticate() decides, sync or async, with the client format', async () => {
    const formats: string[] = []
    const gateway = createGateway({
      authenticate: async (key, { format }) => {
        formats.push(format)
        return key === 'from-callback'
      },
    })
    const { path, body } = wireRequest('content-generation', 'm')
    expect((await gateway.fetch(post('content-generation', path, body, 'from-callback'))).status).toBe(200)
    expect((await gateway.fetch(post('content-generation', path, body, 'other'))).status).toBe(401)
    expect(
      (
        await gateway.fetch(
          new Request(`http://g${path}?key=from-callback`, { method: 'POST', body: JSON.stringify(body) }),
        )
      ).status,
    ).toBe(200)
    expect(formats).toEqual(['content-generation', 'content-generation', 'content-generation'])
  })

  it('a { format: "mock" } upstream serves its models', async () => {
    const gateway = createGateway({
      upstreams: { local: { format: 'mock' } },
      models: { tiny: { upstream: 'local', model: 'tiny-internal' } },
    })
    const { path, body } = wireRequest('messages', 'tiny')
    const json = (await (await gateway.fetch(post('messages', path, body))).json()) as Json
    expect(json.model).toBe('tiny')
    expect(summarize('messages', json).text).toContain('mock model')
    expect((await gateway.fetch(post('messages', path, { ...body, model: 'other' }))).status).toBe(404)
  })
})
