import { readFileSync } from 'node:fs'
import { EventSourceParserStream } from 'eventsource-parser/stream'
import { describe, expect, it } from 'vitest'
import type * as ir from '../../ir/index.js'
import type { SseMessage } from '../format.js'
import { decodeResponse } from './decode-response.js'
import { createDecodeStream } from './decode-stream.js'

const fixtures = new URL('../../../test/fixtures/messages/', import.meta.url)
const fixtureBytes = (name: string): Uint8Array<ArrayBuffer> => new Uint8Array(readFileSync(new URL(name, fixtures)))
const fixtureJson = (name: string): unknown => JSON.parse(readFileSync(new URL(name, fixtures), 'utf8'))

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

const decode = (messages: SseMessage[]): Promise<ir.StreamEvent[]> =>
  collect(streamOf(messages).pipeThrough(createDecodeStream()))

/** Bytes cut at `cuts` → TextDecoderStream → EventSourceParserStream → decoder. */
function decodeBytes(bytes: Uint8Array<ArrayBuffer>, cuts: number[]): Promise<ir.StreamEvent[]> {
  const chunks: Uint8Array<ArrayBuffer>[] = []
  let from = 0
  for (const cut of [...cuts, bytes.length]) {
    chunks.push(bytes.subarray(from, cut))
    from = cut
  }
  return collect(
    streamOf(chunks)
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream())
      .pipeThrough(createDecodeStream()),
  )
}

const msg = (type: string, data: Record<string, unknown>): SseMessage => ({
  event: type,
  data: JSON.stringify({ type, ...data }),
})
const start = (usage: Record<string, unknown> = { input_tokens: 10, output_tokens: 1 }): SseMessage =>
  msg('message_start', {
    message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], usage },
  })
const blockStart = (index: number, block: Record<string, unknown>) =>
  msg('content_block_start', { index, content_block: block })
