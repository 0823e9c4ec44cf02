import type * as ir from '../ir/index.js'
import type { EncodeStreamOptions, SseFrame, StreamCodec } from './contract.js'
import { createSseDecodeStep } from './sse-decode.js'
import { formatSseFrame, isPiecesFrame, writeSseFrame } from './sse-encode.js'
import {
  chainSteps,
  clearBuffer,
  MAX_JOINED_TEXT,
  mapStep,
  type StreamStep,
  stepToTransformStream,
  takeJoined,
} from './step.js'

/** Rewrites `message-start.model` (the model override), as a step. */
export function modelOverrideStep(model: string): StreamStep<ir.StreamEvent, ir.StreamEvent> {
  return mapStep((event) => (event.type === 'message-start' ? { ...event, model } : event))
}

/** Rewrites `message-start.model` (the model override). */
export function createModelOverrideStream(model: string): TransformStream<ir.StreamEvent, ir.StreamEvent> {
  return stepToTransformStream(modelOverrideStep(model))
}

export interface PipelineOptions extends EncodeStreamOptions {
  /** Replaces the model id in `message-start`. */
  model?: string
}

/**
 * Frames → SSE text: what one push produced is written as ONE string (frames ready together are coalesced), so a
 * consumer writes once per upstream chunk.
 */
export function sseTextStep<I>(frames: StreamStep<I, SseFrame>): StreamStep<I, string> {
  const buffer: SseFrame[] = []
  const flush = (out: string[]) => {
    if (buffer.length === 0) return
    let text = ''
    for (let i = 0; i < buffer.length; i++) {
      if (isPiecesFrame(buffer[i] as SseFrame)) {
        // A frame in pieces (a very long text) stays in pieces: the writer joins them in bounded strings.
        if (text !== '') out.push(text)
        text = ''
        writeSseFrame(buffer[i] as SseFrame, out)
        continue
      }
      const frame = formatSseFrame(buffer[i] as SseFrame)
      if (text.length + frame.length > MAX_JOINED_TEXT && text !== '') {
        out.push(text)
        text = ''
      }
      text += frame
    }
    clearBuffer(buffer)
    if (text !== '') out.push(text)
  }
  return {
    push(input, out) {
      frames.push(input, buffer)
      flush(out)
    },
    end(out) {
      frames.end(buffer)
      flush(out)
    },
  }
}

/** IR events → SSE frames of `target` (with the model override). */
function encodeFramesStep(
  target: Pick<StreamCodec, 'encodeStreamStep'>,
  options: PipelineOptions,
): StreamStep<ir.StreamEvent, SseFrame> {
  const encode = target.encodeStreamStep(options)
  return options.model === undefined ? encode : chainSteps(modelOverrideStep(options.model), encode)
}

/** IR events → SSE text of `target` (with the model override), one string per push. */
export function encodeEventsStep(
  target: Pick<StreamCodec, 'encodeStreamStep'>,
  options: PipelineOptions = {},
): StreamStep<ir.StreamEvent, string> {
  return sseTextStep(encodeFramesStep(target, options))
}

/** SSE bytes of `source` → SSE text of `target`, one string per pushed chunk (none when nothing completed). */
export function convertStreamStep(
  source: Pick<StreamCodec, 'decodeStreamStep'>,
  target: Pick<StreamCodec, 'encodeStreamStep'>,
  options: PipelineOptions = {},
): StreamStep<Uint8Array | string, string> {
  // The text step wraps the whole chain, so the frames of every event the chunk completed become one string.
  return sseTextStep(
    chainSteps(chainSteps(createSseDecodeStep(), source.decodeStreamStep()), encodeFramesStep(target, options)),
  )
}

/**
 * A step's text output as UTF-8 bytes: what one push produced is encoded and enqueued as ONE chunk (an enqueue and an
 * encode per SSE event would cost more than the conversion itself).
 */
export function toBytes<I>(step: StreamStep<I, string>): TransformStream<I, Uint8Array> {
  const encoder = new TextEncoder()
  const texts: string[] = []
  const encode = (out: Uint8Array[]) => {
    while (texts.length > 0) {
      const text = takeJoined(texts)
      if (text !== '') out.push(encoder.encode(text))
    }
  }
  return stepToTransformStream<I, Uint8Array>({
    push(input, out) {
      step.push(input, texts)
      encode(out)
    },
    end(out) {
      step.end(texts)
      encode(out)
    },
  })
}

/** IR events → SSE bytes of `target` (with the model override). Pull-based; cancel propagates to `events`. */
export function encodeEventsWith(
  events: ReadableStream<ir.StreamEvent>,
  target: Pick<StreamCodec, 'encodeStreamStep'>,
  options: PipelineOptions = {},
): ReadableStream<Uint8Array> {
  return events.pipeThrough(toBytes(encodeEventsStep(target, options)))
}

/**
 * SSE bytes of `source` → SSE bytes of `target`, with the formats given as objects (no registry lookup). One
 * `TransformStream` driving the steps: one output chunk per input chunk that completed something.
 */
export function convertStreamWith(
  stream: ReadableStream<Uint8Array>,
  source: Pick<StreamCodec, 'decodeStreamStep'>,
  target: Pick<StreamCodec, 'encodeStreamStep'>,
  options: PipelineOptions = {},
): ReadableStream<Uint8Array> {
  return stream.pipeThrough(toBytes(convertStreamStep(source, target, options)))
}
