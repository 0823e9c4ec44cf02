import { describe, expect, it } from 'vitest'
import type * as ir from '../../ir/index.js'
import type { SseFrame } from '../format.js'
import { createDecodeStream } from './decode-stream.js'
import { createEncodeStream } from './encode-stream.js'

function streamOf<T>(items: readonly T[]): ReadableStream<T> {
  let next = 0
  return new ReadableStream<T>({
    pull(controller) {
      if (next < items.length) controller.enqueue(items[next++] as T)
      else controller.close()
    },
  })
}

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = []
  await stream.pipeTo(new WritableStream({ write: (item) => void out.push(item) }))
  return out
}

function encode(events: ir.StreamEvent[], includeUsage = false): Promise<SseFrame[]> {
  return collect(streamOf(events).pipeThrough(createEncodeStream({ includeUsage })))
}

/** The `data` of each frame, parsed (`[DONE]` and comments kept as strings). */
function payloads(frames: SseFrame[]): unknown[] {
  return frames.map((frame) => {
    if (frame.comment !== undefined) return `: ${frame.comment}`
    return frame.data === '[DONE]' ? '[DONE]' : JSON.parse(frame.data as string)
  })
}

const start: ir.StreamEvent = { type: 'message-start', id: 'chatcmpl-1', model: 'gpt-4o', created: 1700000000 }
const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o' }
function chunk(delta: Record<string, unknown>, finish: string | null = null, usage?: null) {
  const body: Record<string, unknown> = {
    ...head,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  }
  if (usage === null) body.usage = null
  return body
}

