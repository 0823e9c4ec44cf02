/**
 * IR events pulled chunk by chunk, and their encoding for the client, as push steps: the gateway's stream machinery
 * with no `TransformStream` and no promise per event (one `await` per upstream chunk).
 */

import { InterlinguaError } from '../errors.js'
import type { EncodeStreamOptions, Format, SseFrame } from '../formats/format.js'
import type * as ir from '../ir/index.js'
import { maskSecrets } from '../shared/mask.js'
import { createSnapshot, finalizeSnapshot, foldEvent } from '../stream/accumulate.js'
import { modelOverrideStep, sseTextStep } from '../stream/pipeline.js'
import { createSseDecodeStep } from '../stream/sse-decode.js'
import { chainSteps, clearBuffer, type StreamStep } from '../stream/step.js'
import type { UpstreamAnswer } from './upstream.js'

/** The error event for an upstream body that failed mid-stream (connection reset, abort, timeout). */
export function upstreamStreamError(): ir.ErrorEvent {
  return {
    type: 'error',
    error: { code: 'upstream', status: 502, message: 'The upstream stream failed before it finished' },
  }
}

/** IR events, pulled. `pull` appends the events of the next chunk and resolves `false` once the source has ended. */
export interface EventPuller {
  /** Never rejects: a failure becomes an `error` event. */
  pull(out: ir.StreamEvent[]): Promise<boolean>
  cancel(): void
}

/** Upstream SSE of `format` → IR events (an upstream failure, or an oversized SSE message, becomes an `error`). */
export function ssePuller(answer: UpstreamAnswer, format: Pick<Format, 'decodeStreamStep'>): EventPuller {
  const step = chainSteps(createSseDecodeStep(), format.decodeStreamStep())
  return {
    async pull(out) {
      try {
        const chunk = await answer.next()
        if (chunk === undefined) {
          step.end(out)
          return false
        }
        step.push(chunk, out)
        return true
      } catch (error) {
        // A timeout (the gateway's idle timeout) keeps its code; any other failure is the upstream's.
        out.push(
          InterlinguaError.isInstance(error) ? { type: 'error', error: error.toErrorInfo() } : upstreamStreamError(),
        )
        answer.close()
        return false
      }
    },
    cancel: () => answer.close(),
  }
}

/** A list of events known up front (a replayed response, the mock model). */
export function listPuller(events: ir.StreamEvent[]): EventPuller {
  let given = false
  return {
    async pull(out) {
      if (!given) for (const event of events) out.push(event)
      given = true
      return false
    },
    cancel() {},
  }
}

export interface EventHooks {
  /** Masked in an in-stream error's message (the upstream's key), with every key-shaped token. */
  secrets?: ReadonlyArray<string | undefined> | undefined
  onUsage?: ((usage: ir.Usage) => void) | undefined
  onError?: ((error: ir.ErrorInfo) => void) | undefined
  onAssistant?: ((parts: ir.AssistantPart[]) => void) | undefined
  /**
   * `false`: a stream's parts given to `onAssistant` keep no answer text (each text part is there, in place, empty), so
   * a stream of any length is folded in constant memory — reasoning, tool calls and provider data are kept, which is
   * all the reasoning store reads. @defaultValue true
   */
  assistantText?: boolean | undefined
}

/**
 * Passes events through, calling the hooks (final usage, an error, the assistant's parts at the end), and lets nothing
 * through after an `error` event (`failed` tells the driver to stop reading).
 */
export class TapStep implements StreamStep<ir.StreamEvent, ir.StreamEvent> {
  failed = false
  private readonly snapshot
  constructor(private readonly hooks: EventHooks) {
    this.snapshot = hooks.onAssistant ? createSnapshot() : undefined
  }

  push(event: ir.StreamEvent, out: ir.StreamEvent[]): void {
    if (this.failed) return
    if (event.type === 'finish') {
      if (event.usage) this.hooks.onUsage?.(event.usage)
      if (this.snapshot) {
        foldEvent(this.snapshot, event)
        this.hooks.onAssistant?.(finalizeSnapshot(this.snapshot).content)
      }
    } else if (event.type === 'error') {
      this.failed = true
      event.error.message = maskSecrets(event.error.message, this.hooks.secrets)
      this.hooks.onError?.(event.error)
    } else if (this.snapshot) {
      if (event.type !== 'text-delta' || this.hooks.assistantText !== false) foldEvent(this.snapshot, event)
      else if (event.providerData) foldEvent(this.snapshot, { ...event, text: '' })
    }
    out.push(event)
  }

  end(): void {}
}

/** Frames → a JSON array body (content-generation `:streamGenerateContent` without `alt=sse`), one string per push. */
function jsonArrayTextStep<I>(frames: StreamStep<I, SseFrame>): StreamStep<I, string> {
  const buffer: SseFrame[] = []
  let first = true
  const flush = (out: string[], last: boolean) => {
    let text = ''
    for (const frame of buffer) {
      if (frame.data === undefined) continue
      text += `${first ? '[' : ',\n'}${frame.data}`
      first = false
    }
    clearBuffer(buffer)
    if (last) text += first ? '[]' : ']'
    if (text !== '') out.push(text)
  }
  return {
    push(input, out) {
      frames.push(input, buffer)
      flush(out, false)
    },
    end(out) {
      frames.end(buffer)
      flush(out, true)
    },
  }
}

export interface ClientEncodeOptions {
  includeUsage?: boolean | undefined
  /** The client's decoded request (see `EncodeResponseOptions.request`). */
  request?: ir.Request | undefined
  streamJsonArray?: boolean | undefined
  /** The model id to report (`message-start.model`). */
  model?: string | undefined
  /** Responses: the response of the stream's terminal event (see `EncodeStreamOptions.onResponse`). */
  onResponse?: ((response: Record<string, unknown>) => void) | undefined
}

/** IR events → the client's body text (SSE, or a JSON array), one string per push that produced something. */
export function clientTextStep(target: Format, options: ClientEncodeOptions): StreamStep<ir.StreamEvent, string> {
  const encodeOptions: EncodeStreamOptions = options.includeUsage ? { includeUsage: true } : {}
  if (options.request) encodeOptions.request = options.request
  if (options.onResponse) encodeOptions.onResponse = options.onResponse
  const encode = target.encodeStreamStep(encodeOptions)
  const frames = options.model === undefined ? encode : chainSteps(modelOverrideStep(options.model), encode)
  return options.streamJsonArray ? jsonArrayTextStep(frames) : sseTextStep(frames)
}
