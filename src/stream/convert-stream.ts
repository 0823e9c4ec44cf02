import type { ConvertOptions } from '../convert.js'
import type { EncodeStreamOptions } from '../formats/format.js'
import { getFormat } from '../formats/index.js'
import { forwardResponsesStep } from '../formats/responses/encode-stream.js'
import type * as ir from '../ir/index.js'
import { forwardStep } from './forward.js'
import { convertStreamWith, encodeEventsWith, toBytes } from './pipeline.js'
import { createSseDecodeStep } from './sse-decode.js'
import { chainSteps } from './step.js'

export interface ConvertStreamOptions extends ConvertOptions, EncodeStreamOptions {}

/**
 * IR events → SSE bytes of `options.to` (with the model override). The second half of `convertStream`;
 * use it with `createResponseEventStream` to stream a non-streaming response.
 */
export function convertEventStream(
  events: ReadableStream<ir.StreamEvent>,
  options: Pick<ConvertStreamOptions, 'to' | 'model' | 'includeUsage'>,
): ReadableStream<Uint8Array> {
  return encodeEventsWith(events, getFormat(options.to), options)
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
 * const body = convertStream(upstream.body, { from: 'messages', to: 'chat-completions' })
 */
export function convertStream(
  stream: ReadableStream<Uint8Array>,
  options: ConvertStreamOptions,
): ReadableStream<Uint8Array> {
  const source = getFormat(options.from)
  if (
    options.from === options.to &&
    options.model === undefined &&
    (options.includeUsage === true || options.from !== 'chat-completions')
  ) {
    const forward =
      options.from === 'responses'
        ? forwardResponsesStep()
        : forwardStep(source.decodeStreamStep(), (error, out) => source.encodeStreamStep(options).push(error, out))
    return stream.pipeThrough(toBytes(chainSteps(createSseDecodeStep(), forward)))
  }
  return convertStreamWith(stream, source, getFormat(options.to), options)
}
