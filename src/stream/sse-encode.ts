import { InterlinguaError } from '../errors.js'
import type { SseFrame } from '../formats/format.js'
import { type StreamStep, stepToTransformStream } from './step.js'

/**
 * Response headers for an SSE body. `connection: keep-alive` is deliberately absent: it is a hop-by-hop
 * header that Fetch runtimes (undici, workerd) reject or strip in a `Response`.
 */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
})

const lineBreak = /\r\n|\r|\n/

/** `prefix` + each line of `text`, each ending in `\n` (the common single-line case without a split). */
function lines(prefix: string, text: string): string {
  if (text.indexOf('\n') === -1 && text.indexOf('\r') === -1) return `${prefix}${text}\n`
  let out = ''
  for (const line of text.split(lineBreak)) out += `${prefix}${line}\n`
  return out
}

/** One frame as SSE text: `event:` line, one `data:` line per line of data, `:` comment lines, a blank line. */
export function formatSseFrame(frame: SseFrame): string {
  let out = ''
  if (frame.comment !== undefined) out += lines(': ', frame.comment)
  if (frame.event !== undefined) {
    if (frame.event.indexOf('\n') !== -1 || frame.event.indexOf('\r') !== -1) {
      throw new InterlinguaError('internal', 'SSE event names cannot contain line breaks')
    }
    out += `event: ${frame.event}\n`
  }
  if (frame.data !== undefined) out += lines('data: ', frame.data)
  return `${out}\n`
}

/** SSE frames → SSE text, as a push step (one string per frame; join what one push produced to write it at once). */
export function createSseEncodeStep(): StreamStep<SseFrame, string> {
  return {
    push(frame, out) {
      out.push(formatSseFrame(frame))
    },
    end() {},
  }
}

/** SSE frames → UTF-8 bytes, one chunk per frame. */
export function createSseEncodeStream(): TransformStream<SseFrame, Uint8Array> {
  const encoder = new TextEncoder()
  return stepToTransformStream<SseFrame, Uint8Array>({
    push(frame, out) {
      out.push(encoder.encode(formatSseFrame(frame)))
    },
    end() {},
  })
}
