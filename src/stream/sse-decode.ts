import { EventSourceParserStream } from 'eventsource-parser/stream'
import type { SseMessage } from '../formats/format.js'

/** Default cap on one SSE message (and the line being assembled): upstream bytes are untrusted. 16 MiB. */
export const DEFAULT_SSE_MAX_BUFFER_SIZE = 16 * 1024 * 1024

export interface SseDecodeOptions {
  /** Largest message the parser buffers before it errors the stream. @defaultValue 16 MiB */
  maxBufferSize?: number
}

/**
 * SSE bytes → parsed messages (`event`, `data`, `id`). UTF-8 split across chunks, CRLF/CR line ends and
 * comments are handled by `TextDecoderStream` and eventsource-parser. A message larger than
 * `maxBufferSize` errors the stream. One `{ writable, readable }` pair: use it with `pipeThrough`;
 * cancelling the readable side cancels what is piped in.
 */
export function createSseDecodeStream(options: SseDecodeOptions = {}): TransformStream<Uint8Array, SseMessage> {
  const decoder = new TextDecoderStream()
  const parser = new EventSourceParserStream({
    maxBufferSize: options.maxBufferSize ?? DEFAULT_SSE_MAX_BUFFER_SIZE,
  })
  // A stream that ends in a bare CR leaves the parser waiting to see whether LF follows: end that line.
  let lastChar = ''
  const endLine = new TransformStream<string, string>({
    transform(chunk, controller) {
      if (chunk.length === 0) return
      lastChar = chunk[chunk.length - 1] as string
      controller.enqueue(chunk)
    },
    flush(controller) {
      if (lastChar === '\r') controller.enqueue('\n')
    },
  })
  const readable = decoder.readable.pipeThrough(endLine).pipeThrough(parser)
  // A structural TransformStream: `pipeThrough` only needs `writable` and `readable`.
  return { writable: decoder.writable, readable } as unknown as TransformStream<Uint8Array, SseMessage>
}
