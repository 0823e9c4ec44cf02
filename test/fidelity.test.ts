/**
 * Issue 10 fidelity fixes that cross formats: each test names the item it guards.
 */
import { describe, expect, it } from 'vitest'
import { convertRequest, convertResponse } from '../src/convert.js'
import { convertStream } from '../src/convert-stream.js'
import { createGateway } from '../src/gateway/create-gateway.js'

import type { Json } from './gateway-helpers.js'

describe('thinking asked by a non-Gemini client reaches a Gemini upstream with includeThoughts (§2)', () => {
  it('messages thinking.enabled → thinkingConfig.includeThoughts: true', () => {
    const body = convertRequest(
      {
        model: 'm',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        messages: [{ role: 'user', content: 'hi' }],
      },
      { from: 'messages', to: 'content-generation' },
    ) as Json
    expect(body.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 2048, includeThoughts: true })
  })
  it('messages display: "omitted" keeps the thoughts hidden', () => {
    const body = convertRequest(
      {
        model: 'm',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 2048, display: 'omitted' },
        messages: [{ role: 'user', content: 'hi' }],
      },
      { from: 'messages', to: 'content-generation' },
    ) as Json
    expect(body.generationConfig.thinkingConfig.includeThoughts).toBe(false)
  })
  it('chat-completions reasoning_effort → includeThoughts: true; "none" → thinking off', () => {
    const on = convertRequest(
      { model: 'm', reasoning_effort: 'high', messages: [{ role: 'user', content: 'hi' }] },
      { from: 'chat-completions', to: 'content-generation' },
    ) as Json
    expect(on.generationConfig.thinkingConfig.includeThoughts).toBe(true)
    const off = convertRequest(
      { model: 'm', reasoning_effort: 'none', messages: [{ role: 'user', content: 'hi' }] },
      { from: 'chat-completions', to: 'content-generation' },
    ) as Json
    expect(off.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 0 })
  })
})

describe('a conversion to the same format is the identity (§5)', () => {
  it('chat-completions: an assistant `content: ""` with tool calls stays ""', () => {
    const body = {
      model: 'gpt',
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
      some_vendor_field: { kept: true },
    }
    expect(convertRequest(body, { from: 'chat-completions', to: 'chat-completions' })).toEqual(body)
  })
  it('content-generation: an unsigned `thought: true` part in history is kept', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'thinking…', thought: true }, { text: 'hello' }] },
        { role: 'user', parts: [{ text: 'again' }] },
      ],
    }
    expect(convertRequest(body, { from: 'content-generation', to: 'content-generation', model: 'g' })).toEqual(body)
  })
  it('still validates: a bad field is refused with its path', () => {
    expect(() =>
      convertRequest(
        { model: 'm', messages: [{ role: 'nobody', content: 'x' }] },
        { from: 'chat-completions', to: 'chat-completions' },
      ),
    ).toThrow(/messages\[0\]/)
  })
  it('the model option replaces the model only', () => {
    const body = { model: 'a', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }
    expect(convertRequest(body, { from: 'messages', to: 'messages', model: 'b' })).toEqual({ ...body, model: 'b' })
    expect(body.model).toBe('a')
  })
  it('responses too', () => {
    const response = {
      candidates: [
        {
          content: { role: 'model', parts: [{ text: 'x', thought: true }, { text: 'y' }] },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      modelVersion: 'g-1',
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 2, totalTokenCount: 3 },
    }
    expect(convertResponse(response, { from: 'content-generation', to: 'content-generation' })).toEqual(response)
  })
})

