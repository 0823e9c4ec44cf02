import type { EncodeStreamOptions, Format } from '../formats/format.js'
import type * as ir from '../ir/index.js'
import { createSseDecodeStream } from './sse-decode.js'
import { createSseEncodeStream } from './sse-encode.js'

/** Rewrites `message-start.model` (the model override). */
export function createModelOverrideStream(model: string): TransformStream<ir.StreamEvent, ir.StreamEvent> {
  return new TransformStream<ir.StreamEvent, ir.StreamEvent>({
    transform(event, controller) {
      controller.enqueue(event.type === 'message-start' ? { ...event, model } : event)
    },
  })
}

export interface PipelineOptions extends EncodeStreamOptions {
  /** Replaces the model id in `message-start`. */
  model?: string
}

/** IR events → SSE bytes of `target` (with the model override). Pull-based; cancel propagates to `events`. */
export function encodeEventsWith(
  events: ReadableStream<ir.StreamEvent>,
  target: Pick<Format, 'createEncodeStream'>,
  options: PipelineOptions = {},
): ReadableStream<Uint8Array> {
  const overridden = options.model === undefined ? events : events.pipeThrough(createModelOverrideStream(options.model))
  return overridden.pipeThrough(target.createEncodeStream(options)).pipeThrough(createSseEncodeStream())
}

/** SSE bytes of `source` → SSE bytes of `target`, with the formats given as objects (no registry lookup). */
export function convertStreamWith(
  stream: ReadableStream<Uint8Array>,
  source: Pick<Format, 'createDecodeStream'>,
  target: Pick<Format, 'createEncodeStream'>,
  options: PipelineOptions = {},
): ReadableStream<Uint8Array> {
  const events = stream.pipeThrough(createSseDecodeStream()).pipeThrough(source.createDecodeStream())
  return encodeEventsWith(events, target, options)
}
