/**
 * Policy 1's exception (issue 21 §4, DESIGN §4.1): a same-format passthrough never forwards another provider's
 * reasoning envelope or an unsigned thinking block; it finds them by one scan of the client's text for the envelope
 * marker, so a body without the marker is forwarded byte for byte and never walked. The SDK conversations across two
 * providers are in sdk/cross-provider.test.ts; here, each format's cleaner and the gateway's use of it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ownReasoningOnly as contentGenerationOwn } from '../src/formats/content-generation/own-reasoning.js'
import { getGatewayFormat } from '../src/formats/gateway.js'
import { ownReasoningOnly as messagesOwn } from '../src/formats/messages/own-reasoning.js'
import { ownReasoningOnly as responsesOwn } from '../src/formats/responses/own-reasoning.js'
import { translateRequest } from '../src/gateway.js'
import { unsignedEnvelope, wrapEnvelope } from '../src/shared/reasoning-envelope.js'
import { type Json, post, stack } from './gateway-helpers.js'

const fromGemini = wrapEnvelope({ providerData: { 'content-generation': { thoughtSignature: 'CiQBgem' } } })
const fromAnthropic = wrapEnvelope({ providerData: { messages: { signature: 'EqQBown' } } })
const call = { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }
const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18' }] }

function messagesBody(assistant: Json[], extra: Json = {}) {
  return {
    model: 'via-messages',
    max_tokens: 2048,
    messages: [{ role: 'user', content: 'Weather?' }, { role: 'assistant', content: assistant }, result],
    ...extra,
  }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the gateway scans once, and walks only a body with the marker', () => {
  it('no marker: the cleaner is not called and the bytes go as sent (model spliced)', async () => {
    const spy = vi.spyOn(getGatewayFormat('messages'), 'ownReasoningOnly' as never)
    const { gateway, calls } = stack()
    // Odd spacing, a native signature, and the prefix in text without a string's opening quote before it.
    const assistant = [{ type: 'thinking', thinking: 'see il1.x', signature: 'EqQBnative' }, call]
    const text = JSON.stringify(messagesBody(assistant), null, 3)
    const response = await gateway.fetch(post('messages', '/v1/messages', text))
    expect(response.status).toBe(200)
    expect(spy).not.toHaveBeenCalled()
    expect(calls[0]?.body).toBe(text.replace('"via-messages"', '"upstream-model"'))
  })

  it('the marker: cleaned once, reported in the warnings header; with strict a 400', async () => {
    const spy = vi.spyOn(getGatewayFormat('messages'), 'ownReasoningOnly' as never)
    const { gateway, calls } = stack()
    const assistant = [
      { type: 'thinking', thinking: 'Gemini thought', signature: unsignedEnvelope() },
      { type: 'redacted_thinking', data: fromGemini },
      call,
    ]
    const body = messagesBody(assistant, { thinking: { type: 'enabled', budget_tokens: 1024 } })
    const response = await gateway.fetch(post('messages', '/v1/messages', body))
    expect(response.status).toBe(200)
    expect(spy).toHaveBeenCalledTimes(1)
    expect(response.headers.get('x-interlingua-warnings')).toContain('thinking disabled')
    const sent = JSON.parse(calls[0]?.body ?? '{}') as Json
    expect(sent.model).toBe('upstream-model')
    expect(sent.messages[1].content).toEqual([call])
    expect(sent.thinking).toEqual({ type: 'disabled' })
    const strict = await stack({ strict: true }).gateway.fetch(post('messages', '/v1/messages', body))
    expect(strict.status).toBe(400)
  })

  it('Responses: another provider’s reasoning item is left out, OpenAI’s own goes as it came', async () => {
    const { gateway, calls } = stack()
    const own = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAown' }
    const foreign = { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: fromAnthropic }
    const input = [{ role: 'user', content: 'Weather?' }, own, foreign]
    const response = await gateway.fetch(post('responses', '/v1/responses', { model: 'via-responses', input }))
    expect(response.status).toBe(200)
    expect((JSON.parse(calls[0]?.body ?? '{}') as Json).input).toEqual([input[0], own])
    expect(responsesOwn({ input: [own] })).toBeUndefined()
  })
})

describe('translateRequest with the same format in and out (a Fetch-level passthrough)', () => {
  it('leaves another provider’s reasoning out too, and reports it', async () => {
    const warnings: string[] = []
    const body = messagesBody([{ type: 'thinking', thinking: 'x', signature: fromGemini }, call])
    const request = new Request('http://local.test/v1/messages', { method: 'POST', body: JSON.stringify(body) })
    const upstream = await translateRequest(request, {
      from: 'messages',
      to: 'messages',
      upstream: { baseURL: 'https://api.anthropic.com', apiKey: 'k' },
      onWarning: (warning) => warnings.push(warning.path ?? ''),
    })
    expect(((await upstream.json()) as Json).messages[1].content).toEqual([call])
    expect(warnings).toEqual(['messages[1].content[0]'])
  })
})

describe('messages: only Anthropic’s own reasoning', () => {
  it('unwraps an envelope of its own signature and keeps native blocks untouched', () => {
    const native = { type: 'thinking', thinking: 'a', signature: 'EqQBnative' }
    const out = messagesOwn(messagesBody([native, { type: 'thinking', thinking: 'b', signature: fromAnthropic }, call]))
    expect((out as Json).value.messages[1].content).toEqual([
      native,
      { type: 'thinking', thinking: 'b', signature: 'EqQBown' },
      call,
    ])
    expect(out?.warnings).toEqual([])
    expect(messagesOwn(messagesBody([native, call]))).toBeUndefined()
  })

  it('with thinking off for the request, a clear_thinking edit (which needs it on) is dropped too', () => {
    const edits = [{ type: 'clear_thinking_20251015', keep: 'all' }]
    const body = messagesBody([{ type: 'thinking', thinking: 'x', signature: fromGemini }, call], {
      thinking: { type: 'adaptive' },
      context_management: { edits },
    })
    const out = messagesOwn(body)?.value as Json
    expect(out.thinking).toEqual({ type: 'disabled' })
    expect(out.context_management).toBeUndefined()
    expect(body.context_management.edits).toBe(edits) // the client's body is not changed in place
  })

  it('an assistant turn left empty is dropped', () => {
    const body = messagesBody([{ type: 'thinking', thinking: 'x', signature: fromGemini }])
    const out = messagesOwn(body)
    expect((out as Json).value.messages.map((m: Json) => m.role)).toEqual(['user', 'user'])
    expect(out?.warnings.map((w) => w.path)).toEqual(['messages[1].content[0]', 'messages[1]'])
  })
})

describe('content-generation: only Gemini’s own signatures', () => {
  it('unwraps its own, drops a foreign thought, strips a foreign signature, signs the call with the stand-in', () => {
    const contents = [
      { role: 'user', parts: [{ text: 'Weather?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Claude thought', thought: true, thoughtSignature: fromAnthropic },
          { text: 'Looking.', thoughtSignature: fromAnthropic },
          { functionCall: { name: 'get_weather', args: {} } },
        ],
      },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: {} }, thoughtSignature: fromGemini }] },
    ]
    const out = contentGenerationOwn({ contents })
    expect((out as Json).value.contents).toEqual([
      contents[0],
      {
        role: 'model',
        parts: [
          { text: 'Looking.' },
          { functionCall: { name: 'get_weather', args: {} }, thoughtSignature: 'skip_thought_signature_validator' },
        ],
      },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: {} }, thoughtSignature: 'CiQBgem' }] },
    ])
    expect(out?.warnings).toEqual([expect.objectContaining({ type: 'dropped', path: 'contents[1].parts[0]' })])
    expect(contentGenerationOwn({ contents: [contents[0]] })).toBeUndefined()
  })
})
