import { describe, expect, it } from 'vitest'
import { collect, collectText, fixedChunks, randomChunks, streamOf } from '../../test/helpers/rechunk.js'
import type { SseFrame, SseMessage } from './contract.js'
import { createSseDecodeStream } from './sse-decode.js'
import { createSseEncodeStream, formatSseFrame, SSE_HEADERS } from './sse-encode.js'

const source = [
  ': a comment line\r\n',
  'event: message_start\r\n',
  'data: {"text":"héllo wörld — 日本語 🎉"}\r\n',
  '\r\n',
  'data: first line\n',
  'data: second line 🚀\n',
  'id: 7\n',
  '\n',
  ': keep-alive\n\n',
  'event: done\r',
  'data: [DONE]\r',
  '\r',
].join('')

const expected: SseMessage[] = [
  { event: 'message_start', data: '{"text":"héllo wörld — 日本語 🎉"}', id: undefined },
  { event: undefined, data: 'first line\nsecond line 🚀', id: '7' },
  { event: 'done', data: '[DONE]', id: undefined },
]

async function decode(chunks: Uint8Array[], maxBufferSize?: number): Promise<SseMessage[]> {
  const options = maxBufferSize === undefined ? {} : { maxBufferSize }
  return collect(streamOf(chunks).pipeThrough(createSseDecodeStream(options)))
}

describe('createSseDecodeStream', () => {
  const bytes = new TextEncoder().encode(source)

  it('parses CRLF, LF and CR line ends, comments, ids and multi-line data in one chunk', async () => {
    expect(await decode([bytes])).toEqual(expected)
  })

  it('gives identical messages byte by byte (multi-byte UTF-8 split across chunks)', async () => {
    expect(await decode(fixedChunks(bytes, 1))).toEqual(expected)
  })

  it('gives identical messages for random re-chunkings', async () => {
    for (let seed = 1; seed <= 50; seed++) {
      expect(await decode(randomChunks(bytes, seed, 7))).toEqual(expected)
    }
  })

  it('errors the stream when a message exceeds maxBufferSize', async () => {
    const big = new TextEncoder().encode(`data: ${'x'.repeat(2000)}`)
    await expect(decode([big], 100)).rejects.toThrow(/buffer/i)
  })

  it('cancelling the readable side cancels the piped source', async () => {
    let cancelled: unknown = 'not cancelled'
    const input = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: x\n\n'))
      },
      cancel(reason) {
        cancelled = reason
      },
    })
    const reader = input.pipeThrough(createSseDecodeStream()).getReader()
    expect(await reader.read()).toEqual({ done: false, value: { event: undefined, data: 'x', id: undefined } })
    await reader.cancel('stop')
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(cancelled).toBe('stop')
  })
})

describe('createSseEncodeStream', () => {
  it('writes event, one data line per line, comments and a blank line after each frame', () => {
    expect(formatSseFrame({ event: 'ping', data: '{}' })).toBe('event: ping\ndata: {}\n\n')
    expect(formatSseFrame({ data: 'a\nb' })).toBe('data: a\ndata: b\n\n')
    expect(formatSseFrame({ comment: 'keep-alive' })).toBe(': keep-alive\n\n')
    expect(formatSseFrame({ data: '' })).toBe('data: \n\n')
  })

  it('rejects line breaks in event names', () => {
    expect(() => formatSseFrame({ event: 'a\nb', data: 'x' })).toThrow(/line breaks/)
    expect(() => formatSseFrame({ event: 'a\rb', data: 'x' })).toThrow(/line breaks/)
  })

  it('round-trips through the decoder, re-chunked byte by byte', async () => {
    const frames: SseFrame[] = [
      { event: 'message_start', data: '{"t":"日本語 🎉"}' },
      { comment: 'ping' },
      { data: 'line one\nline two' },
      { data: '[DONE]' },
    ]
    const text = await collectText(streamOf(frames).pipeThrough(createSseEncodeStream()))
    expect(text).toBe(
      'event: message_start\ndata: {"t":"日本語 🎉"}\n\n: ping\n\ndata: line one\ndata: line two\n\ndata: [DONE]\n\n',
    )
    const messages = await decode(fixedChunks(new TextEncoder().encode(text), 1))
    expect(messages).toEqual([
      { event: 'message_start', data: '{"t":"日本語 🎉"}', id: undefined },
      { event: undefined, data: 'line one\nline two', id: undefined },
      { event: undefined, data: '[DONE]', id: undefined },
    ])
  })

  it('exports SSE headers without the hop-by-hop connection header', () => {
    expect(SSE_HEADERS).toEqual({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    })
    expect(() => new Response('x', { headers: SSE_HEADERS })).not.toThrow()
  })
})
