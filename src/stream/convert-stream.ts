import type { ConvertOptions } from '../convert.js'
import type { EncodeStreamOptions } from '../formats/format.js'
import { getFormat } from '../formats/index.js'
import type * as ir from '../ir/index.js'
import { convertStreamWith, encodeEventsWith } from './pipeline.js'

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
 * the result cancels the source. Same-format input is decoded and re-encoded too. Vendor errors in the
 * stream become the `to` format's in-stream error frame.
 *
 * @example
 * const body = convertStream(upstream.body, { from: 'messages', to: 'chat-completions' })
 */
export function convertStream(
  stream: ReadableStream<Uint8Array>,
  options: ConvertStreamOptions,
): ReadableStream<Uint8Array> {
  return convertStreamWith(stream, getFormat(options.from), getFormat(options.to), options)
}
