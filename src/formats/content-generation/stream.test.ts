import { EventSourceParserStream } from 'eventsource-parser/stream'
import { describe, expect, it } from 'vitest'
import type * as ir from '../../ir/index.js'
import { wrapEnvelope } from '../../shared/reasoning-envelope.js'
import type { SseFrame, SseMessage } from '../format.js'
import { createDecodeStream } from './decode-stream.js'
import { createEncodeStream } from './encode-stream.js'

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of stream as unknown as AsyncIterable<T>) out.push(item)
  return out
}
const from = <T>(items: T[]) =>
  new ReadableStream<T>({
    start(controller) {
      for (const item of items) controller.enqueue(item)
      controller.close()
    },
  })
const decode = (messages: SseMessage[]) => collect(from(messages).pipeThrough(createDecodeStream()))
const encode = (events: ir.StreamEvent[]) => collect(from(events).pipeThrough(createEncodeStream()))
const msg = (data: unknown): SseMessage => ({ data: JSON.stringify(data), event: undefined, id: undefined })
const chunk = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  candidates: [
    {
      content: { role: 'model', parts },
      index: 0,
      ...(extra.finishReason ? { finishReason: extra.finishReason } : {}),
    },
  ],
  ...(extra.usageMetadata ? { usageMetadata: extra.usageMetadata } : {}),
  modelVersion: 'gemini-2.5-flash',
  responseId: 'r1',
})

describe('content-generation decode stream', () => {
  it('text and thought parts become blocks; a signature rides on its part; usage is a running total; finish last', async () => {
    const events = await decode([
      msg(chunk([{ text: 'Hmm', thought: true }], { usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 } })),
      msg(chunk([{ text: 'Hé', thoughtSignature: 'c2ln' }])),
      msg(chunk([{ text: ' 👋' }])),
      msg(
        chunk([{ text: '' }], {
          finishReason: 'STOP',
          usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 4, thoughtsTokenCount: 3, totalTokenCount: 12 },
        }),
      ),
    ])
    const usage = { inputTokens: 5, outputTokens: 7, reasoningTokens: 3, totalTokens: 12 }
    expect(events).toEqual([
      { type: 'message-start', id: 'r1', model: 'gemini-2.5-flash', usage: { inputTokens: 5 } },
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-delta', index: 0, text: 'Hmm' },
      { type: 'usage', usage: { inputTokens: 5, outputTokens: 0, totalTokens: 5 } },
      { type: 'reasoning-end', index: 0 },
      { type: 'text-start', index: 1 },
      {
        type: 'text-delta',
        index: 1,
        text: 'Hé',
        providerData: { 'content-generation': { thoughtSignature: 'c2ln' } },
      },
      { type: 'text-delta', index: 1, text: ' 👋' },
      { type: 'usage', usage },
      { type: 'text-end', index: 1 },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'STOP', rawFormat: 'content-generation' }, usage },
    ])
  })

  it('whole function calls get stable ids, stay distinct, and make the turn tool-calls', async () => {
    const messages = [
      msg(
        chunk([
          { functionCall: { name: 'a', args: { x: 1 } }, thoughtSignature: 's1' },
          { functionCall: { name: 'b', args: {}, id: 'g-7' } },
        ]),
      ),
      msg(chunk([{ text: '' }], { finishReason: 'STOP' })),
    ]
    const first = await decode(messages)
    expect(first).toEqual(await decode(messages))
    const starts = first.filter((e) => e.type === 'tool-call-start') as ir.ToolCallStartEvent[]
    expect(starts.map((s) => [s.index, s.name, s.providerData])).toEqual([
      [0, 'a', { 'content-generation': { thoughtSignature: 's1' } }],
      [1, 'b', { 'content-generation': { id: 'g-7' } }],
    ])
    expect(starts[1]?.id).toBe('g-7')
    expect(starts[0]?.id).toMatch(/^call_/)
    expect(first.filter((e) => e.type === 'tool-call-delta')).toEqual([
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":1}' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
    ])
    expect(first.at(-1)).toEqual({
      type: 'finish',
      finishReason: { unified: 'tool-calls', raw: 'STOP', rawFormat: 'content-generation' },
    })
  })

  it('in-stream errors, malformed data and early ends become error events, and nothing follows', async () => {
    const error = await decode([
      msg(chunk([{ text: 'a' }])),
      msg({ error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' } }),
      msg(chunk([{ text: 'b' }])),
    ])
    expect(error.at(-1)).toMatchObject({
      type: 'error',
      error: { code: 'rate-limit', status: 429, message: 'slow down' },
    })
    expect(error.filter((e) => e.type === 'text-delta')).toHaveLength(1)
    expect((await decode([{ data: '{nope', event: undefined, id: undefined }])).at(-1)).toMatchObject({
      type: 'error',
      error: { status: 502 },
    })
    expect((await decode([msg(chunk([{ text: 'a' }]))])).at(-1)).toMatchObject({
      type: 'error',
      error: { code: 'upstream' },
    })
  })

  it('a prompt blocked before any candidate is a content-filter finish', async () => {
    const events = await decode([
      msg({
        promptFeedback: { blockReason: 'SAFETY' },
        usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 },
        responseId: 'r9',
      }),
    ])
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'content-filter', raw: 'SAFETY' } })
  })

  it('parses CRLF framing through eventsource-parser', async () => {
    const bytes = new TextEncoder().encode(
      `data: ${JSON.stringify(chunk([{ text: 'ok' }], { finishReason: 'STOP' }))}\r\n\r\n`,
    )
    const events = await collect(
      from([bytes])
        .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
        .pipeThrough(new EventSourceParserStream())
        .pipeThrough(createDecodeStream()),
    )
    expect(events.map((e) => e.type)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'finish'])
  })
})

