import type { FormatId } from './format-id.js'

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
  rawFormat?: FormatId
  /** Seconds to wait before retrying, when the upstream said so. */
  retryAfter?: number
}

/** The error code for an HTTP status (total). */
export function errorCodeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'invalid-request'
    case 401:
      return 'authentication'
    case 402:
      return 'billing'
    case 403:
      return 'permission'
    case 404:
      return 'not-found'
    case 409:
      return 'conflict'
    case 413:
      return 'request-too-large'
    case 422:
      return 'unprocessable'
    case 408:
    case 504:
      return 'timeout'
    case 429:
      return 'rate-limit'
    case 502:
      return 'upstream'
    case 503:
    case 529:
      return 'overloaded'
    default:
      return status >= 500 ? 'internal' : 'invalid-request'
  }
}
