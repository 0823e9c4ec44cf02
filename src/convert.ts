import { InterlinguaError } from './errors.js'
import type { EncodeRequestOptions, FormatId } from './formats/format.js'
import { getFormat } from './formats/index.js'
import type * as ir from './ir/index.js'

/** Options shared by `convertRequest`, `convertResponse` and `convertStream`. */
export interface ConvertOptions {
  /** The format of the body you pass in. */
  from: FormatId
  /** The format you want back. */
  to: FormatId
  /** The model id. Required when converting a request from content-generation (whose model lives in the URL) unless the body names it. */
  model?: string
  /** Throw `InterlinguaError('unsupported-feature')` instead of dropping or approximating anything. @defaultValue false */
  strict?: boolean
  /** Receives every warning (something dropped or approximated). */
  onWarning?: (warning: ir.Warning) => void
}

export interface ConvertRequestOptions extends ConvertOptions, EncodeRequestOptions {}

/** Reports warnings; in strict mode the first one becomes an error. */
export function reportWarnings(
  warnings: ir.Warning[],
  options: Pick<ConvertOptions, 'strict' | 'onWarning' | 'to'>,
): void {
  if (warnings.length === 0) return
  if (options.strict) {
    const first = warnings[0] as ir.Warning
    throw new InterlinguaError(
      'unsupported-feature',
      `${first.path}: ${first.message} (strict mode${warnings.length > 1 ? `; ${warnings.length - 1} more` : ''})`,
      { param: first.path, format: options.to, issues: warnings.map((w) => ({ path: w.path, message: w.message })) },
    )
  }
  if (options.onWarning) for (const warning of warnings) options.onWarning(warning)
}

/**
 * Converts a request body from one wire format to another. Pure and synchronous.
 *
 * @example
 * const body = convertRequest(openaiBody, { from: 'chat-completions', to: 'messages' })
 * @throws InterlinguaError `invalid-request` (message names the JSON path) or, with `strict`, `unsupported-feature`.
 */
export function convertRequest(body: unknown, options: ConvertRequestOptions): unknown {
  const source = getFormat(options.from)
  const target = getFormat(options.to)
  const decoded = source.decodeRequest(body, options.model === undefined ? {} : { model: options.model })
  if (options.model !== undefined) decoded.value.model = options.model
  const encoded = target.encodeRequest(decoded.value, options)
  reportWarnings([...decoded.warnings, ...encoded.warnings], options)
  return encoded.value
}

/**
 * Converts a (non-streaming) response body from one wire format to another. Pure and synchronous.
 *
 * @example
 * const body = convertResponse(anthropicMessage, { from: 'messages', to: 'chat-completions' })
 */
export function convertResponse(body: unknown, options: ConvertOptions): unknown {
  const source = getFormat(options.from)
  const target = getFormat(options.to)
  const decoded = source.decodeResponse(body)
  if (options.model !== undefined) decoded.value.model = options.model
  const encoded = target.encodeResponse(decoded.value)
  reportWarnings([...decoded.warnings, ...encoded.warnings], options)
  return encoded.value
}

/** Converts an error body (with its HTTP status) from one format to another. Total: never throws. */
export function convertError(
  status: number,
  body: unknown,
  options: Pick<ConvertOptions, 'from' | 'to'>,
): { status: number; body: unknown } {
  return getFormat(options.to).encodeError(getFormat(options.from).decodeError(status, body))
}
