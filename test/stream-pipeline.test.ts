import { describe, expect, it } from 'vitest'
import { convertStream } from '../src/convert-stream.js'
import * as ccDecode from '../src/formats/chat-completions/decode-stream.js'
import type { SseMessage } from '../src/formats/format.js'
import * as msgDecode from '../src/formats/messages/decode-stream.js'
import * as msgEncode from '../src/formats/messages/encode-stream.js'
import type * as ir from '../src/ir/index.js'
import { accumulate } from '../src/stream/accumulate.js'
import { convertStreamWith } from '../src/stream/pipeline.js'
import { createSseDecodeStream } from '../src/stream/sse-decode.js'
import { collectText, fixedChunks, streamOf } from './helpers/rechunk.js'

const encoder = new TextEncoder()

function chunk(content: string, extra = ''): string {
  return `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-x","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"finish_reason":null}]${extra}}\n\n`
}

/** An endless chat-completions SSE source that counts pulls and records cancellation. */
function endlessSource(): { stream: ReadableStream<Uint8Array>; pulls: () => number; cancelled: () => unknown } {
  let pulls = 0
  let cancelled: unknown = 'not cancelled'
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulls++
        controller.enqueue(encoder.encode(chunk(`word${pulls} `)))
      },
      cancel(reason) {
        cancelled = reason
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, pulls: () => pulls, cancelled: () => cancelled }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('convertStreamWith (convertStream without the registry)', () => {
  it('converts chat-completions SSE to messages SSE that decodes to the same content', async () => {
    const source =
      chunk('Hello') +
      chunk(', wörld 🎉') +
      'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-x","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n' +
      'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-x","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}\n\n' +
      'data: [DONE]\n\n'
    const bytes = encoder.encode(source)
    const whole = await collectText(convertStreamWith(streamOf([bytes]), ccDecode, msgEncode, { model: 'alias' }))
    const byteByByte = await collectText(
      convertStreamWith(streamOf(fixedChunks(bytes)), ccDecode, msgEncode, { model: 'alias' }),
    )
    expect(byteByByte).toBe(whole)
    const events = streamOf([encoder.encode(whole)])
      .pipeThrough(createSseDecodeStream())
      .pipeThrough(msgDecode.createDecodeStream() as TransformStream<SseMessage, ir.StreamEvent>)
    const response = await accumulate(events)
    expect(response.model).toBe('alias')
    expect(response.content).toEqual([{ type: 'text', text: 'Hello, wörld 🎉' }])
    expect(response.finishReason.unified).toBe('stop')
    expect([response.usage?.inputTokens, response.usage?.outputTokens]).toEqual([3, 4])
  })

  it('writes what one upstream chunk completed as ONE output chunk (translated and same-format)', async () => {
    const many = Array.from({ length: 20 }, (_, i) => chunk(`word${i} `)).join('')
    const finish =
      'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-x","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    const chunks = async (stream: ReadableStream<Uint8Array>) => {
      const out: Uint8Array[] = []
      const reader = stream.getReader()
      for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value)
      return out
    }
    const input = () => streamOf([encoder.encode(many), encoder.encode(finish)])
    expect(await chunks(convertStreamWith(input(), ccDecode, msgEncode))).toHaveLength(2)
    const forwarded = await chunks(
      convertStream(input(), { from: 'chat-completions', to: 'chat-completions', includeUsage: true }),
    )
    expect(forwarded).toHaveLength(2)
  })

  it('pulls the source only as the consumer reads (backpressure)', async () => {
    const source = endlessSource()
    const reader = convertStreamWith(source.stream, ccDecode, msgEncode).getReader()
    await tick()
    const before = source.pulls()
    // Each stage may hold one chunk (writable highWaterMark 1): bounded, not the whole (endless) stream.
    expect(before).toBeLessThanOrEqual(8)
    await tick()
    expect(source.pulls()).toBe(before)
    await reader.read()
    await reader.read()
    await reader.read()
    await tick()
    const after = source.pulls()
    expect(after).toBeLessThanOrEqual(before + 6)
    await tick()
    expect(source.pulls()).toBe(after)
    await reader.cancel('done')
  })

  it('cancelling the output cancels the input', async () => {
    const source = endlessSource()
    const reader = convertStreamWith(source.stream, ccDecode, msgEncode).getReader()
    const first = await reader.read()
    expect(first.done).toBe(false)
    await reader.cancel('client went away')
    await tick()
    expect(source.cancelled()).toBe('client went away')
  })
})
