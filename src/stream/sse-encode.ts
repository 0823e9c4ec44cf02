import { InterlinguaError } from '../errors.js'
import type { SseFrame } from '../formats/format.js'

/**
 * Response headers for an SSE body. `connection: keep-alive` is deliberately absent: it is a hop-by-hop
 * header that Fetch runtimes (undici, workerd) reject or strip in a `Response`.
 */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
})

/** One frame as SSE text: `event:` line, one `data:` line per line of data, `:` comment lines, a blank line. */
export function formatSseFrame(frame: SseFrame): string {
  let out = ''
  if (frame.comment !== undefined) {
    for (const line of frame.comment.split(/\r\n|\r|\n/)) out += `: ${line}\n`
  }
  if (frame.event !== undefined) {
    if (/[\r\n]/.test(frame.event)) {
      throw new InterlinguaError('internal', 'SSE event names cannot contain line breaks')
    }
    out += `event: ${frame.event}\n`
  }
  if (frame.data !== undefined) {
    for (const line of frame.data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`
  }
  return `${out}\n`
}

/** SSE frames → UTF-8 bytes, one chunk per frame. */
export function createSseEncodeStream(): TransformStream<SseFrame, Uint8Array> {
  const encoder = new TextEncoder()
  return new TransformStream<SseFrame, Uint8Array>({
    transform(frame, controller) {
      controller.enqueue(encoder.encode(formatSseFrame(frame)))
    },
  })
}
