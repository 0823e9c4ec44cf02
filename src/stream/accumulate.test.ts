import { describe, expect, it } from 'vitest'
import { streamOf } from '../../test/helpers/rechunk.js'
import { InterlinguaError } from '../errors.js'
import type * as ir from '../ir/index.js'
import { accumulate, accumulateEvents } from './accumulate.js'
import { createResponseEventStream, responseToEvents } from './from-response.js'

const rich: ir.StreamEvent[] = [
  { type: 'message-start', id: 'msg_1', model: 'm-1', created: 1700000000, usage: { inputTokens: 10 } },
  { type: 'reasoning-start', index: 0 },
  { type: 'reasoning-delta', index: 0, text: 'Let me ' },
  { type: 'reasoning-delta', index: 0, text: 'think.' },
  { type: 'reasoning-end', index: 0, providerData: { messages: { signature: 'sig==' } } },
  { type: 'text-start', index: 1 },
  { type: 'text-delta', index: 1, text: 'Calling ' },
  { type: 'ping' },
  { type: 'text-delta', index: 1, text: 'tools.' },
  { type: 'text-end', index: 1 },
  { type: 'tool-call-start', index: 2, id: 'call_a', name: 'weather', providerData: { messages: { a: 1, b: 1 } } },
  { type: 'tool-call-start', index: 3, id: 'call_b', name: 'time' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '{"city":' },
  { type: 'tool-call-delta', index: 3, argumentsDelta: '{"tz":"UTC"}' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '"Paris"}', providerData: { messages: { b: 2 } } },
  { type: 'tool-call-end', index: 3 },
  { type: 'tool-call-end', index: 2 },
  { type: 'tool-call-start', index: 4, id: 'call_c', name: 'noargs' },
  { type: 'tool-call-end', index: 4 },
  { type: 'usage', usage: { outputTokens: 5, cachedInputTokens: 4 } },
  { type: 'usage', usage: { outputTokens: 20 } },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use', rawFormat: 'messages' } },
]

const richResponse: ir.Response = {
  id: 'msg_1',
  model: 'm-1',
  created: 1700000000,
  content: [
    { type: 'reasoning', text: 'Let me think.', providerData: { messages: { signature: 'sig==' } } },
    { type: 'text', text: 'Calling tools.' },
    {
      type: 'tool-call',
      id: 'call_a',
      name: 'weather',
      arguments: '{"city":"Paris"}',
      providerData: { messages: { a: 1, b: 2 } },
    },
    { type: 'tool-call', id: 'call_b', name: 'time', arguments: '{"tz":"UTC"}' },
    { type: 'tool-call', id: 'call_c', name: 'noargs', arguments: '{}' },
  ],
  finishReason: { unified: 'tool-calls', raw: 'tool_use', rawFormat: 'messages' },
  usage: { inputTokens: 10, outputTokens: 20, cachedInputTokens: 4 },
}

