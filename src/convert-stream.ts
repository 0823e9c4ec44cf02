/** `convertStream` and `convertEventStream` by format id (the main entry): registry lookups, then `convert-stream-core.ts`. */

import type { ConvertStreamOptions } from './convert-stream-core.js'
import * as core from './convert-stream-core.js'
import { getFormat } from './formats/index.js'
import type * as ir from './ir/index.js'

export type { ConvertStreamOptions } from './convert-stream-core.js'

/**
 * IR events → SSE bytes of `options.to` (with the model override). The second half of `convertStream`;
 * use it with `createResponseEventStream` to stream a non-streaming response.
 */
export function convertEventStream(
  events: ReadableStream<ir.StreamEvent>,
  options: Pick<ConvertStreamOptions, 'to' | 'model' | 'includeUsage'>,
): ReadableStream<Uint8Array> {
  return core.convertEventStream(events, { ...options, to: getFormat(options.to) })
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
  return core.convertStream(stream, { ...options, from: getFormat(options.from), to: getFormat(options.to) })
}
