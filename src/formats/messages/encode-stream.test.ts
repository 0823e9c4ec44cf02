import { readFileSync } from 'node:fs'
import { EventSourceParserStream } from 'eventsource-parser/stream'
import { describe, expect, it } from 'vitest'
import type * as ir from '../../ir/index.js'
import { unwrapEnvelope } from '../../shared/reasoning-envelope.js'
import type { SseFrame } from '../format.js'
import { createDecodeStream } from './decode-stream.js'
import { createEncodeStream } from './encode-stream.js'

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = []
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return out
    out.push(value)
  }
}

function streamOf<T>(items: T[]): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const item of items) controller.enqueue(item)
      controller.close()
    },
  })
}

const encode = (events: ir.StreamEvent[]): Promise<SseFrame[]> =>
  collect(streamOf(events).pipeThrough(createEncodeStream()))

/** Frames as `[event, parsed data]` pairs, checking every frame's event name equals its data.type. */
async function encodeParsed(events: ir.StreamEvent[]): Promise<[string, unknown][]> {
  const frames = await encode(events)
  return frames.map((frame) => {
    const data = JSON.parse(frame.data as string) as { type: string }
    expect(frame.event).toBe(data.type)
    return [frame.event as string, data]
  })
}

const start: ir.StreamEvent = {
  type: 'message-start',
  id: 'msg_1',
  model: 'claude-x',
  usage: { inputTokens: 2060, cachedInputTokens: 1800, cacheWriteInputTokens: 248 },
}
const messageStart = (usage: Record<string, unknown>) => [
  'message_start',
  {
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  },
]
const cacheStartUsage = {
  input_tokens: 12,
  output_tokens: 1,
  cache_creation_input_tokens: 248,
  cache_read_input_tokens: 1800,
}
const blockStart = (index: number, block: unknown) => [
  'content_block_start',
  { type: 'content_block_start', index, content_block: block },
]
const blockDelta = (index: number, delta: unknown) => [
  'content_block_delta',
  { type: 'content_block_delta', index, delta },
]
const blockStop = (index: number) => ['content_block_stop', { type: 'content_block_stop', index }]
const messageStop = ['message_stop', { type: 'message_stop' }]

