/** Stream plumbing shared by `translateResponse` and the gateway: SSE bytes ⇄ IR events in a given format. */
import type { EncodeStreamOptions, Format } from '../formats/format.js'
import type * as ir from '../ir/index.js'
import { maskSecrets } from '../shared/mask.js'
import { createSnapshot, finalizeSnapshot, foldEvent } from '../stream/accumulate.js'
import { createSseDecodeStream } from '../stream/sse-decode.js'
import { createSseEncodeStream, SSE_HEADERS } from '../stream/sse-encode.js'

/** The error event for an upstream body that failed mid-stream (connection reset, abort, timeout). */
export function upstreamStreamError(): ir.StreamEvent {
  return {
    type: 'error',
    error: { code: 'upstream', status: 502, message: 'The upstream stream failed before it finished' },
  }
}

/**
 * Wraps an event stream so that a stream error (the upstream connection failed) becomes one IR `error` event
 * followed by a clean end, and so that nothing follows an `error` event. Pull-based; cancelling the result
 * cancels the source.
 */
export function guardEvents(
  source: ReadableStream<ir.StreamEvent>,
  pending: ir.StreamEvent[] = [],
): ReadableStream<ir.StreamEvent> {
  const reader = source.getReader()
  let ended = false
  return new ReadableStream<ir.StreamEvent>(
    {
      async pull(controller) {
        if (ended) return
        const buffered = pending.shift()
        let event = buffered
        if (!event) {
          try {
            const result = await reader.read()
            if (result.done) {
              ended = true
              controller.close()
              return
            }
            event = result.value
          } catch {
            event = upstreamStreamError()
          }
        }
        controller.enqueue(event)
        if (event.type === 'error') {
          ended = true
          controller.close()
          reader.cancel().catch(() => {})
        }
      },
      cancel(reason) {
        ended = true
        return reader.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}

/** Upstream SSE bytes of `format` → IR events (errors become an `error` event). */
export function decodeSse(body: ReadableStream<Uint8Array>, format: Format): ReadableStream<ir.StreamEvent> {
  return guardEvents(body.pipeThrough(createSseDecodeStream()).pipeThrough(format.createDecodeStream()))
}

const contentEvents = new Set<ir.StreamEvent['type']>(['message-start', 'ping', 'usage'])

/**
 * Reads events until the first content event (anything but message-start, ping and usage). Returns the error when
 * the stream failed before any content (the gateway answers with an HTTP error then), else a stream that replays
 * what was read and continues with the rest.
 */
export async function peekForError(
  events: ReadableStream<ir.StreamEvent>,
): Promise<{ error: ir.ErrorInfo } | { events: ReadableStream<ir.StreamEvent> }> {
  const reader = events.getReader()
  const seen: ir.StreamEvent[] = []
  for (;;) {
    let result: ReadableStreamReadResult<ir.StreamEvent>
    try {
      result = await reader.read()
    } catch {
      result = { done: false, value: upstreamStreamError() }
    }
    if (result.done) break
    const event = result.value
    if (event.type === 'error') {
      reader.cancel().catch(() => {})
      return { error: event.error }
    }
    seen.push(event)
    if (!contentEvents.has(event.type)) break
  }
  reader.releaseLock()
  return { events: guardEvents(events, seen) }
}

/** Calls `onUsage` with the final usage of a stream of events, and `onError` with an error event, passing all through. */
export function tapEvents(hooks: {
  onUsage?: (usage: ir.Usage) => void
  onError?: (error: ir.ErrorInfo) => void
  onAssistant?: (parts: ir.AssistantPart[]) => void
  /** Masked in an in-stream error's message (the upstream's key), with every key-shaped token. */
  secrets?: ReadonlyArray<string | undefined>
}) {
  const snapshot = hooks.onAssistant ? createSnapshot() : undefined
  return new TransformStream<ir.StreamEvent, ir.StreamEvent>({
    transform(event, controller) {
      if (event.type === 'finish') {
        if (event.usage) hooks.onUsage?.(event.usage)
        if (snapshot) {
          foldEvent(snapshot, event)
          hooks.onAssistant?.(finalizeSnapshot(snapshot).content)
        }
      } else if (event.type === 'error') {
        event.error.message = maskSecrets(event.error.message, hooks.secrets)
        hooks.onError?.(event.error)
      } else if (snapshot) foldEvent(snapshot, event)
      controller.enqueue(event)
    },
  })
}

/** SseFrames → a JSON array body (content-generation `:streamGenerateContent` without `alt=sse`). */
function createJsonArrayStream(): TransformStream<{ data?: string }, Uint8Array> {
  const encoder = new TextEncoder()
  let first = true
  return new TransformStream({
    transform(frame, controller) {
      if (frame.data === undefined) return
      controller.enqueue(encoder.encode(`${first ? '[' : ',\n'}${frame.data}`))
      first = false
    },
    flush(controller) {
      controller.enqueue(encoder.encode(first ? '[]' : ']'))
    },
  })
}

export interface EncodeEventsOptions {
  includeUsage?: boolean
  /** The client's decoded request (see `EncodeResponseOptions.request`). */
  request?: ir.Request
  streamJsonArray?: boolean
}

/** IR events → the client's wire bytes, with the headers to answer with. */
export function encodeEvents(
  events: ReadableStream<ir.StreamEvent>,
  format: Format,
  options: EncodeEventsOptions = {},
): { body: ReadableStream<Uint8Array>; headers: Headers } {
  const encodeOptions: EncodeStreamOptions = options.includeUsage ? { includeUsage: true } : {}
  if (options.request) encodeOptions.request = options.request
  const frames = events.pipeThrough(format.createEncodeStream(encodeOptions))
  if (options.streamJsonArray) {
    return {
      body: frames.pipeThrough(createJsonArrayStream()),
      headers: new Headers({ 'content-type': 'application/json' }),
    }
  }
  return { body: frames.pipeThrough(createSseEncodeStream()), headers: new Headers(SSE_HEADERS) }
}

/** The in-stream error frame bytes of a format (used after passthrough bytes, where no encoder runs). */
export function inStreamErrorBytes(format: Format, error: ir.ErrorInfo): Uint8Array {
  if (format.encodeStreamError) {
    const frames = format.encodeStreamError(error)
    return new TextEncoder().encode(
      frames.map((frame) => `${frame.event ? `event: ${frame.event}\n` : ''}data: ${frame.data ?? ''}\n\n`).join(''),
    )
  }
  const body = JSON.stringify(format.encodeError(error).body)
  const text = format.id === 'messages' ? `event: error\ndata: ${body}\n\n` : `data: ${body}\n\n`
  return new TextEncoder().encode(text)
}