describe('accumulateEvents', () => {
  it('folds text, reasoning, parallel tool calls, provider data and usage into the exact response', () => {
    expect(accumulateEvents(rich)).toEqual(richResponse)
  })

  it('takes the final usage and stop sequence from finish, and turns flagged text into a refusal', () => {
    const response = accumulateEvents([
      { type: 'message-start', id: 'x', model: 'm' },
      { type: 'text-start', index: 0, providerData: { 'chat-completions': { refusal: true } } },
      { type: 'text-delta', index: 0, text: 'I cannot help.' },
      { type: 'text-end', index: 0 },
      { type: 'reasoning-start', index: 1, redactedData: 'opaque' },
      { type: 'reasoning-end', index: 1 },
      { type: 'usage', usage: { inputTokens: 3 } },
      {
        type: 'finish',
        finishReason: { unified: 'stop' },
        stopSequence: 'END',
        usage: { inputTokens: 7, outputTokens: 2, totalTokens: 9 },
      },
    ])
    expect(response).toEqual({
      id: 'x',
      model: 'm',
      content: [
        { type: 'refusal', text: 'I cannot help.' },
        { type: 'redacted-reasoning', data: 'opaque' },
      ],
      finishReason: { unified: 'stop' },
      stopSequence: 'END',
      usage: { inputTokens: 7, outputTokens: 2, totalTokens: 9 },
    })
  })

  it('throws the error event as an InterlinguaError with its code, status and param', () => {
    let thrown: unknown
    try {
      accumulateEvents([
        { type: 'message-start', id: 'x', model: 'm' },
        { type: 'text-start', index: 0 },
        { type: 'error', error: { code: 'overloaded', status: 529, message: 'Overloaded', param: 'p' } },
      ])
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(InterlinguaError)
    const error = thrown as InterlinguaError
    expect([error.code, error.status, error.message, error.param]).toEqual(['overloaded', 529, 'Overloaded', 'p'])
  })

  it('throws upstream when the stream ends without finish', () => {
    expect(() => accumulateEvents([{ type: 'message-start', id: 'x', model: 'm' }])).toThrow(
      expect.objectContaining({ code: 'upstream', status: 502 }),
    )
  })
})

describe('accumulate', () => {
  it('reads a ReadableStream and an async iterable to the same response', async () => {
    expect(await accumulate(streamOf(rich))).toEqual(richResponse)
    async function* generate(): AsyncGenerator<ir.StreamEvent> {
      yield* rich
    }
    expect(await accumulate(generate())).toEqual(richResponse)
  })

  it('rejects with the error event and cancels the source', async () => {
    let cancelled = false
    const events: ir.StreamEvent[] = [
      { type: 'message-start', id: 'x', model: 'm' },
      { type: 'error', error: { code: 'rate-limit', status: 429, message: 'Slow down' } },
    ]
    let next = 0
    const source = new ReadableStream<ir.StreamEvent>({
      pull(controller) {
        controller.enqueue(events[next++] ?? { type: 'ping' })
      },
      cancel() {
        cancelled = true
      },
    })
    await expect(accumulate(source)).rejects.toMatchObject({ code: 'rate-limit', status: 429, message: 'Slow down' })
    expect(cancelled).toBe(true)
  })
})

describe('responseToEvents', () => {
  const responses: ir.Response[] = [
    richResponse,
    {
      id: 'r2',
      model: 'm',
      content: [
        { type: 'redacted-reasoning', data: 'blob', providerData: { messages: { x: 1 } } },
        { type: 'refusal', text: 'No.', providerData: { 'chat-completions': { other: true } } },
        { type: 'text', text: 'cited', providerData: { messages: { citations: [{ type: 'x' }] } } },
        { type: 'reasoning', text: 'r', providerData: { 'content-generation': { thoughtSignature: 'abc' } } },
      ],
      finishReason: { unified: 'length', raw: 'MAX_TOKENS', rawFormat: 'content-generation' },
      stopSequence: 'S',
      usage: { inputTokens: 1, outputTokens: 2, reasoningTokens: 1, totalTokens: 3 },
    },
    { id: 'r3', model: 'm', content: [], finishReason: { unified: 'stop' } },
  ]

  it('accumulates back to the same response', () => {
    for (const response of responses) expect(accumulateEvents(responseToEvents(response))).toEqual(response)
  })

  it('emits the documented sequence', () => {
    expect(
      responseToEvents({
        id: 'r',
        model: 'm',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'tool-call', id: 't', name: 'f', arguments: '{"a":1}' },
        ],
        finishReason: { unified: 'tool-calls' },
        usage: { inputTokens: 4, outputTokens: 5 },
      }),
    ).toEqual([
      { type: 'message-start', id: 'r', model: 'm', usage: { inputTokens: 4 } },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'hi' },
      { type: 'text-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 't', name: 'f' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', finishReason: { unified: 'tool-calls' }, usage: { inputTokens: 4, outputTokens: 5 } },
    ])
  })

  it('createResponseEventStream streams the same events', async () => {
    expect(await accumulate(createResponseEventStream(richResponse))).toEqual(richResponse)
  })
})
