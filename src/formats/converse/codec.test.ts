import { describe, expect, it } from 'vitest'
import type * as ir from '../../ir/index.js'
import { converse } from './index.js'

const request = {
  system: [{ text: 'Be brief' }],
  messages: [
    {
      role: 'user',
      content: [{ text: 'Weather in Paris?' }, { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } }],
    },
    {
      role: 'assistant',
      content: [
        { reasoningContent: { reasoningText: { text: 'Need the tool.', signature: 'sig-1' } } },
        { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } },
      ],
    },
    {
      role: 'user',
      content: [{ toolResult: { toolUseId: 'tooluse_1', content: [{ text: '18C' }] } }],
    },
  ],
  inferenceConfig: { maxTokens: 4096, temperature: 1, stopSequences: ['END'] },
  toolConfig: {
    tools: [
      {
        toolSpec: {
          name: 'get_weather',
          description: 'Weather',
          inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } } } },
        },
      },
    ],
    toolChoice: { auto: {} },
  },
  additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 2048 } },
  guardrailConfig: { guardrailIdentifier: 'g1', guardrailVersion: '1' },
}

describe('converse codec', () => {
  it('a request survives decode → encode (an Anthropic model, its signature, extensions)', () => {
    const decoded = converse.decodeRequest(request, { model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' })
    expect(decoded.value.reasoning).toEqual({ enabled: true, budgetTokens: 2048 })
    const encoded = converse.encodeRequest(decoded.value)
    expect(encoded.warnings).toEqual([])
    expect(encoded.value).toEqual(request)
  })

  it('signatures stay in their namespace: an unsigned or foreign reasoning part is dropped with a warning, and thinking turned off', () => {
    const ir = converse.decodeRequest(request, { model: 'anthropic.claude-sonnet-4-5-20250929-v1:0' }).value
    const assistant = ir.messages[2] as ir.AssistantMessage
    assistant.content[0] = {
      type: 'reasoning',
      text: 'Need the tool.',
      providerData: { messages: { signature: 'anthropic-sig' } },
    }
    const encoded = converse.encodeRequest(ir)
    const body = encoded.value as { messages: Array<{ content: unknown[] }>; additionalModelRequestFields: unknown }
    expect(body.messages[1]?.content).toHaveLength(1)
    expect(JSON.stringify(body)).not.toContain('anthropic-sig')
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: 'disabled' } })
    expect(encoded.warnings.map((w) => w.path)).toEqual(['messages[2].content[0]', 'reasoning'])
  })

  it('reasoning settings are per model family; other fields without a Converse form are reported', () => {
    const base: ir.Request = {
      model: 'amazon.nova-pro-v1:0',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    }
    const nova = converse.encodeRequest({ ...base, reasoning: { effort: 'high' }, seed: 1, topK: 5 })
    expect((nova.value as { additionalModelRequestFields: unknown }).additionalModelRequestFields).toEqual({
      reasoningConfig: { type: 'enabled', maxReasoningEffort: 'high' },
    })
    expect(nova.warnings.map((w) => w.path)).toEqual(['seed', 'top_k'])
    const llama = converse.encodeRequest({
      ...base,
      model: 'meta.llama3-3-70b-instruct-v1:0',
      reasoning: { effort: 'low' },
    })
    expect(llama.warnings).toEqual([expect.objectContaining({ type: 'dropped', path: 'reasoning' })])
    const search = converse.encodeRequest({ ...base, hostedTools: [{ type: 'web-search' }] })
    expect(search.warnings).toEqual([expect.objectContaining({ type: 'dropped', path: 'tools' })])
    expect(search.value).not.toHaveProperty('toolConfig')
  })

  it('a response decodes with Converse usage semantics (cache tokens added to the input) and encodes back', () => {
    const response = {
      output: {
        message: {
          role: 'assistant',
          content: [{ reasoningContent: { reasoningText: { text: 'Hm.', signature: 'sig-2' } } }, { text: 'Hello' }],
        },
      },
      stopReason: 'max_tokens',
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 35, cacheReadInputTokens: 20 },
      metrics: { latencyMs: 0 },
    }
    const decoded = converse.decodeResponse(response).value
    expect(decoded.usage).toEqual({ inputTokens: 30, outputTokens: 5, cachedInputTokens: 20, totalTokens: 35 })
    expect(decoded.finishReason).toEqual({ unified: 'length', raw: 'max_tokens', rawFormat: 'converse' })
    expect(decoded.content[0]).toEqual({
      type: 'reasoning',
      text: 'Hm.',
      providerData: { converse: { signature: 'sig-2' } },
    })
    expect(converse.encodeResponse(decoded).value).toEqual(response)
  })

  it('a stream: text and reasoning open on their first delta, the signature lands on the end, usage after messageStop', () => {
    const step = converse.decodeStreamStep()
    const out: ir.StreamEvent[] = []
    const frames: Array<[string, unknown]> = [
      ['messageStart', { role: 'assistant' }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Think' } } }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig-3' } } }],
      ['contentBlockStop', { contentBlockIndex: 0 }],
      ['contentBlockDelta', { contentBlockIndex: 1, delta: { reasoningContent: { redactedContent: 'cmVkYWN0ZWQ=' } } }],
      ['contentBlockStop', { contentBlockIndex: 1 }],
      ['contentBlockStart', { contentBlockIndex: 2, start: { toolUse: { toolUseId: 't1', name: 'f' } } }],
      ['contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"a":' } } }],
      ['contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '1}' } } }],
      ['contentBlockStop', { contentBlockIndex: 2 }],
      ['messageStop', { stopReason: 'tool_use' }],
      [
        'metadata',
        { usage: { inputTokens: 4, outputTokens: 6, totalTokens: 10 }, metrics: { latencyMs: 1 }, p: 'abc' },
      ],
    ]
    for (const [event, data] of frames) step.push({ event, data: JSON.stringify(data) }, out)
    step.end(out)
    expect(out.map((e) => e.type)).toEqual([
      'message-start',
      'reasoning-start',
      'reasoning-delta',
      'reasoning-end',
      'reasoning-start',
      'reasoning-end',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-delta',
      'tool-call-end',
      'finish',
    ])
    expect(out[3]).toEqual({ type: 'reasoning-end', index: 0, providerData: { converse: { signature: 'sig-3' } } })
    expect(out[4]).toMatchObject({ redactedData: 'cmVkYWN0ZWQ=', providerData: { converse: { redacted: true } } })
    expect(out.at(-1)).toEqual({
      type: 'finish',
      finishReason: { unified: 'tool-calls', raw: 'tool_use', rawFormat: 'converse' },
      usage: { inputTokens: 4, outputTokens: 6, totalTokens: 10 },
    })
    // The encoder writes the same frames back (the padding aside).
    const encode = converse.encodeStreamStep()
    const frames2: Array<{ event?: string; data?: string }> = []
    for (const event of out) encode.push(event, frames2)
    expect(frames2.map((frame) => frame.event)).toEqual(frames.map(([event]) => event))
  })

  it('an exception event is the error; a stream that ends before messageStop is an upstream error', () => {
    const out: ir.StreamEvent[] = []
    const step = converse.decodeStreamStep()
    step.push({ event: 'messageStart', data: '{"role":"assistant"}' }, out)
    step.push({ event: 'throttlingException', data: '{"message":"Slow down"}' }, out)
    expect(out.at(-1)).toMatchObject({
      type: 'error',
      error: { code: 'rate-limit', status: 429, message: 'Slow down', retryAfter: 1 },
    })
    const cut: ir.StreamEvent[] = []
    const other = converse.decodeStreamStep()
    other.push({ event: 'messageStart', data: '{"role":"assistant"}' }, cut)
    other.end(cut)
    expect(cut.at(-1)).toMatchObject({ type: 'error', error: { code: 'upstream', status: 502 } })
  })

  it('errors: Bedrock exception names map to statuses, both ways', () => {
    expect(
      converse.decodeError(400, { __type: 'com.amazon.coral.validate#ValidationException', message: 'bad' }),
    ).toMatchObject({ code: 'invalid-request', status: 400, vendorType: 'validationException' })
    expect(converse.decodeError(424, { message: 'model failed' })).toMatchObject({ code: 'upstream', status: 502 })
    expect(converse.encodeError({ code: 'rate-limit', status: 429, message: 'slow' })).toEqual({
      status: 429,
      body: { message: 'slow', __type: 'ThrottlingException' },
    })
  })
})