const blockDelta = (index: number, delta: Record<string, unknown>) => msg('content_block_delta', { index, delta })
const blockStop = (index: number) => msg('content_block_stop', { index })
const messageDelta = (stop: string, usage: Record<string, unknown>) =>
  msg('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage })
const stop = msg('message_stop', {})

const startEvent: ir.StreamEvent = {
  type: 'message-start',
  id: 'msg_1',
  model: 'claude-x',
  usage: { inputTokens: 10, outputTokens: 1 },
}

describe('messages decode stream: events', () => {
  it('decodes thinking, redacted thinking, text and tool_use with contiguous IR indices', async () => {
    const events = await decode([
      start(),
      { event: 'ping', data: '{"type": "ping"}' },
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      blockDelta(0, { type: 'thinking_delta', thinking: 'Hmm.' }),
      blockDelta(0, { type: 'signature_delta', signature: 'first' }),
      blockDelta(0, { type: 'signature_delta', signature: 'c2ln' }),
      blockStop(0),
      blockStart(1, { type: 'redacted_thinking', data: 'b3BhcXVl' }),
      blockStop(1),
      blockStart(2, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
      blockDelta(2, { type: 'input_json_delta', partial_json: '{"query":"x"}' }),
      blockStop(2),
      blockStart(3, { type: 'text', text: '', citations: null }),
      blockDelta(3, { type: 'text_delta', text: 'Hi' }),
      blockDelta(3, { type: 'citations_delta', citation: { type: 'char_location', cited_text: 'a' } }),
      blockDelta(3, { type: 'citations_delta', citation: { type: 'char_location', cited_text: 'b' } }),
      blockStop(3),
      blockStart(4, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }),
      blockDelta(4, { type: 'input_json_delta', partial_json: '' }),
      blockDelta(4, { type: 'input_json_delta', partial_json: '{"city":' }),
      blockDelta(4, { type: 'input_json_delta', partial_json: '"Paris"}' }),
      blockStop(4),
      messageDelta('tool_use', { output_tokens: 42 }),
      stop,
    ])
    expect(events).toEqual([
      startEvent,
      { type: 'ping' },
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-delta', index: 0, text: 'Hmm.' },
      { type: 'reasoning-end', index: 0, providerData: { messages: { signature: 'c2ln' } } },
      { type: 'reasoning-start', index: 1, redactedData: 'b3BhcXVl' },
      { type: 'reasoning-end', index: 1 },
      { type: 'text-start', index: 2 },
      { type: 'text-delta', index: 2, text: 'Hi' },
      {
        type: 'text-end',
        index: 2,
        providerData: {
          messages: {
            citations: [
              { type: 'char_location', cited_text: 'a' },
              { type: 'char_location', cited_text: 'b' },
            ],
          },
        },
      },
      { type: 'tool-call-start', index: 3, id: 'toolu_1', name: 'get_weather' },
      { type: 'tool-call-delta', index: 3, argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', index: 3, argumentsDelta: '"Paris"}' },
      { type: 'tool-call-end', index: 3 },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 42 } },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_use', rawFormat: 'messages' },
        usage: { inputTokens: 10, outputTokens: 42 },
      },
    ])
  })

  it('keeps extra block keys as provider data and the stop sequence', async () => {
    const events = await decode([
      start(),
      blockStart(0, { type: 'text', text: '', cache_hint: 1 }),
      blockDelta(0, { type: 'text_delta', text: 'a' }),
      blockStop(0),
      msg('message_delta', {
        delta: { stop_reason: 'stop_sequence', stop_sequence: 'END' },
        usage: { output_tokens: 3 },
      }),
      stop,
    ])
    expect(events.slice(1, 2)).toEqual([
      { type: 'text-start', index: 0, providerData: { messages: { cache_hint: 1 } } },
    ])
    expect(events.at(-1)).toEqual({
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop_sequence', rawFormat: 'messages' },
      stopSequence: 'END',
      usage: { inputTokens: 10, outputTokens: 3 },
    })
  })

  it('combines message_start input (with cache) and cumulative message_delta usage', async () => {
    const events = await decode([
      start({ input_tokens: 12, cache_read_input_tokens: 1800, cache_creation_input_tokens: 248, output_tokens: 1 }),
      messageDelta('end_turn', { output_tokens: 5 }),
      messageDelta('end_turn', { input_tokens: 12, output_tokens: 14 }),
      stop,
    ])
    expect(events).toEqual([
      {
        type: 'message-start',
        id: 'msg_1',
        model: 'claude-x',
        usage: { inputTokens: 2060, cachedInputTokens: 1800, cacheWriteInputTokens: 248, outputTokens: 1 },
      },
      {
        type: 'usage',
        usage: { inputTokens: 2060, cachedInputTokens: 1800, cacheWriteInputTokens: 248, outputTokens: 5 },
      },
      {
        type: 'usage',
        usage: { inputTokens: 2060, cachedInputTokens: 1800, cacheWriteInputTokens: 248, outputTokens: 14 },
      },
      {
        type: 'finish',
        finishReason: { unified: 'stop', raw: 'end_turn', rawFormat: 'messages' },
        usage: { inputTokens: 2060, cachedInputTokens: 1800, cacheWriteInputTokens: 248, outputTokens: 14 },
      },
    ])
  })

  it('turns an error event into an IR error with the real status, and nothing after', async () => {
    const events = await decode([
      start(),
      blockStart(0, { type: 'text', text: '' }),
      {
        event: 'error',
        data: '{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}, "request_id": "req_1"}',
      },
      blockDelta(0, { type: 'text_delta', text: 'late' }),
      stop,
    ])
    expect(events).toEqual([
      startEvent,
      { type: 'text-start', index: 0 },
      {
        type: 'error',
        error: {
          code: 'overloaded',
          status: 529,
          message: 'Overloaded',
          vendorType: 'overloaded_error',
          rawFormat: 'messages',
        },
      },
    ])
  })

  it('turns malformed JSON into an error event', async () => {
    const events = await decode([start(), { event: 'content_block_start', data: '{"type":"content_bl' }, stop])
    expect(events).toEqual([
      startEvent,
      {
        type: 'error',
        error: {
          code: 'upstream',
          status: 502,
          message: 'messages stream: malformed JSON in a content_block_start event',
          rawFormat: 'messages',
        },
      },
    ])
  })

  it('turns wrong shapes into an error event naming the field', async () => {
    const events = await decode([
      start(),
      msg('content_block_start', { index: 'zero', content_block: { type: 'text' } }),
    ])
    expect(events[1]).toEqual({
      type: 'error',
      error: {
        code: 'upstream',
        status: 502,
        message: 'messages stream: content_block_start.index: expected a non-negative integer',
        rawFormat: 'messages',
      },
    })
    expect(events).toHaveLength(2)
  })

  it('reports a delta for a block that never started, and content before message_start', async () => {
    expect(await decode([start(), blockDelta(3, { type: 'text_delta', text: 'x' })])).toEqual([
      startEvent,
      {
        type: 'error',
        error: {
          code: 'upstream',
          status: 502,
          message: 'messages stream: content_block_delta.index: no open block 3',
          rawFormat: 'messages',
        },
      },
    ])
    expect(await decode([blockStart(0, { type: 'text', text: '' })])).toEqual([
      {
        type: 'error',
        error: {
          code: 'upstream',
          status: 502,
          message: 'messages stream: content_block_start: before message_start',
          rawFormat: 'messages',
        },
      },
    ])
  })

  it('closes open blocks and reports an early end when message_stop never comes', async () => {
    const events = await decode([
      start(),
      blockStart(0, { type: 'text', text: '' }),
      blockDelta(0, { type: 'text_delta', text: 'par' }),
    ])
    expect(events.slice(2)).toEqual([
      { type: 'text-delta', index: 0, text: 'par' },
      { type: 'text-end', index: 0 },
      {
        type: 'error',
        error: {
          code: 'upstream',
          status: 502,
          message: 'messages stream: the upstream ended before message_stop',
          rawFormat: 'messages',
        },
      },
    ])
  })

  it('ignores unknown events and delta types, dispatches on data.type, falls back to the event name', async () => {
    const events = await decode([
      start(),
      msg('future_event', { x: 1 }),
      { event: 'message_stop', data: '{}' },
      { event: 'ignored-after-finish', data: '{"type":"ping"}' },
    ])
    expect(events).toEqual([
      startEvent,
      { type: 'finish', finishReason: { unified: 'stop' }, usage: { inputTokens: 10, outputTokens: 1 } },
    ])
    const named = await decode([{ data: JSON.stringify({ type: 'ping' }) }, { event: 'ping', data: '' }])
    expect(named).toEqual([{ type: 'ping' }, { type: 'ping' }, expect.objectContaining({ type: 'error' })])
  })
})

