/**
 * Official-SDK acceptance: the encoder's frames, served as SSE bytes from a loopback server, are read by the real
 * `@anthropic-ai/sdk` client (both the `messages.stream()` accumulator and raw `create({stream: true})` iteration).
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Anthropic from '@anthropic-ai/sdk'
import { EventSourceParserStream } from 'eventsource-parser/stream'
import { afterEach, describe, expect, it } from 'vitest'
import type * as ir from '../../ir/index.js'
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

async function sseText(events: ir.StreamEvent[]): Promise<string> {
  const frames = await collect(streamOf(events).pipeThrough(createEncodeStream()))
  return frames.map((frame) => `event: ${frame.event}\ndata: ${frame.data}\n\n`).join('')
}

let server: Server | undefined
afterEach(async () => {
  const open = server
  server = undefined
  if (open) await new Promise<void>((resolve) => open.close(() => resolve()))
})

/** Serves `body` as an event stream on 127.0.0.1 and returns a client pointed at it. */
async function serve(body: string): Promise<Anthropic> {
  server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      response.end(body)
    })
  })
  const listening = server
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', () => resolve()))
  const { port } = listening.address() as AddressInfo
  return new Anthropic({ apiKey: 'test', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 })
}

const params = {
  model: 'claude-x',
  max_tokens: 1024,
  messages: [{ role: 'user' as const, content: 'Hi' }],
}

const fullTurn: ir.StreamEvent[] = [
  { type: 'message-start', id: 'msg_sdk', model: 'claude-x', usage: { inputTokens: 30, cachedInputTokens: 8 } },
  { type: 'ping' },
  { type: 'reasoning-start', index: 0 },
  { type: 'reasoning-delta', index: 0, text: 'Let me ' },
  { type: 'reasoning-delta', index: 0, text: 'think.' },
  { type: 'reasoning-end', index: 0, providerData: { messages: { signature: 'c2lnbmF0dXJl' } } },
  { type: 'text-start', index: 1 },
  { type: 'text-delta', index: 1, text: 'Café ☕ ' },
  { type: 'text-delta', index: 1, text: 'world' },
  { type: 'text-end', index: 1 },
  { type: 'tool-call-start', index: 2, id: 'toolu_1', name: 'get_weather' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '{"city": "Par' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: 'is"}' },
  { type: 'tool-call-end', index: 2 },
  { type: 'usage', usage: { outputTokens: 40 } },
  {
    type: 'finish',
    finishReason: { unified: 'tool-calls' },
    usage: { inputTokens: 30, cachedInputTokens: 8, outputTokens: 42 },
  },
]

describe('messages encode stream: official SDK acceptance', () => {
  it('messages.stream().finalMessage() rebuilds thinking with signature, text, tool_use, stop_reason and usage', async () => {
    const client = await serve(await sseText(fullTurn))
    const message = await client.messages.stream(params).finalMessage()
    // `parsed_output` is the SDK's own structured-output helper field, not wire data.
    expect({ ...message, parsed_output: undefined }).toEqual({
      id: 'msg_sdk',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [
        { type: 'thinking', thinking: 'Let me think.', signature: 'c2lnbmF0dXJl' },
        { type: 'text', text: 'Café ☕ world' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 22, output_tokens: 42, cache_creation_input_tokens: 0, cache_read_input_tokens: 8 },
    })
  })

  it('interleaved IR tool calls become parallel tool_use blocks the SDK accepts', async () => {
    const client = await serve(
      await sseText([
        { type: 'message-start', id: 'msg_par', model: 'claude-x' },
        { type: 'tool-call-start', index: 0, id: 'call_a', name: 'get_weather' },
        { type: 'tool-call-start', index: 1, id: 'call_b', name: 'get_time' },
        { type: 'tool-call-delta', index: 1, argumentsDelta: '{"tz":"Asia/Tokyo"}' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '"Paris"}' },
        { type: 'tool-call-end', index: 0 },
        { type: 'tool-call-end', index: 1 },
        {
          type: 'finish',
          finishReason: { unified: 'tool-calls', raw: 'tool_calls', rawFormat: 'chat-completions' },
          usage: { inputTokens: 50, outputTokens: 20 },
        },
      ]),
    )
    const message = await client.messages.stream(params).finalMessage()
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_b', name: 'get_time', input: { tz: 'Asia/Tokyo' } },
    ])
    expect(message.stop_reason).toBe('tool_use')
    expect(message.usage).toEqual({
      input_tokens: 50,
      output_tokens: 20,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    })
  })

  it('messages.create({stream: true}) iterates every event', async () => {
    const client = await serve(await sseText(fullTurn))
    const stream = await client.messages.create({ ...params, stream: true })
    const types: string[] = []
    let text = ''
    let json = ''
    for await (const event of stream) {
      types.push(event.type)
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta')
        json += event.delta.partial_json
      if (event.type === 'message_delta') {
        expect(event.delta.stop_reason).toBe('tool_use')
        expect(event.usage.output_tokens).toBe(42)
      }
    }
    expect(text).toBe('Café ☕ world')
    expect(JSON.parse(json)).toEqual({ city: 'Paris' })
    expect(types).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ])
  })

  it('an error event makes the SDK throw', async () => {
    const client = await serve(
      await sseText([
        { type: 'message-start', id: 'msg_err', model: 'claude-x' },
        { type: 'text-start', index: 0 },
        { type: 'text-delta', index: 0, text: 'Once' },
        { type: 'error', error: { code: 'overloaded', status: 529, message: 'Overloaded' } },
      ]),
    )
    await expect(client.messages.stream(params).finalMessage()).rejects.toThrow(/Overloaded/)
    const stream = await client.messages.create({ ...params, stream: true })
    const iterate = async () => {
      for await (const _event of stream) {
        // consume
      }
    }
    await expect(iterate()).rejects.toMatchObject({ type: 'overloaded_error' })
  })

  for (const scenario of ['text', 'reasoning', 'tool-call', 'parallel-tool-calls']) {
    it(`${scenario}.sse → IR → SSE: finalMessage() equals the non-streaming response of the same exchange`, async () => {
      const base = new URL('../../../test/fixtures/messages/', import.meta.url)
      const bytes = new Uint8Array(readFileSync(new URL(`${scenario}.sse`, base)))
      const events = await collect(
        streamOf([bytes])
          .pipeThrough(new TextDecoderStream())
          .pipeThrough(new EventSourceParserStream())
          .pipeThrough(createDecodeStream()),
      )
      const client = await serve(await sseText(events))
      const message = await client.messages.stream(params).finalMessage()
      const expected = JSON.parse(readFileSync(new URL(`${scenario}.stream-response.json`, base), 'utf8'))
      expect({ ...message, parsed_output: undefined }).toEqual(expected)
    })
  }
})
