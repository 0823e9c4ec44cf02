/**
 * Client format × upstream format (3 × 3), text and tools, streaming and not, through the gateway to in-process
 * upstreams of each format (a mock-model gateway behind the injected fetch). Also: passthrough byte-exactness and
 * model rewriting (policy 1), the upstream key set by the gateway and the client key never forwarded (policy 10).
 */
import { describe, expect, it } from 'vitest'
import { createGateway } from '../src/gateway/create-gateway.js'
import type { FormatId } from '../src/ir/index.js'
import { formatIds, type Json, parseSse, post, stack, summarize, summarizeSse, wireRequest } from './gateway-helpers.js'

const stop: Record<FormatId, string> = {
  'chat-completions': 'stop',
  messages: 'end_turn',
  'content-generation': 'STOP',
  responses: 'completed',
}
const toolStop: Record<FormatId, string> = {
  'chat-completions': 'tool_calls',
  messages: 'tool_use',
  'content-generation': 'STOP',
  responses: 'completed',
}
const upstreamKeyHeader: Record<FormatId, [string, string]> = {
  'chat-completions': ['authorization', 'Bearer upstream-openai-key'],
  messages: ['x-api-key', 'upstream-anthropic-key'],
  'content-generation': ['x-goog-api-key', 'upstream-gemini-key'],
  responses: ['authorization', 'Bearer upstream-responses-key'],
}
const cells = formatIds.flatMap((client) => formatIds.map((upstream) => [client, upstream] as const))

describe.each(cells)('%s client → %s upstream', (client, upstream) => {
  const model = `via-${upstream}`

  it.each([false, true])('text (stream: %s)', async (stream) => {
    const { gateway, calls } = stack()
    const { path, body } = wireRequest(client, model, { stream })
    const response = await gateway.fetch(post(client, path, body))
    expect(response.status).toBe(200)
    const summary = stream ? summarizeSse(client, await response.text()) : summarize(client, await response.json())
    expect(summary).toEqual({
      text: 'This is the interlingua mock model answering "Say hello".',
      tools: [],
      finish: stop[client],
    })
    expect(calls).toHaveLength(1)
    const call = calls[0] as (typeof calls)[0]
    const [header, value] = upstreamKeyHeader[upstream]
    expect(call.headers.get(header)).toBe(value)
    for (const [, v] of call.headers) expect(v).not.toContain('client-key')
    expect(call.body).not.toContain('client-key')
    if (upstream === 'content-generation') expect(call.url).toContain('/models/upstream-model:')
    else expect((JSON.parse(call.body) as Json).model).toBe('upstream-model')
  })

  it.each([false, true])('tools (stream: %s)', async (stream) => {
    const { gateway } = stack()
    const { path, body } = wireRequest(client, model, { stream, tools: true })
    const response = await gateway.fetch(post(client, path, body))
    expect(response.status).toBe(200)
    const summary = stream ? summarizeSse(client, await response.text()) : summarize(client, await response.json())
    expect(summary).toEqual({ text: '', tools: ['get_weather'], finish: toolStop[client] })
  })

  it('an image reaches the upstream model', async () => {
    const { gateway } = stack()
    const { path, body } = wireRequest(client, model, { imageBase64: 'iVBORw0KGgo=' })
    const json = await (await gateway.fetch(post(client, path, body))).json()
    expect(summarize(client, json).text).toContain('I see 1 image (image/png)')
  })
})

describe('same-format passthrough (policy 1)', () => {
  const raw: Record<FormatId, string> = {
    'chat-completions':
      'data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"vendor-model","choices":[{"index":0,"delta":{"content":"hi","vendor_field":1},"finish_reason":null}]}\n\ndata: [DONE]\n\n',
    messages:
      'event: ping\ndata: {"type":"ping"}\n\n: keep-alive\n\nevent: vendor_event\ndata: {"type":"vendor_event","x":1}\n\n',
    'content-generation':
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"hi"}]}}],"futureField":{"a":1}}\r\n\r\n',
    responses:
      'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","vendor":1}}\n\nevent: acme:trace\ndata: {"type":"acme:trace"}\n\n',
  }

  it.each(formatIds)(
    '%s: body forwarded with the model rewritten, response bytes streamed back untouched',
    async (format) => {
      // Only allow-listed headers are relayed; `relayHeaders` adds to the list, `set-cookie` never passes.
      const { gateway, calls } = stack(
        { relayHeaders: ['x-vendor'] },
        async () =>
          new Response(raw[format], {
            headers: { 'content-type': 'text/event-stream', 'x-vendor': 'v', 'set-cookie': 's=1', 'x-other': 'o' },
          }),
      )
      const { path, body } = wireRequest(format, `via-${format}`, { stream: true })
      body.vendor_extension = { keep: true }
      const response = await gateway.fetch(post(format, path, body))
      expect(await response.text()).toBe(raw[format])
      expect(response.headers.get('x-vendor')).toBe('v')
      expect(response.headers.get('set-cookie')).toBeNull()
      expect(response.headers.get('x-other')).toBeNull()
      const sent = JSON.parse(calls[0]?.body ?? '{}') as Json
      expect(sent.vendor_extension).toEqual({ keep: true })
      if (format !== 'content-generation') expect(sent.model).toBe('upstream-model')
      else expect(calls[0]?.url).toBe('http://upstream.test/v1beta/models/upstream-model:streamGenerateContent?alt=sse')
    },
  )

  it('JSON answers pass through byte for byte', async () => {
    const text = '{ "id": "chatcmpl-1",  "object": "chat.completion", "choices": [], "new_field": "\\u00e9" }'
    const { gateway } = stack(
      {},
      async () =>
        new Response(text, { headers: { 'content-type': 'application/json', 'content-length': String(text.length) } }),
    )
    const { path, body } = wireRequest('chat-completions', 'via-chat-completions')
    const response = await gateway.fetch(post('chat-completions', path, body))
    expect(await response.text()).toBe(text)
    expect(response.headers.get('content-length')).toBeNull()
  })

  it('count_tokens is forwarded when the upstream speaks the client format', async () => {
    const { gateway, calls } = stack({}, async () => Response.json({ input_tokens: 42 }))
    const response = await gateway.fetch(
      post('messages', '/v1/messages/count_tokens', {
        model: 'via-messages',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    )
    expect(await response.json()).toEqual({ input_tokens: 42 })
    expect(response.headers.get('x-interlingua-token-count')).toBeNull()
    expect(calls[0]?.url).toBe('http://upstream.test/v1/messages/count_tokens')
  })
})

describe('stream usage from a chat-completions upstream', () => {
  it('the gateway asks for include_usage, so a messages client gets usage', async () => {
    const { gateway, calls } = stack()
    const { path, body } = wireRequest('messages', 'via-chat-completions', { stream: true })
    const events = parseSse(await (await gateway.fetch(post('messages', path, body))).text())
    expect((JSON.parse(calls[0]?.body ?? '{}') as Json).stream_options).toEqual({ include_usage: true })
    const delta = events.find((e) => e.event === 'message_delta')
    expect(delta?.data.usage).toMatchObject({ input_tokens: 3, output_tokens: 15 })
  })
})

describe('a mock-model gateway is a faithful upstream of every format', () => {
  it('createGateway() needs no key and no network', async () => {
    const gateway = createGateway()
    const { path, body } = wireRequest('messages', 'claude-anything')
    const response = await gateway.fetch(new Request(`http://x${path}`, { method: 'POST', body: JSON.stringify(body) }))
    expect(response.status).toBe(200)
  })
})
