import type { SseMessage } from './contract.js'
import { type StreamStep, stepToTransformStream } from './step.js'

/** Default cap on one SSE message (and the line being assembled): upstream bytes are untrusted. 16 MiB. */
export const DEFAULT_SSE_MAX_BUFFER_SIZE = 16 * 1024 * 1024

export interface SseDecodeOptions {
  /** Largest message the parser buffers before it errors the stream. @defaultValue 16 MiB */
  maxBufferSize?: number
}

// `text.startsWith('data:', at)` and `'event:'` after the first char, spelled out: several times faster on V8.
const isData = (text: string, at: number) =>
  text.charCodeAt(at + 1) === 97 &&
  text.charCodeAt(at + 2) === 116 &&
  text.charCodeAt(at + 3) === 97 &&
  text.charCodeAt(at + 4) === 58
const isEvent = (text: string, at: number) =>
  text.charCodeAt(at + 1) === 118 &&
  text.charCodeAt(at + 2) === 101 &&
  text.charCodeAt(at + 3) === 110 &&
  text.charCodeAt(at + 4) === 116 &&
  text.charCodeAt(at + 5) === 58

/** A field's value: from `at` (just after the colon, one leading space dropped) to the line's end. */
const valueFrom = (text: string, at: number, end: number) => text.slice(text.charCodeAt(at) === 32 ? at + 1 : at, end)

/** The error an oversized message throws (eventsource-parser's `ParseError` shape: `name`, `type`). */
function bufferExceeded(max: number): Error & { type: string } {
  const error = new Error(`Buffered data exceeded max buffer size of ${max} characters`)
  error.name = 'ParseError'
  return Object.assign(error, { type: 'max-buffer-size-exceeded' })
}

/**
 * SSE bytes (or text) → parsed messages (`event`, `data`, `id`), as a push step: the WHATWG event-stream grammar as
 * eventsource-parser reads it (CRLF, LF or CR line ends; `:` comments; `data` lines joined
 * with `\n`; a message dispatched at a blank line when it has data; `event`, `id` and `data` reset after each blank
 * line; `retry` and unknown fields ignored; an unterminated last message dropped). UTF-8 split across chunks is
 * handled by a `TextDecoder` in streaming mode. The one case where it throws: a message larger than `maxBufferSize`
 * (an error of `type` `max-buffer-size-exceeded`), which errors the stream it runs in.
 */
export function createSseDecodeStep(options: SseDecodeOptions = {}): StreamStep<Uint8Array | string, SseMessage> {
  const max = options.maxBufferSize ?? DEFAULT_SSE_MAX_BUFFER_SIZE
  const decoder = new TextDecoder()
  let pending = '' // the unterminated line
  let data = ''
  let lines = 0 // data lines in the message being assembled
  let event: string | undefined
  let id: string | undefined
  let first = true
  let afterCr = false // the last line ended in CR: an LF starting the next chunk belongs to it

  const line = (text: string, start: number, end: number, out: SseMessage[]) => {
    if (start === end) {
      if (lines > 0) out.push({ id, event, data })
      id = event = undefined
      data = ''
      lines = 0
      return
    }
    const c = text.charCodeAt(start)
    if (c === 100 && isData(text, start)) {
      const value = valueFrom(text, start + 5, end)
      data = lines++ === 0 ? value : `${data}\n${value}`
      return
    }
    if (c === 101 && isEvent(text, start)) {
      event = valueFrom(text, start + 6, end) || undefined
      return
    }
    if (c === 58) return // a comment
    const colon = text.indexOf(':', start)
    const nameEnd = colon === -1 || colon > end ? end : colon
    const field = text.slice(start, nameEnd)
    const value = nameEnd === end ? '' : valueFrom(text, nameEnd + 1, end)
    if (field === 'data') data = lines++ === 0 ? value : `${data}\n${value}`
    else if (field === 'event') event = value || undefined
    else if (field === 'id' && !value.includes('\0')) id = value
  }

  const feed = (chunk: string, out: SseMessage[]) => {
    if (chunk.length === 0) return
    let text = chunk
    if (first) {
      first = false
      // eventsource-parser's BOM check, kept as it is: the UTF-8 BOM's bytes read one char each (a `TextDecoder`
      // has already dropped a real BOM from bytes)
      if (text.startsWith('\u00ef\u00bb\u00bf')) text = text.slice(3)
    }
    if (pending !== '') text = pending + text
    let start = 0
    if (afterCr) {
      afterCr = false
      if (text.charCodeAt(0) === 10) start = 1
    }
    let lf = text.indexOf('\n', start)
    let cr = text.indexOf('\r', start)
    if (cr === -1)
      while (lf !== -1) {
        // the usual lines inline: `data:` (a message's only data line straight out when a blank line follows), `event:`
        const c = text.charCodeAt(start)
        if (c === 100 && isData(text, start)) {
          const value = valueFrom(text, start + 5, lf)
          if (lines === 0 && text.charCodeAt(lf + 1) === 10) {
            out.push({ id, event, data: value })
            id = event = undefined
            start = lf + 2
            lf = text.indexOf('\n', start)
            continue
          }
          data = lines++ === 0 ? value : `${data}\n${value}`
        } else if (c === 101 && isEvent(text, start)) event = valueFrom(text, start + 6, lf) || undefined
        else line(text, start, lf, out)
        start = lf + 1
        lf = text.indexOf('\n', start)
      }
    else
      for (;;) {
        if (lf !== -1 && lf < start) lf = text.indexOf('\n', start)
        if (cr !== -1 && cr < start) cr = text.indexOf('\r', start)
        const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr
        if (end === -1) break
        line(text, start, end, out)
        start = end + 1
        if (end === cr) {
          if (start === text.length) afterCr = true
          else if (text.charCodeAt(start) === 10) start++
        }
      }
    pending = start === 0 ? text : text.slice(start)
    if (pending.length + data.length > max) throw bufferExceeded(max)
  }

  return {
    push(chunk, out) {
      feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }), out)
    },
    end(out) {
      feed(decoder.decode(), out)
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