describe('messages encode stream', () => {
  it('writes thinking with signature, redacted thinking, text and tool_use, then message_delta and message_stop', async () => {
    const frames = await encodeParsed([
      start,
      { type: 'ping' },
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-delta', index: 0, text: 'Hmm.' },
      { type: 'reasoning-end', index: 0, providerData: { messages: { signature: 'c2ln' } } },
      { type: 'reasoning-start', index: 1, redactedData: 'b3BhcXVl' },
      { type: 'reasoning-end', index: 1 },
      { type: 'text-start', index: 2 },
      { type: 'text-delta', index: 2, text: 'Hi ☕' },
      { type: 'text-end', index: 2, providerData: { messages: { citations: [{ type: 'char_location' }] } } },
      { type: 'tool-call-start', index: 3, id: 'call.abc:1', name: 'get_weather' },
      { type: 'tool-call-delta', index: 3, argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', index: 3, argumentsDelta: '' },
      { type: 'tool-call-delta', index: 3, argumentsDelta: '"Paris"}' },
      { type: 'tool-call-end', index: 3 },
      { type: 'usage', usage: { outputTokens: 40 } },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls' },
        usage: { inputTokens: 2060, outputTokens: 42, cachedInputTokens: 1800, cacheWriteInputTokens: 248 },
      },
    ])
    const toolId = frames[12]?.[1] as { content_block: { id: string } }
    expect(toolId.content_block.id).toMatch(/^call_abc_1_[a-z0-9]+$/)
    expect(frames).toEqual([
      messageStart(cacheStartUsage),
      ['ping', { type: 'ping' }],
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      blockDelta(0, { type: 'thinking_delta', thinking: 'Hmm.' }),
      blockDelta(0, { type: 'signature_delta', signature: 'c2ln' }),
      blockStop(0),
      blockStart(1, { type: 'redacted_thinking', data: 'b3BhcXVl' }),
      blockStop(1),
      blockStart(2, { type: 'text', text: '' }),
      blockDelta(2, { type: 'text_delta', text: 'Hi ☕' }),
      blockDelta(2, { type: 'citations_delta', citation: { type: 'char_location' } }),
      blockStop(2),
      blockStart(3, { type: 'tool_use', id: toolId.content_block.id, name: 'get_weather', input: {} }),
      blockDelta(3, { type: 'input_json_delta', partial_json: '{"city":' }),
      blockDelta(3, { type: 'input_json_delta', partial_json: '"Paris"}' }),
      blockStop(3),
      [
        'message_delta',
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: {
            output_tokens: 42,
            input_tokens: 12,
            cache_creation_input_tokens: 248,
            cache_read_input_tokens: 1800,
          },
        },
      ],
      messageStop,
    ])
  })

  it('serialises interleaved tool calls as sequential blocks with contiguous indices', async () => {
    const frames = await encodeParsed([
      { type: 'message-start', id: 'msg_1', model: 'claude-x' },
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'a' },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'b' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"b":1}' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":' },
      { type: 'ping' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '' },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls', rawFormat: 'chat-completions' } },
    ])
    expect(frames).toEqual([
      messageStart({ input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }),
      blockStart(0, { type: 'tool_use', id: 'call_a', name: 'a', input: {} }),
      blockDelta(0, { type: 'input_json_delta', partial_json: '{"a":' }),
      ['ping', { type: 'ping' }],
      blockDelta(0, { type: 'input_json_delta', partial_json: '1}' }),
      blockStop(0),
      blockStart(1, { type: 'tool_use', id: 'call_b', name: 'b', input: {} }),
      blockDelta(1, { type: 'input_json_delta', partial_json: '{"b":1}' }),
      blockStop(1),
      [
        'message_delta',
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { output_tokens: 0, input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      ],
      messageStop,
    ])
  })

  it('closes blocks still open or queued at finish, in start order', async () => {
    const frames = await encodeParsed([
      { type: 'message-start', id: 'msg_1', model: 'claude-x' },
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'a' },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'b' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
      { type: 'finish', finishReason: { unified: 'tool-calls' }, usage: { inputTokens: 5, outputTokens: 7 } },
    ])
    expect(frames.map(([name, data]) => `${name}:${String((data as { index?: number }).index)}`)).toEqual([
      'message_start:undefined',
      'content_block_start:0',
      'content_block_stop:0',
      'content_block_start:1',
      'content_block_delta:1',
      'content_block_stop:1',
      'message_delta:undefined',
      'message_stop:undefined',
    ])
  })

  it('skips empty text blocks, maps the stop sequence, spreads extra block keys back', async () => {
    const frames = await encodeParsed([
      { type: 'message-start', id: 'msg_1', model: 'claude-x', usage: { inputTokens: 3 } },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: '' },
      { type: 'text-end', index: 0 },
      { type: 'text-start', index: 1, providerData: { messages: { cache_hint: 1 }, 'content-generation': { x: 1 } } },
      { type: 'text-delta', index: 1, text: 'ok' },
      { type: 'text-end', index: 1 },
      {
        type: 'finish',
        finishReason: { unified: 'stop' },
        stopSequence: 'END',
        usage: { inputTokens: 3, outputTokens: 2 },
      },
    ])
    expect(frames.slice(1)).toEqual([
      blockStart(0, { type: 'text', text: '', cache_hint: 1 }),
      blockDelta(0, { type: 'text_delta', text: 'ok' }),
      blockStop(0),
      [
        'message_delta',
        {
          type: 'message_delta',
          delta: { stop_reason: 'stop_sequence', stop_sequence: 'END' },
          usage: { output_tokens: 2, input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      ],
      messageStop,
    ])
  })

  it('writes an error frame and nothing after it', async () => {
    const frames = await encodeParsed([
      { type: 'message-start', id: 'msg_1', model: 'claude-x' },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'a' },
      { type: 'error', error: { code: 'overloaded', status: 529, message: 'Overloaded' } },
      { type: 'text-end', index: 0 },
      { type: 'finish', finishReason: { unified: 'stop' } },
    ])
    expect(frames.slice(3)).toEqual([
      ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: null }],
    ])
    const rateLimited = await encodeParsed([
      { type: 'error', error: { code: 'rate-limit', status: 429, message: 'slow down' } },
    ])
    expect(rateLimited).toEqual([
      ['error', { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' }, request_id: null }],
    ])
  })

  it('ends an input that stops without finish with a complete message', async () => {
    const frames = await encodeParsed([
      { type: 'message-start', id: 'msg_1', model: 'claude-x' },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'a' },
      { type: 'usage', usage: { inputTokens: 4, outputTokens: 9 } },
    ])
    expect(frames.slice(3)).toEqual([
      blockStop(0),
      [
        'message_delta',
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: 9, input_tokens: 4, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      ],
      messageStop,
    ])
    expect(await encode([])).toEqual([])
  })

  for (const scenario of ['text', 'reasoning', 'tool-call', 'parallel-tool-calls', 'usage-cache', 'error-midstream']) {
    it(`${scenario}.sse: decode → encode → decode gives the same events (pings may move: text opens lazily)`, async () => {
      const bytes = readFileSync(new URL(`../../../test/fixtures/messages/${scenario}.sse`, import.meta.url))
      const parse = (input: ReadableStream<Uint8Array<ArrayBuffer>>) =>
        input
          .pipeThrough(new TextDecoderStream())
          .pipeThrough(new EventSourceParserStream())
          .pipeThrough(createDecodeStream())
      const events = await collect(parse(streamOf([new Uint8Array(bytes)])))
      const frames = await encode(events)
      const text = frames.map((f) => `event: ${f.event}\ndata: ${f.data}\n\n`).join('')
      const again = await collect(parse(streamOf([new TextEncoder().encode(text)])))
      const noPing = (list: ir.StreamEvent[]) => list.filter((e) => e.type !== 'ping')
      expect(noPing(again)).toEqual(noPing(events))
      expect(again.length).toBe(events.length)
    })
  }
})

