import { InterlinguaError } from '../errors.js'
import type { SseFrame } from './contract.js'
import { type StreamStep, stepToTransformStream } from './step.js'

/**
 * Response headers for an SSE body. `connection: keep-alive` is deliberately absent: it is a hop-by-hop
 * header that Fetch runtimes (undici, workerd) reject or strip in a `Response`.
 */
export const SSE_HEADERS: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
})

const lineBreak = /\r\n|\r|\n/
const hasLineBreak = (text: string) => text.indexOf('\n') !== -1 || text.indexOf('\r') !== -1

/** `prefix` + each line of `text`, each ending in `\n` (the common single-line case without a split). */
function lines(prefix: string, text: string): string {
  if (!hasLineBreak(text)) return `${prefix}${text}\n`
  let out = ''
  for (const line of text.split(lineBreak)) out += `${prefix}${line}\n`
  return out
}

/**
 * A frame whose `data` is JSON text (made by `JSON.stringify`, which escapes every line break) under an event name
 * without line breaks: written without scanning either for line breaks — the scan would flatten the encoder's
 * concatenated string, one more copy of every frame. The same own properties as the literal `{ event, data }` (`event`
 * only when given).
 */
class JsonSseFrame implements SseFrame {
  declare event?: string
  declare data: string
  constructor(event: string | undefined, data: string) {
    if (event !== undefined) this.event = event
    this.data = data
  }
}

/** An encoder's frame of JSON `data` (see {@link JsonSseFrame}); `event` must be a constant name. */
export function jsonFrame(event: string | undefined, data: string): SseFrame {
  return new JsonSseFrame(event, data)
}

/**
 * A frame of JSON `data` given in pieces, for a frame that carries a very long text (the Responses done events repeat
 * the whole answer): the pieces are written one after another (`writeSseFrame`), so the frame is never one string —
 * several such frames share the same pieces rather than each holding its own copy of the text. `data` joins them, for
 * a reader of the frame object.
 */
class PiecesSseFrame implements SseFrame {
  declare event?: string
  constructor(
    event: string | undefined,
    readonly pieces: readonly string[],
  ) {
    if (event !== undefined) this.event = event
  }
  get data(): string {
    return this.pieces.join('')
  }
}

/** An encoder's frame of JSON `data` made of `pieces` (see {@link PiecesSseFrame}); `event` must be a constant name. */
export function piecesFrame(event: string | undefined, pieces: readonly string[]): SseFrame {
  return new PiecesSseFrame(event, pieces)
}

/**
 * Appends a frame's SSE text to `out`: one string ({@link formatSseFrame}), or for a frame in pieces its head, each
 * piece and its end as strings of their own (a writer joins them up to `MAX_JOINED_TEXT`).
 */
export function writeSseFrame(frame: SseFrame, out: string[]): void {
  if (!(frame instanceof PiecesSseFrame)) {
    out.push(formatSseFrame(frame))
    return
  }
  out.push(frame.event === undefined ? 'data: ' : `event: ${frame.event}\ndata: `)
  for (let i = 0; i < frame.pieces.length; i++) out.push(frame.pieces[i] as string)
  out.push('\n\n')
}

/** Whether a frame is written in pieces (see {@link writeSseFrame}). */
export function isPiecesFrame(frame: SseFrame): boolean {
  return frame instanceof PiecesSseFrame
}

/** One frame as SSE text: `event:` line, one `data:` line per line of data, `:` comment lines, a blank line. */
export function formatSseFrame(frame: SseFrame): string {
  if (frame instanceof JsonSseFrame || frame instanceof PiecesSseFrame)
    return frame.event === undefined ? `data: ${frame.data}\n\n` : `event: ${frame.event}\ndata: ${frame.data}\n\n`
  // The common frame (an event name and one line of data), in one template.
  if (frame.comment === undefined && frame.data !== undefined && !hasLineBreak(frame.data)) {
    if (frame.event === undefined) return `data: ${frame.data}\n\n`
    if (!hasLineBreak(frame.event)) return `event: ${frame.event}\ndata: ${frame.data}\n\n`
  }
  let out = ''
  if (frame.comment !== undefined) out += lines(': ', frame.comment)
  if (frame.event !== undefined) {
    if (hasLineBreak(frame.event)) {
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
