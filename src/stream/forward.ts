import type * as ir from '../ir/index.js'
import type { SseFrame, SseMessage } from './contract.js'
import { formatSseFrame } from './sse-encode.js'
import { clearBuffer, type StreamStep } from './step.js'

/**
 * Same-format streams: each message is validated by the format's decoder and, while the decoder reports no error,
 * forwarded as it came (its `event` and `data` text, not re-encoded). The first `error` event (a malformed event, the
 * upstream's own error, a stream that ends early) is written by `errorTail` in the format's in-stream error shape,
 * and nothing is forwarded after it. Output: SSE text, one string per push.
 */
export function forwardStep(
  decoder: StreamStep<SseMessage, ir.StreamEvent>,
  errorTail: (error: ir.ErrorEvent, out: SseFrame[]) => void,
): StreamStep<SseMessage, string> {
  const events: ir.StreamEvent[] = []
  const frames: SseFrame[] = []
  let failed = false
  let text = ''
  // Writes the tail when the decoder produced an error; true when it did.
  const check = (): boolean => {
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as ir.StreamEvent
      if (event.type !== 'error') continue
      failed = true
      errorTail(event, frames)
      for (let j = 0; j < frames.length; j++) text += formatSseFrame(frames[j] as SseFrame)
      clearBuffer(frames)
      break
    }
    clearBuffer(events)
    return failed
  }
  const flush = (out: string[]) => {
    if (text === '') return
    out.push(text)
    text = ''
  }
  return {
    push(message, out) {
      if (failed) return
      decoder.push(message, events)
      if (!check())
        text += formatSseFrame(message.event ? { event: message.event, data: message.data } : { data: message.data })
      flush(out)
    },
    end(out) {
      if (!failed) {
        decoder.end(events)
        check()
      }
      flush(out)
    },
  }
}
