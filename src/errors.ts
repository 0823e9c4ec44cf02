import type { ErrorCode, ErrorInfo } from './ir/error.js'
import { errorStatus } from './ir/error.js'
import type { FormatId, WireFormatId } from './ir/format-id.js'

const marker = Symbol.for('interlingua.error')

/** One validation issue: where (JSON path) and what. */
export interface InterlinguaIssue {
  path: string
  message: string
}

export interface InterlinguaErrorOptions {
  status?: number
  /** The wire format the error is about. */
  format?: WireFormatId
  /** JSON path of the offending field. */
  param?: string
  issues?: InterlinguaIssue[]
  cause?: unknown
}

/**
 * The one class interlingua throws. `code` says what went wrong, `status` the HTTP status it maps to,
 * and for `invalid-request` the message starts with the JSON path of the bad field.
 *
 * @example
 * try { convertRequest(body, { from: 'chat-completions', to: 'messages' }) }
 * catch (error) { if (InterlinguaError.isInstance(error)) console.log(error.code, error.message) }
 */
export class InterlinguaError extends Error {
  readonly [marker] = true
  readonly code: ErrorCode
  readonly status: number
  readonly format?: WireFormatId
  readonly param?: string
  readonly issues?: InterlinguaIssue[]

  constructor(code: ErrorCode, message: string, options: InterlinguaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'InterlinguaError'
    this.code = code
    this.status = options.status ?? errorStatus[code]
    if (options.format !== undefined) this.format = options.format
    if (options.param !== undefined) this.param = options.param
    if (options.issues !== undefined) this.issues = options.issues
  }

  /** True for an InterlinguaError from any copy of the library (ESM and CJS may both be loaded). */
  static isInstance(error: unknown): error is InterlinguaError {
    return typeof error === 'object' && error !== null && (error as { [marker]?: unknown })[marker] === true
  }

  /** The error as IR data, ready for a format's `encodeError`. */
  toErrorInfo(): ErrorInfo {
    const info: ErrorInfo = { code: this.code, status: this.status, message: this.message }
    if (this.param !== undefined) info.param = this.param
    return info
  }
}

/** Formats a path array (`['messages', 0, 'content']`) as `messages[0].content`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else out += out === '' ? String(key) : `.${String(key)}`
  }
  return out
}

/** Throws `invalid-request` naming the path: "`messages[0].content`: expected string". */
export function invalidRequest(path: string, message: string, format?: FormatId): never {
  const options: InterlinguaErrorOptions = { param: path, issues: [{ path, message }] }
  if (format) options.format = format
  throw new InterlinguaError('invalid-request', path ? `${path}: ${message}` : message, options)
}
