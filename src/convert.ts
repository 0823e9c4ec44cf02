/**
 * The converters by format id (`{ from: 'messages', to: 'chat-completions' }`): the main entry's. They look the codecs
 * up in the registry (so a bundle holds every format) and run `convert-core.ts`.
 */

import type { ConvertOptions, ConvertRequestOptions } from './convert-core.js'
import * as core from './convert-core.js'
import { getFormat } from './formats/index.js'

export type { ConvertOptions, ConvertRequestOptions } from './convert-core.js'
export { reportWarnings } from './convert-core.js'

/**
 * Converts a request body from one wire format to another. Pure and synchronous. With `from === to` the body is
 * validated and given back unchanged (a copy), so a same-format conversion is the identity.
 *
 * @example
 * const body = convertRequest(openaiBody, { from: 'chat-completions', to: 'messages' })
 * @throws InterlinguaError `invalid-request` (message names the JSON path) or, with `strict`, `unsupported-feature`.
 */
export function convertRequest(body: unknown, options: ConvertRequestOptions): unknown {
  return core.convertRequest(body, { ...options, from: getFormat(options.from), to: getFormat(options.to) })
}

/**
 * Converts a (non-streaming) response body from one wire format to another. Pure and synchronous.
 *
 * @example
 * const body = convertResponse(anthropicMessage, { from: 'messages', to: 'chat-completions' })
 */
export function convertResponse(body: unknown, options: ConvertOptions): unknown {
  return core.convertResponse(body, { ...options, from: getFormat(options.from), to: getFormat(options.to) })
}

/** Converts an error body (with its HTTP status) from one format to another. Total: never throws. */
export function convertError(
  status: number,
  body: unknown,
  options: Pick<ConvertOptions, 'from' | 'to'>,
): { status: number; body: unknown } {
  return core.convertError(status, body, { from: getFormat(options.from), to: getFormat(options.to) })
}
