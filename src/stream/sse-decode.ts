import { createParser, type EventSourceParser, type ParseError } from 'eventsource-parser'
import type { SseMessage } from '../formats/format.js'
import { type StreamStep, stepToTransformStream } from './step.js'

/** Default cap on one SSE message (and the line being assembled): upstream bytes are untrusted. 16 MiB. */
export const DEFAULT_SSE_MAX_BUFFER_SIZE = 16 * 1024 * 1024

export interface SseDecodeOptions {
  /** Largest message the parser buffers before it errors the stream. @defaultValue 16 MiB */
  maxBufferSize?: number
}

/**
 * SSE bytes (or text) → parsed messages (`event`, `data`, `id`), as a push step. UTF-8 split across chunks, CRLF/CR
 * line ends and comments are handled (a `TextDecoder` in streaming mode and eventsource-parser's `createParser`, which
 * is push-shaped already). The one case where it throws: a message larger than `maxBufferSize` (a `ParseError` of
 * type `max-buffer-size-exceeded`), which errors the stream it runs in.
 */
export function createSseDecodeStep(options: SseDecodeOptions = {}): StreamStep<Uint8Array | string, SseMessage> {
  const decoder = new TextDecoder()
  let sink: SseMessage[] = []
  let failure: ParseError | undefined
  // A stream that ends in a bare CR leaves the parser waiting to see whether LF follows: end that line.
  let lastChar = ''
  const parser: EventSourceParser = createParser({
    onEvent: (message) => {
      sink.push(message)
    },
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') failure = error
    },
    maxBufferSize: options.maxBufferSize ?? DEFAULT_SSE_MAX_BUFFER_SIZE,
  })
  const feed = (text: string, out: SseMessage[]) => {
    if (text.length === 0) return
    lastChar = text[text.length - 1] as string
    sink = out
    parser.feed(text)
    if (failure) throw failure
  }
  return {
    push(chunk, out) {
      feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }), out)
    },
    end(out) {
      feed(decoder.decode(), out)
      if (lastChar === '\r') feed('\n', out)
    },
  }
}

/**
 * SSE bytes → parsed messages, as a `TransformStream` (use it with `pipeThrough`). A message larger than
 * `maxBufferSize` errors the stream.
 */
export function createSseDecodeStream(options: SseDecodeOptions = {}): TransformStream<Uint8Array, SseMessage> {
  return stepToTransformStream(createSseDecodeStep(options))
}