describe('message_start carries the input tokens when they are known before the content (§6)', () => {
  async function messageStartUsage(stream: ReadableStream<Uint8Array>): Promise<Json> {
    const text = await new Response(stream).text()
    const line = text.split('\n').find((l) => l.startsWith('data: ') && l.includes('"message_start"'))
    return (JSON.parse((line as string).slice(6)) as Json).message.usage
  }
  it('from a Gemini stream (usageMetadata on the first chunk)', async () => {
    const chunk = (parts: Json[], extra: Json = {}) =>
      `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }], usageMetadata: { promptTokenCount: 42, candidatesTokenCount: 1, totalTokenCount: 43 }, modelVersion: 'g', responseId: 'r' })}\r\n\r\n`
    const sse = chunk([{ text: 'Hel' }]) + chunk([{ text: 'lo' }], { finishReason: 'STOP' })
    const out = convertStream(new Response(sse).body as ReadableStream<Uint8Array>, {
      from: 'content-generation',
      to: 'messages',
    })
    expect((await messageStartUsage(out)).input_tokens).toBe(42)
  })
  it('from the mock model, through the gateway', async () => {
    const gateway = createGateway()
    const response = await gateway.fetch(
      new Request('http://127.0.0.1/v1/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({
          model: 'm',
          max_tokens: 100,
          stream: true,
          messages: [{ role: 'user', content: 'Say hello to everyone here' }],
        }),
      }),
    )
    expect((await messageStartUsage(response.body as ReadableStream<Uint8Array>)).input_tokens).toBeGreaterThan(0)
  })
})

describe('tools marked defer_loading are reported when the target cannot defer them (§7)', () => {
  const body = {
    model: 'claude',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'hi' }],
    tools: [
      { name: 'Read', description: 'read a file', input_schema: { type: 'object', properties: {} } },
      {
        name: 'mcp__big__tool',
        description: 'deferred',
        input_schema: { type: 'object', properties: {} },
        defer_loading: true,
      },
    ],
  }
  it.each(['chat-completions', 'content-generation'] as const)('→ %s: a dropped warning on the tool', (to) => {
    const warnings: { path: string; message: string }[] = []
    const out = convertRequest(body, { from: 'messages', to, onWarning: (w) => warnings.push(w) }) as Json
    expect(warnings).toContainEqual(
      expect.objectContaining({
        type: 'dropped',
        path: 'tools[1].defer_loading',
        message: expect.stringMatching(/ordinary function/),
      }),
    )
    expect(JSON.stringify(out)).not.toContain('defer_loading')
    expect(() => convertRequest(body, { from: 'messages', to, strict: true })).toThrow(/tools\[1\]\.defer_loading/)
  })
  it('→ messages (same format): kept', () => {
    expect(convertRequest(body, { from: 'messages', to: 'messages' })).toEqual(body)
  })
})

describe('invalid input is refused, not forwarded (§4)', () => {
  const gateway = createGateway()
  it('messages: a content block of an unknown type → 400 invalid_request_error naming the path', async () => {
    const response = await gateway.fetch(
      new Request('http://127.0.0.1/v1/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({
          model: 'm',
          max_tokens: 10,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'hi' },
                { type: 'hologram', data: 'x' },
              ],
            },
          ],
        }),
      }),
    )
    expect(response.status).toBe(400)
    const body = (await response.json()) as Json
    expect(body.error.type).toBe('invalid_request_error')
    expect(body.error.message).toMatch(/^messages\[0\]\.content\[1\]\.type: unknown block type 'hologram'/)
  })
  it('content-generation: an unknown part field or role → 400 INVALID_ARGUMENT naming the path', async () => {
    for (const contents of [
      [{ role: 'user', parts: [{ text: 'hi', sparkle: true }] }],
      [{ role: 'assistant', parts: [{ text: 'hi' }] }],
    ]) {
      const response = await gateway.fetch(
        new Request('http://127.0.0.1/v1beta/models/g:generateContent', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ contents }),
        }),
      )
      expect(response.status).toBe(400)
      const body = (await response.json()) as Json
      expect(body.error.status).toBe('INVALID_ARGUMENT')
      expect(body.error.message).toMatch(/^contents\[0\]\.(parts\[0\]\.sparkle|role): /)
    }
  })
})
