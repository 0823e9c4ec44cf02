/** `convertStream` and `convertEventStream` on codec objects (`interlingua/core`; `convert-stream.ts` takes ids). */
import { type ConvertOptions, codec } from './convert-core.js'
import type { EncodeStreamOptions, Format, FormatId } from './formats/format.js'
import type * as ir from './ir/index.js'
import { forwardStep } from './stream/forward.js'
import { convertStreamWith, encodeEventsWith, toBytes } from './stream/pipeline.js'
import { createSseDecodeStep } from './stream/sse-decode.js'
import { chainSteps } from './stream/step.js'

/** `F`: a format's id (the main entry) or its codec object (`interlingua/core`). */
export interface ConvertStreamOptions<F extends FormatId | Format = FormatId>
  extends ConvertOptions<F>,
    EncodeStreamOptions {}

/**
 * IR events → SSE bytes of `options.to` (with the model override). The second half of `convertStream`;
 * use it with `createResponseEventStream` to stream a non-streaming response.
 */
export function convertEventStream(
  events: ReadableStream<ir.StreamEvent>,
  options: Pick<ConvertStreamOptions<Format>, 'to' | 'model' | 'includeUsage'>,
): ReadableStream<Uint8Array> {
  return encodeEventsWith(events, codec(options.to), options)
}

/**
 * Converts a streamed response (raw SSE bytes as the `from` service sends them) into the SSE bytes the
 * `to` format's clients expect. Pull-based: the source is read only as the result is read; cancelling
 * the result cancels the source. Vendor errors in the stream become the `to` format's in-stream error frame.
 * Same-format input (`from === to`, no `model` override) is validated event by event and forwarded as it came
 * (each event's `event` and `data`, not re-encoded); at the first error (a malformed event, the upstream's own
 * error, an early end) the format's in-stream error is written and nothing follows it. Chat Completions is
 * forwarded only with `includeUsage: true` (otherwise it is re-encoded, which drops the usage chunk).
 *
 * @example
 * const body = convertStream(upstream.body, { from: messages, to: chatCompletions })
 */
export function convertStream(
  stream: ReadableStream<Uint8Array>,
  options: ConvertStreamOptions<Format>,
): ReadableStream<Uint8Array> {
  const source = codec(options.from)
  const target = codec(options.to)
  if (
    source.id === target.id &&
    options.model === undefined &&
    (options.includeUsage === true || source.id !== 'chat-completions')
  ) {
    const forward =
      source.forwardStreamStep?.() ??
      forwardStep(source.decodeStreamStep(), (error, out) => source.encodeStreamStep(options).push(error, out))
    return stream.pipeThrough(toBytes(chainSteps(createSseDecodeStep(), forward)))
  }
  return convertStreamWith(stream, source, target, options)
}