describe('createEncodeStream', () => {
  it('encodes text with usage, exactly', async () => {
    const frames = await encode(
      [
        start,
        { type: 'text-start', index: 0 },
        { type: 'text-delta', index: 0, text: 'Hé 👋' },
        { type: 'ping' },
        { type: 'text-end', index: 0 },
        { type: 'finish', finishReason: { unified: 'stop' }, usage: { inputTokens: 5, outputTokens: 2 } },
      ],
      true,
    )
    expect(frames).toEqual([
      { data: JSON.stringify(chunk({ role: 'assistant', content: '' }, null, null)) },
      { data: JSON.stringify(chunk({ content: 'Hé 👋' }, null, null)) },
      { comment: 'ping' },
      { data: JSON.stringify(chunk({}, 'stop', null)) },
      {
        data: JSON.stringify({
          ...head,
          choices: [],
          usage: {
            prompt_tokens: 5,
            completion_tokens: 2,
            total_tokens: 7,
            prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
            completion_tokens_details: {
              reasoning_tokens: 0,
              audio_tokens: 0,
              accepted_prediction_tokens: 0,
              rejected_prediction_tokens: 0,
            },
          },
        }),
      },
      { data: '[DONE]' },
    ])
  })

  it('encodes refusal, reasoning, parallel tool calls and the reasoning_details carrier before the finish', async () => {
    const frames = await encode([
      start,
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-delta', index: 0, text: 'Let me ' },
      { type: 'reasoning-delta', index: 0, text: 'think.' },
      { type: 'reasoning-end', index: 0, providerData: { messages: { signature: 'sig' } } },
      { type: 'text-start', index: 1, providerData: { 'chat-completions': { refusal: true } } },
      { type: 'text-delta', index: 1, text: 'No.' },
      { type: 'text-end', index: 1 },
      { type: 'tool-call-start', index: 2, id: 'call_a', name: 'f' },
      { type: 'tool-call-start', index: 3, id: 'call_b', name: 'g' },
      { type: 'tool-call-delta', index: 3, argumentsDelta: '{"b":1}' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 2, providerData: { 'content-generation': { thoughtSignature: 'ts' } } },
      { type: 'tool-call-end', index: 3 },
      { type: 'usage', usage: { inputTokens: 9, outputTokens: 4 } },
      { type: 'finish', finishReason: { unified: 'stop' } },
    ])
    expect(payloads(frames)).toEqual([
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'Let me ' }),
      chunk({ reasoning_content: 'think.' }),
      chunk({ refusal: 'No.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'g', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{"b":1}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }),
      chunk({
        reasoning_details: [
          {
            type: 'reasoning.text',
            text: 'Let me think.',
            index: 0,
            format: 'messages',
            signature: 'sig',
            provider_data: { messages: { signature: 'sig' } },
          },
          {
            type: 'provider-data',
            index: 2,
            id: 'call_a',
            provider_data: { 'content-generation': { thoughtSignature: 'ts' } },
          },
        ],
      }),
      chunk({}, 'tool_calls'),
      '[DONE]',
    ])
  })

  it('carries redacted reasoning as a reasoning.encrypted entry', async () => {
    const frames = await encode([
      start,
      { type: 'reasoning-start', index: 0, redactedData: 'opaque' },
      { type: 'reasoning-end', index: 0 },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: 'ok' },
      { type: 'text-end', index: 1 },
      { type: 'finish', finishReason: { unified: 'length' } },
    ])
    expect(payloads(frames).slice(2)).toEqual([
      chunk({ reasoning_details: [{ type: 'reasoning.encrypted', data: 'opaque', index: 0, format: 'messages' }] }),
      chunk({}, 'length'),
      '[DONE]',
    ])
  })

  it('encodes an error as the chat-completions error object, then [DONE], then nothing', async () => {
    const frames = await encode([
      start,
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'a' },
      {
        type: 'error',
        error: {
          code: 'rate-limit',
          status: 429,
          message: 'Slow down',
          vendorType: 'rate_limit_error',
          rawFormat: 'messages',
        },
      },
      { type: 'text-delta', index: 0, text: 'after' },
      { type: 'finish', finishReason: { unified: 'stop' } },
    ])
    expect(payloads(frames).slice(2)).toEqual([
      { error: { message: 'Slow down', type: 'rate_limit_error', param: null, code: 'rate_limit' } },
      '[DONE]',
    ])
  })

  it('keeps chat-completions vendor type and code in errors', async () => {
    const frames = await encode([
      {
        type: 'error',
        error: {
          code: 'invalid-request',
          status: 400,
          message: 'bad',
          param: 'messages',
          vendorType: 'invalid_request_error',
          vendorCode: 'context_length_exceeded',
          rawFormat: 'chat-completions',
        },
      },
    ])
    expect(payloads(frames)).toEqual([
      { error: { message: 'bad', type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } },
      '[DONE]',
    ])
  })

  it('closes a stream that ends without finish, and survives grammar violations', async () => {
    const frames = await encode(
      [
        { type: 'text-delta', index: 4, text: 'orphan' },
        { type: 'tool-call-delta', index: 9, argumentsDelta: '{}' },
        { type: 'reasoning-end', index: 7 },
      ],
      true,
    )
    const data = payloads(frames) as Array<Record<string, unknown>>
    const id = data[0]?.id as string
    expect(id).toMatch(/^chatcmpl-[0-9a-f]{32}$/)
    const created = data[0]?.created as number
    const base = { id, object: 'chat.completion.chunk', created, model: '' }
    const c = (delta: Record<string, unknown>, finish: string | null = null) => ({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      usage: null,
    })
    expect(data).toEqual([
      c({ role: 'assistant', content: '' }),
      c({ content: 'orphan' }),
      c({}, 'stop'),
      {
        ...base,
        choices: [],
        usage: {
          prompt_tokens: 0,
          completion_tokens: 0,
          total_tokens: 0,
          prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
          completion_tokens_details: {
            reasoning_tokens: 0,
            audio_tokens: 0,
            accepted_prediction_tokens: 0,
            rejected_prediction_tokens: 0,
          },
        },
      },
      '[DONE]',
    ])
    expect(await encode([])).toHaveLength(3)
  })

  it('round-trips through the decoder (encode → decode keeps the events)', async () => {
    const events: ir.StreamEvent[] = [
      start,
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-delta', index: 0, text: 'hmm' },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: 'Hi' },
      { type: 'tool-call-start', index: 2, id: 'call_1', name: 'f' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{"a":1}' },
      { type: 'reasoning-end', index: 0, providerData: { messages: { signature: 's' } } },
      { type: 'text-end', index: 1 },
      { type: 'tool-call-end', index: 2, providerData: { 'content-generation': { thoughtSignature: 't' } } },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_calls', rawFormat: 'chat-completions' },
        usage: { inputTokens: 3, outputTokens: 4, cachedInputTokens: 1, totalTokens: 7 },
      },
    ]
    const decoded = await collect(
      streamOf(events)
        .pipeThrough(createEncodeStream({ includeUsage: true }))
        .pipeThrough(
          new TransformStream<SseFrame, { data: string }>({
            transform: (frame, controller) => {
              if (frame.data !== undefined) controller.enqueue({ data: frame.data })
            },
          }),
        )
        .pipeThrough(createDecodeStream()),
    )
    expect(decoded).toEqual(events)
  })
})