const textEvents: ir.StreamEvent[] = [
  {
    type: 'message-start',
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    model: 'claude-sonnet-4-5-20250929',
    usage: { inputTokens: 12, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 1 },
  },
  { type: 'text-start', index: 0 },
  { type: 'ping' },
  { type: 'text-delta', index: 0, text: 'Hello' },
  { type: 'text-delta', index: 0, text: '! Café ☕ — 日本語 ' },
  { type: 'text-delta', index: 0, text: 'and emoji 🎉. How can I help?' },
  { type: 'text-end', index: 0 },
  { type: 'usage', usage: { inputTokens: 12, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 21 } },
  {
    type: 'finish',
    finishReason: { unified: 'stop', raw: 'end_turn', rawFormat: 'messages' },
    usage: { inputTokens: 12, outputTokens: 21 },
  },
]

/** A minimal IR accumulator (events → response) for comparing with the non-streaming decoder. */
function accumulate(events: ir.StreamEvent[]): ir.Response {
  const parts = new Map<number, ir.AssistantPart>()
  const response: ir.Response = { id: '', model: '', content: [], finishReason: { unified: 'other' } }
  for (const event of events) {
    switch (event.type) {
      case 'message-start':
        response.id = event.id
        response.model = event.model
        break
      case 'text-start':
        parts.set(event.index, { type: 'text', text: '' })
        break
      case 'reasoning-start':
        parts.set(
          event.index,
          event.redactedData === undefined
            ? { type: 'reasoning', text: '' }
            : { type: 'redacted-reasoning', data: event.redactedData },
        )
        break
      case 'tool-call-start':
        parts.set(event.index, { type: 'tool-call', id: event.id, name: event.name, arguments: '' })
        break
      case 'text-delta':
      case 'reasoning-delta': {
        const part = parts.get(event.index)
        if (part?.type === 'text' || part?.type === 'reasoning') part.text += event.text
        break
      }
      case 'tool-call-delta': {
        const part = parts.get(event.index)
        if (part?.type === 'tool-call') part.arguments += event.argumentsDelta
        break
      }
      case 'text-end':
      case 'reasoning-end':
      case 'tool-call-end': {
        const part = parts.get(event.index)
        if (part && event.providerData) part.providerData = { ...part.providerData, ...event.providerData }
        if (part?.type === 'tool-call') part.arguments = JSON.stringify(JSON.parse(part.arguments || '{}'))
        break
      }
      case 'finish':
        response.finishReason = event.finishReason
        if (event.stopSequence !== undefined) response.stopSequence = event.stopSequence
        if (event.usage) response.usage = event.usage
        break
      default:
    }
  }
  response.content = [...parts.keys()].sort((a, b) => a - b).map((i) => parts.get(i) as ir.AssistantPart)
  return response
}

