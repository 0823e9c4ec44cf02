/**
 * The error tail of a Responses stream the gateway forwards as bytes (same format, policy 1): the forwarded chunks
 * are watched for what a `response.failed` needs — the response announced by `response.created`, the last
 * `sequence_number`, the items of `output_item.done` — without decoding the stream. Each chunk is whole SSE events;
 * only events whose text names one of those types are parsed (a handful per stream); the rest cost one `lastIndexOf`
 * and two `indexOf` over the chunk's text.
 */
import type * as ir from '../../ir/index.js'
import { isRecord } from '../../shared/is-record.js'
import { eventData } from '../../stream/sse-event-data.js'
import type { ForwardedStreamWatcher, SseFrame } from '../format.js'
import type { Wire } from './content.js'
import { startEventOf } from './decode-stream.js'
import { ResponsesEncoder } from './encode-stream.js'

const sequenceKey = '"sequence_number":'
const createdType = '"response.created"'
const doneType = '"response.output_item.done"'

/** The data of the event around `at` in `text` (events are separated by a blank line), and where that event ends. */
function eventAround(text: string, at: number): { data: string | undefined; end: number } {
  const before = Math.max(text.lastIndexOf('\n\n', at), text.lastIndexOf('\r\n\r\n', at))
  let end = text.indexOf('\n\n', at)
  const crlf = text.indexOf('\r\n\r\n', at)
  if (crlf >= 0 && (end < 0 || crlf < end)) end = crlf
  if (end < 0) end = text.length
  return { data: eventData(text.slice(before < 0 ? 0 : before, end)), end }
}

function parsed(data: string | undefined): Wire | undefined {
  if (data === undefined) return undefined
  try {
    const value: unknown = JSON.parse(data)
    return isRecord(value) ? value : undefined
  } catch {
    return undefined
  }
}

export function watchForwardedStream(): ForwardedStreamWatcher {
  const decoder = new TextDecoder()
  let start: ir.MessageStartEvent | undefined
  let lastSequence = -1
  const items: Wire[] = []
  return {
    chunk(chunk) {
      const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
      const key = text.lastIndexOf(sequenceKey)
      if (key >= 0) {
        const value = Number.parseInt(text.slice(key + sequenceKey.length, key + sequenceKey.length + 16), 10)
        if (Number.isInteger(value)) lastSequence = value
      }
      if (start === undefined) {
        const at = text.indexOf(createdType)
        const event = at >= 0 ? parsed(eventAround(text, at).data) : undefined
        if (event?.type === 'response.created') start = startEventOf(event.response)
      }
      for (let at = text.indexOf(doneType); at >= 0; ) {
        const { data, end } = eventAround(text, at)
        const event = parsed(data)
        if (
          event?.type === 'response.output_item.done' &&
          typeof event.output_index === 'number' &&
          Number.isInteger(event.output_index) &&
          event.output_index >= 0 &&
          event.output_index < 4096 &&
          isRecord(event.item)
        )
          items[event.output_index] = event.item
        at = text.indexOf(doneType, end)
      }
    },
    encodeError(error) {
      const encoder = new ResponsesEncoder()
      if (start) encoder.resume(start, lastSequence + 1, items)
      const out: SseFrame[] = []
      encoder.push({ type: 'error', error }, out)
      return out
    },
  }
}