describe('another provider’s redacted reasoning (Bedrock Converse redactedContent)', () => {
  it('rides in the reasoning envelope, which the messages decoder turns back into that provider’s block', async () => {
    const events: ir.StreamEvent[] = [
      { type: 'message-start', id: 'msg_1', model: 'claude' },
      {
        type: 'reasoning-start',
        index: 0,
        redactedData: 'QmVkcm9jaw==',
        providerData: { converse: { redacted: true } },
      },
      { type: 'reasoning-end', index: 0 },
      { type: 'finish', finishReason: { unified: 'stop' }, usage: { inputTokens: 1, outputTokens: 1 } },
    ]
    const frames = await encodeParsed(events)
    const start = frames.find(([event]) => event === 'content_block_start')?.[1] as { content_block: { data: string } }
    expect(start.content_block.data).toMatch(/^il1\./)
    expect(unwrapEnvelope(start.content_block.data)).toEqual({
      providerData: { converse: { redacted: true } },
      redactedData: 'QmVkcm9jaw==',
    })
    const own = await encodeParsed([
      events[0] as ir.StreamEvent,
      { ...events[1], providerData: undefined } as ir.StreamEvent,
    ])
    expect(own.find(([event]) => event === 'content_block_start')?.[1]).toMatchObject({
      content_block: { type: 'redacted_thinking', data: 'QmVkcm9jaw==' },
    })
  })
})