describe('messages decode stream: the compact text delta read without JSON.parse', () => {
  // The same delta with a space after the first colon cannot take the quick path: both must decode alike.
  const spaced = (data: string) => data.replace('{"type":', '{"type": ')
  const deltas = [
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"wörld 🎉"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"an escape: \\u00e9"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a \\"quote\\" \\n and \\\\"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""}}',
    '{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"to a tool block"}}',
    '{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"to a skipped block"}}',
    '{"type":"content_block_delta","index":7,"delta":{"type":"text_delta","text":"no such block"}}',
    '{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"leading zero"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"raw\ttab"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}}',
  ]
  const opened = [
    start(),
    blockStart(0, { type: 'text', text: '' }),
    blockStart(1, { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }),
    blockStart(2, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
  ]
  for (const data of deltas) {
    it(`${data.slice(38, 90)}…: the same events as the general path`, async () => {
      const quick = await decode([...opened, { event: 'content_block_delta', data }, blockStop(0), stop])
      const general = await decode([
        ...opened,
        { event: 'content_block_delta', data: spaced(data) },
        blockStop(0),
        stop,
      ])
      expect(spaced(data)).not.toBe(data)
      expect(quick).toEqual(general)
    })
  }

  it('reads the text exactly (no unescaping needed when it takes the quick path)', async () => {
    const events = await decode([...opened, { event: 'content_block_delta', data: deltas[1] as string }])
    expect(events).toContainEqual({ type: 'text-delta', index: 0, text: 'wörld 🎉' })
    const plain = await decode([...opened, { event: 'content_block_delta', data: deltas[0] as string }])
    expect(plain).toContainEqual({ type: 'text-delta', index: 0, text: 'Hello' })
  })
})

describe('messages decode stream: fixtures', () => {
  it('decodes text.sse exactly', async () => {
    expect(await decodeBytes(fixtureBytes('text.sse'), [])).toEqual(textEvents)
  })

  it('decodes reasoning.sse: thinking with its signature on reasoning-end, then text', async () => {
    const events = await decodeBytes(fixtureBytes('reasoning.sse'), [])
    expect(events.map((e) => e.type)).toEqual([
      'message-start',
      'reasoning-start',
      'ping',
      'reasoning-delta',
      'reasoning-delta',
      'reasoning-delta',
      'reasoning-end',
      'text-start',
      'text-delta',
      'text-delta',
      'text-end',
      'usage',
      'finish',
    ])
    expect(events[6]).toEqual({
      type: 'reasoning-end',
      index: 0,
      providerData: { messages: { signature: expect.stringMatching(/^EqQBCgIYAhIM/) } },
    })
  })

  it('decodes usage-cache.sse with cache reads and writes', async () => {
    const events = await decodeBytes(fixtureBytes('usage-cache.sse'), [])
    expect(events.at(-1)).toEqual({
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'end_turn', rawFormat: 'messages' },
      usage: { inputTokens: 2060, cachedInputTokens: 1800, cacheWriteInputTokens: 248, outputTokens: 14 },
    })
  })

  it('decodes error-midstream.sse: text then an overloaded error, no finish', async () => {
    const events = await decodeBytes(fixtureBytes('error-midstream.sse'), [])
    expect(events.slice(-3)).toEqual([
      { type: 'text-delta', index: 0, text: 'Once upon a time, ' },
      { type: 'text-delta', index: 0, text: 'in a land far away' },
      {
        type: 'error',
        error: {
          code: 'overloaded',
          status: 529,
          message: 'Overloaded',
          vendorType: 'overloaded_error',
          rawFormat: 'messages',
        },
      },
    ])
  })

  for (const scenario of ['text', 'reasoning', 'tool-call', 'parallel-tool-calls']) {
    it(`${scenario}: accumulate(decode(sse)) equals decodeResponse(the same exchange's JSON)`, async () => {
      const streamed = accumulate(await decodeBytes(fixtureBytes(`${scenario}.sse`), []))
      const { value } = decodeResponse(fixtureJson(`${scenario}.stream-response.json`))
      delete value.extensions
      expect(streamed).toEqual(value)
    })
  }

  const all = ['text', 'reasoning', 'tool-call', 'parallel-tool-calls', 'usage-cache', 'error-midstream']
  for (const scenario of all) {
    it(`${scenario}.sse: identical events whatever the chunking (random cuts, byte by byte, CRLF)`, async () => {
      const bytes = fixtureBytes(`${scenario}.sse`)
      const whole = await decodeBytes(bytes, [])
      let seed = 7
      const random = (): number => {
        seed = (seed * 1103515245 + 12345) % 2147483648
        return seed / 2147483648
      }
      for (let round = 0; round < 5; round++) {
        const cuts = [...new Set(Array.from({ length: 12 }, () => Math.floor(random() * bytes.length)))].sort(
          (a, b) => a - b,
        )
        expect(await decodeBytes(bytes, cuts)).toEqual(whole)
      }
      expect(
        await decodeBytes(
          bytes,
          Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
        ),
      ).toEqual(whole)
      const crlf = new TextEncoder().encode(new TextDecoder().decode(bytes).replaceAll('\n', '\r\n'))
      expect(await decodeBytes(crlf, [])).toEqual(whole)
      expect(
        await decodeBytes(
          crlf,
          Array.from({ length: 40 }, (_, i) => Math.floor((i * crlf.length) / 40) + 1),
        ),
      ).toEqual(whole)
    })
  }
})
