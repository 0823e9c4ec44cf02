/**
 * IR events → Converse stream frames (`event`: the frame's event type, `data`: its JSON payload; see decode-stream.ts).
 * What Bedrock's `/converse-stream` sends, for tests and the mock: text and reasoning blocks open with their first
 * delta, a tool call with `contentBlockStart`; a reasoning block's Converse signature is a delta before its stop;
 * `finish` is `messageStop` then `metadata` (usage); an error is an exception frame (`throttlingException`, …).
 */
import type * as ir from '../../ir/index.js'
import { type StreamStep, stepToTransformStream } from '../../stream/step.js'
import type { EncodeStreamOptions, SseFrame } from '../format.js'
import { encodeError } from './errors.js'
import { fromFinishReason } from './finish-reason.js'
import { encodeUsage } from './usage.js'

const frame = (event: string, data: unknown): SseFrame => ({ event, data: JSON.stringify(data) })

export function encodeStreamStep(_options?: EncodeStreamOptions): StreamStep<ir.StreamEvent, SseFrame> {
  let sawToolCall = false
  let usage: Partial<ir.Usage> = {}
  let done = false
  const delta = (index: number, value: unknown) =>
    frame('contentBlockDelta', { contentBlockIndex: index, delta: value })
  return {
    push(event, out) {
      if (done) return
      switch (event.type) {
        case 'message-start':
          if (event.usage) usage = { ...usage, ...event.usage }
          out.push(frame('messageStart', { role: 'assistant' }))
          break
        case 'text-delta':
          if (event.text !== '') out.push(delta(event.index, { text: event.text }))
          break
        case 'reasoning-start':
          if (event.redactedData !== undefined)
            out.push(delta(event.index, { reasoningContent: { redactedContent: event.redactedData } }))
          break
        case 'reasoning-delta':
          if (event.text !== '') out.push(delta(event.index, { reasoningContent: { text: event.text } }))
          break
        case 'tool-call-start':
          sawToolCall = true
          out.push(
            frame('contentBlockStart', {
              contentBlockIndex: event.index,
              start: { toolUse: { toolUseId: event.id, name: event.name } },
            }),
          )
          break
        case 'tool-call-delta':
          if (event.argumentsDelta !== '') out.push(delta(event.index, { toolUse: { input: event.argumentsDelta } }))
          break
        case 'reasoning-end': {
          const signature = event.providerData?.converse?.signature
          if (typeof signature === 'string') out.push(delta(event.index, { reasoningContent: { signature } }))
          out.push(frame('contentBlockStop', { contentBlockIndex: event.index }))
          break
        }
        case 'text-end':
        case 'tool-call-end':
          out.push(frame('contentBlockStop', { contentBlockIndex: event.index }))
          break
        case 'usage':
          usage = { ...usage, ...event.usage }
          break
        case 'finish':
          out.push(frame('messageStop', { stopReason: fromFinishReason(event.finishReason, sawToolCall) }))
          out.push(frame('metadata', { usage: encodeUsage(event.usage ?? usage), metrics: { latencyMs: 0 } }))
          done = true
          break
        case 'error': {
          const body = encodeError(event.error).body as { __type: string; message: string }
          const name = body.__type.charAt(0).toLowerCase() + body.__type.slice(1)
          out.push(frame(name, { message: body.message }))
          done = true
          break
        }
        default:
        // text-start and ping have no frame.
      }
    },
    end() {},
  }
}

export function createEncodeStream(options?: EncodeStreamOptions): TransformStream<ir.StreamEvent, SseFrame> {
  return stepToTransformStream(encodeStreamStep(options))
}
