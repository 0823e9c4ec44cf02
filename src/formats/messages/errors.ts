/**
 * messages error bodies ⇄ IR. @see wire-formats.md §2.8 and https://docs.anthropic.com/en/api/errors
 * Body: `{"type":"error","error":{"type","message","details"?},"request_id"}`. The HTTP status is always kept;
 * the error `type` follows the status table below (a messages upstream's own type is reused as-is).
 */

import { errorCodeForStatus, errorStatus } from '../../ir/error.js'
import type * as ir from '../../ir/index.js'
import { isRecord } from '../../shared/is-record.js'

const typeForStatus: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  409: 'conflict_error',
  413: 'request_too_large',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'api_error',
  502: 'api_error',
  503: 'overloaded_error',
  504: 'timeout_error',
  529: 'overloaded_error',
}

const typeForCode: Record<ir.ErrorCode, string> = {
  'invalid-request': 'invalid_request_error',
  'unsupported-feature': 'invalid_request_error',
  authentication: 'authentication_error',
  billing: 'billing_error',
  permission: 'permission_error',
  'not-found': 'not_found_error',
  conflict: 'conflict_error',
  'request-too-large': 'request_too_large',
  unprocessable: 'invalid_request_error',
  'rate-limit': 'rate_limit_error',
  internal: 'api_error',
  upstream: 'api_error',
  overloaded: 'overloaded_error',
  timeout: 'timeout_error',
}

/** The inverse of `typeForCode` (the first code of each type: `invalid_request_error` → `invalid-request`). */
const codeForType: Record<string, ir.ErrorCode> = {}
for (const code in typeForCode) codeForType[typeForCode[code as ir.ErrorCode]] ??= code as ir.ErrorCode

/** Total: any status and any body (even a string or null) give an ErrorInfo. */
export function decodeError(status: number, body: unknown): ir.ErrorInfo {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined
  const vendorType = typeof error?.type === 'string' ? error.type : undefined
  const httpError = status >= 400 && status <= 599
  const code = httpError
    ? errorCodeForStatus(status)
    : ((vendorType ? codeForType[vendorType] : undefined) ?? 'internal')
  let message = typeof error?.message === 'string' && error.message !== '' ? error.message : undefined
  if (message === undefined) message = typeof body === 'string' && body !== '' ? body.slice(0, 500) : `HTTP ${status}`
  // In-stream errors arrive with the stream's 200: take the status the error type stands for.
  const realStatus = httpError ? status : vendorType === 'overloaded_error' ? 529 : errorStatus[code]
  const info: ir.ErrorInfo = { code, status: realStatus, message, rawFormat: 'messages' }
  if (vendorType) info.vendorType = vendorType
  const details = error?.details
  if (isRecord(details) && typeof details.error_code === 'string') info.vendorCode = details.error_code
  return info
}

export function encodeError(error: ir.ErrorInfo): { status: number; body: unknown } {
  const type =
    error.rawFormat === 'messages' && error.vendorType
      ? error.vendorType
      : (typeForStatus[error.status] ??
        typeForCode[error.code] ??
        (error.status >= 500 ? 'api_error' : 'invalid_request_error'))
  const inner: Record<string, unknown> = { type, message: error.message }
  if (error.rawFormat === 'messages' && error.vendorCode) inner.details = { error_code: error.vendorCode }
  return { status: error.status, body: { type: 'error', error: inner, request_id: null } }
}
