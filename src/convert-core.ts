/**
 * The converters on codec objects (`{ from: messages, to: chatCompletions }`): what `interlingua/core` exports. No
 * registry: a bundle holds only the formats its code names. `convert.ts` is the same by format id (the main entry).
 */
import { InterlinguaError } from './errors.js'
import type { EncodeRequestOptions, Format, FormatId, WireFormatId } from './formats/format.js'
import type * as ir from './ir/index.js'
import { assertJsonDepth } from './shared/depth.js'

/**
 * Options shared by `convertRequest`, `convertResponse` and `convertStream`. `F` is how a format is named: its id
 * (`'messages'`, the main entry) or its codec object (`messages`, `interlingua/core`).
 */
export interface ConvertOptions<F extends FormatId | Format = FormatId> {
  /** The format of the body you pass in. */
  from: F
  /** The format you want back. */
  to: F
  /** The model id. Required when converting a request from content-generation (whose model lives in the URL) unless the body names it. */
  model?: string
  /** Throw `InterlinguaError('unsupported-feature')` instead of dropping or approximating anything. @defaultValue false */
  strict?: boolean
  /** Receives every warning (something dropped or approximated). */
  onWarning?: (warning: ir.Warning) => void
}

export interface ConvertRequestOptions<F extends FormatId | Format = FormatId>
  extends ConvertOptions<F>,
    EncodeRequestOptions {}

/** Reports warnings; in strict mode the first one becomes an error. */
export function reportWarnings(
  warnings: ir.Warning[],
  options: Pick<ConvertOptions, 'strict' | 'onWarning'> & { to: WireFormatId },
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

/** `from` / `to` as a codec; a format id (what the main entry takes) is a `TypeError` here, as is anything else. */
export function codec(format: Format): Format {
  if (typeof format?.decodeError !== 'function')
    throw new TypeError(`Expected a format codec (e.g. \`messages\`), got ${JSON.stringify(format)}`)
  return format
}

/**
 * A deep copy of a JSON value (what `JSON.parse` builds: plain objects, arrays, primitives), several times faster than
 * `structuredClone`; anything else (a `Date`, a typed array, a class instance) is left to `structuredClone`. Bodies
 * reach this after the depth check, so it never recurses deeper than `maxJsonDepth`.
 */
function cloneJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length)
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i])
    return out
  }
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return structuredClone(value)
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const item = cloneJson((value as Record<string, unknown>)[key])
    // An own `__proto__` key (JSON.parse makes one) stays a plain property, never the copy's prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true })
    else out[key] = item
  }
  return out
}

/**
 * A validated body converted to its own format: a deep copy, equal to the input field for field (unknown vendor fields
 * included), with only the model replaced when one is given and the body carries it (`model`, or a Gemini response's
 * `modelVersion`; a Gemini request names its model in the URL).
 */
function sameFormat(body: unknown, model: string | undefined, modelKey: string): unknown {
  const copy = cloneJson(body) as Record<string, unknown>
  if (model !== undefined && modelKey in copy) copy[modelKey] = model
  return copy
}

/**
 * Converts a request body from one wire format to another. Pure and synchronous. With `from === to` the body is
 * validated and given back unchanged (a copy), so a same-format conversion is the identity.
 *
 * @example
 * const body = convertRequest(openaiBody, { from: chatCompletions, to: messages })
 * @throws InterlinguaError `invalid-request` (message names the JSON path) or, with `strict`, `unsupported-feature`.
 */
export function convertRequest(body: unknown, options: ConvertRequestOptions<Format>): unknown {
  const source = codec(options.from)
  const target = codec(options.to)
  assertJsonDepth(body, source.id)
  const route = options.model === undefined ? {} : { model: options.model }
  // Same format in and out is the identity (validated): every field comes back as it came, like the gateway's passthrough.
  if (source.id === target.id) {
    if (source.validateRequest) source.validateRequest(body, route)
    else source.decodeRequest(body, route)
    return sameFormat(body, options.model, 'model')
  }
  const decoded = source.decodeRequest(body, route)
  if (options.model !== undefined) decoded.value.model = options.model
  const encoded = target.encodeRequest(decoded.value, options)
  reportWarnings([...decoded.warnings, ...encoded.warnings], {
    strict: options.strict,
    onWarning: options.onWarning,
    to: target.id,
  })
  return encoded.value
}

/**
 * Converts a (non-streaming) response body from one wire format to another. Pure and synchronous.
 *
 * @example
 * const body = convertResponse(anthropicMessage, { from: messages, to: chatCompletions })
 */
export function convertResponse(body: unknown, options: ConvertOptions<Format>): unknown {
  const source = codec(options.from)
  const target = codec(options.to)
  assertJsonDepth(body, source.id)
  const decoded = source.decodeResponse(body)
  if (source.id === target.id)
    return sameFormat(body, options.model, source.id === 'content-generation' ? 'modelVersion' : 'model')
  if (options.model !== undefined) decoded.value.model = options.model
  const encoded = target.encodeResponse(decoded.value)
  reportWarnings([...decoded.warnings, ...encoded.warnings], {
    strict: options.strict,
    onWarning: options.onWarning,
    to: target.id,
  })
  return encoded.value
}

/** Converts an error body (with its HTTP status) from one format to another. Total: never throws. */
export function convertError(
  status: number,
  body: unknown,
  options: Pick<ConvertOptions<Format>, 'from' | 'to'>,
): { status: number; body: unknown } {
  const source = codec(options.from)
  const target = codec(options.to)
  return target.encodeError(source.decodeError(status, body))
}