describe('content-generation encode stream', () => {
  const parse = (frames: SseFrame[]) => frames.map((f) => (f.data ? JSON.parse(f.data) : f))

  it('writes data-only complete responses; tool calls whole; own signatures native, foreign ones in an envelope; finish with usage', async () => {
    const frames = await encode([
      { type: 'message-start', id: 'r1', model: 'm', usage: { inputTokens: 5 } },
      { type: 'reasoning-start', index: 0, providerData: { messages: { signature: 'anthropic-only' } } },
      { type: 'reasoning-delta', index: 0, text: 'think' },
      { type: 'reasoning-end', index: 0 },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: 'Hi' },
      { type: 'text-end', index: 1 },
      {
        type: 'tool-call-start',
        index: 2,
        id: 'call_1',
        name: 'get',
        providerData: { 'content-generation': { thoughtSignature: 'sig' } },
      },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{"city":' },
      { type: 'ping' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '"Paris"}' },
      { type: 'tool-call-end', index: 2 },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls' },
        usage: { inputTokens: 5, outputTokens: 9, reasoningTokens: 2 },
      },
    ])
    expect(frames.every((f) => f.event === undefined)).toBe(true)
    // No SSE comment: real Gemini never sends one and @google/genai 1.x stalls on a leading `: ping` (issue 10 §3).
    expect(frames.every((f) => f.comment === undefined)).toBe(true)
    const running = { promptTokenCount: 5, candidatesTokenCount: 0, totalTokenCount: 5 }
    expect(parse(frames)).toEqual([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                {
                  text: 'think',
                  thought: true,
                  thoughtSignature: wrapEnvelope({ providerData: { messages: { signature: 'anthropic-only' } } }),
                },
              ],
            },
            index: 0,
          },
        ],
        usageMetadata: running,
        modelVersion: 'm',
        responseId: 'r1',
      },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, index: 0 }],
        usageMetadata: running,
        modelVersion: 'm',
        responseId: 'r1',
      },
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'get', args: { city: 'Paris' } }, thoughtSignature: 'sig' }],
            },
            index: 0,
          },
        ],
        usageMetadata: running,
        modelVersion: 'm',
        responseId: 'r1',
      },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 7, thoughtsTokenCount: 2, totalTokenCount: 14 },
        modelVersion: 'm',
        responseId: 'r1',
      },
    ])
  })

  it('an error is a data frame with a numeric code the SDK recognises, and ends the stream', async () => {
    const frames = await encode([
      { type: 'message-start', id: 'r', model: 'm' },
      { type: 'error', error: { code: 'overloaded', status: 529, message: 'busy' } },
      { type: 'finish', finishReason: { unified: 'stop' } },
    ])
    expect(frames).toHaveLength(1)
    const body = JSON.parse(frames[0]?.data as string)
    expect(body.error.code).toBe(529)
    expect(body.error.message).toBe('busy')
  })

  it('invalid tool arguments still produce an args object; input without finish still ends with STOP', async () => {
    const frames = parse(
      await encode([
        { type: 'message-start', id: 'r', model: 'm' },
        { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '{"trunc' },
        { type: 'tool-call-end', index: 0 },
      ]),
    )
    expect(frames[0].candidates[0].content.parts[0].functionCall).toEqual({ name: 'f', args: {} })
    expect(frames.at(-1).candidates[0].finishReason).toBe('STOP')
  })

  it('decode(encode(events)) keeps text, tool calls and the finish', async () => {
    const events: ir.StreamEvent[] = [
      { type: 'message-start', id: 'r', model: 'm' },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'a' },
      { type: 'text-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'c', name: 'f', providerData: { 'content-generation': { id: 'c' } } },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"k":true}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', finishReason: { unified: 'tool-calls' } },
    ]
    const frames = await encode(events)
    const back = await decode(
      frames.filter((f) => f.data).map((f) => ({ data: f.data as string, event: undefined, id: undefined })),
    )
    expect(back.filter((e) => e.type !== 'usage').map((e) => e.type)).toEqual(events.map((e) => e.type))
    expect(back.find((e) => e.type === 'tool-call-start')).toMatchObject({ id: 'c', name: 'f' })
  })
})

describe('Anthropic pings towards a Gemini client (issue 10 §3)', () => {
  it('a messages stream with `event: ping` converts to data-only SSE that starts with `data: `', async () => {
    const { readFileSync } = await import('node:fs')
    const { convertStream } = await import('../../convert-stream.js')
    const sse = readFileSync(new URL('../../../test/fixtures/messages/text.sse', import.meta.url), 'utf8')
    expect(sse).toContain('event: ping')
    const input = new Response(sse).body as ReadableStream<Uint8Array>
    const output = await new Response(convertStream(input, { from: 'messages', to: 'content-generation' })).text()
    // @google/genai 1.x matches /^\s*data: / at the start of its buffer: one comment line stalls the whole stream.
    expect(output.startsWith('data: ')).toBe(true)
    for (const line of output.split('\n')) expect(line === '' || line.startsWith('data: ')).toBe(true)
  })
})
