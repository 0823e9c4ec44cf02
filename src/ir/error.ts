import type { WireFormatId } from './format-id.js'

/**
 * Error codes, kebab-case. Each has a default HTTP status (`errorStatus`), but `ErrorInfo.status`
 * carries the real one, so an upstream 529 or 503 is kept.
 */
export type ErrorCode =
  | 'invalid-request'
  | 'unsupported-feature'
  | 'authentication'
  | 'billing'
  | 'permission'
  | 'not-found'
  | 'conflict'
  | 'request-too-large'
  | 'unprocessable'
  | 'rate-limit'
  | 'internal'
  | 'upstream'
  | 'overloaded'
  | 'timeout'

export const errorStatus: Record<ErrorCode, number> = {
  'invalid-request': 400,
  'unsupported-feature': 400,
  authentication: 401,
  billing: 402,
  permission: 403,
  'not-found': 404,
  conflict: 409,
  'request-too-large': 413,
  unprocessable: 422,
  'rate-limit': 429,
  internal: 500,
  upstream: 502,
  overloaded: 503,
  timeout: 504,
}

/** The error that crosses the hub: data, not a class. */
export interface ErrorInfo {
  code: ErrorCode
  /** HTTP status to answer with. */
  status: number
  /** Human-readable; never contains keys or whole payloads. */
  message: string
  /** JSON path of the offending field, when known (e.g. `messages[0].content`). */
  param?: string
  /** The vendor's own error type/status string (e.g. `rate_limit_error`, `RESOURCE_EXHAUSTED`). */
  vendorType?: string
  /** The vendor's own error code (OpenAI `code`, Anthropic `details.error_code`). */
  vendorCode?: string
  /** The format `vendorType`/`vendorCode` belong to. */
  rawFormat?: WireFormatId
  /** Seconds to wait before retrying, when the upstream said so. */
  retryAfter?: number
}

let codeByStatus: Record<number, ErrorCode> | undefined

/**
 * The error code for an HTTP status (total): the first code whose default status it is (`errorStatus`), 408 and 504
 * a timeout, 503 and 529 overloaded; otherwise `internal` from 500 up, `invalid-request` below.
 */
export function errorCodeForStatus(status: number): ErrorCode {
  if (!codeByStatus) {
    const table: Record<number, ErrorCode> = { 408: 'timeout', 529: 'overloaded' }
    for (const code of Object.keys(errorStatus) as ErrorCode[]) table[errorStatus[code]] ??= code
    codeByStatus = table
  }
  return codeByStatus[status] ?? (status >= 500 ? 'internal' : 'invalid-request')
}
