/**
 * content-generation error bodies ⇄ IR.
 * @see wire-formats.md §3.9, §5.11 and https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 * Body: `{"error":{"code":<http status>,"message","status":<google.rpc code name>,"details"?}}`. The HTTP status is
 * kept; `status` follows the table below (a content-generation upstream's own status name is reused).
 */
import { errorCodeForStatus, errorStatus } from '../../ir/error.js'
import type * as ir from '../../ir/index.js'
import { isRecord as isObject } from '../../shared/is-record.js'

const rpcForStatus: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  408: 'DEADLINE_EXCEEDED',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  422: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
  529: 'UNAVAILABLE',
}

const codeForRpc: Record<string, ir.ErrorCode> = {
  INVALID_ARGUMENT: 'invalid-request',
  FAILED_PRECONDITION: 'invalid-request',
  OUT_OF_RANGE: 'invalid-request',
  UNAUTHENTICATED: 'authentication',
  PERMISSION_DENIED: 'permission',
  NOT_FOUND: 'not-found',
  ABORTED: 'conflict',
  ALREADY_EXISTS: 'conflict',
  RESOURCE_EXHAUSTED: 'rate-limit',
  CANCELLED: 'timeout',
  INTERNAL: 'internal',
  UNKNOWN: 'internal',
  DATA_LOSS: 'internal',
  UNIMPLEMENTED: 'unsupported-feature',
  UNAVAILABLE: 'overloaded',
  DEADLINE_EXCEEDED: 'timeout',
}

/** `details[].reason` of a `google.rpc.ErrorInfo` (e.g. `API_KEY_INVALID`), when present. */
function reasonOf(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined
  for (const detail of details) if (isObject(detail) && typeof detail.reason === 'string') return detail.reason
  return undefined
}

/** `details[]` `google.rpc.RetryInfo.retryDelay` ("30s") in seconds, when present. */
function retryDelayOf(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined
  for (const detail of details) {
    if (isObject(detail) && typeof detail.retryDelay === 'string') {
      const seconds = Number.parseFloat(detail.retryDelay)
      if (Number.isFinite(seconds)) return seconds
    }
  }
  return undefined
}

/** Total: any status and any body (even a string or null) give an ErrorInfo. */
export function decodeError(status: number, body: unknown): ir.ErrorInfo {
  const error = isObject(body) && isObject(body.error) ? body.error : undefined
  const rpc = typeof error?.status === 'string' ? error.status : undefined
  // In-stream errors arrive with a 200: the numeric `error.code` is the real HTTP status.
  const inner = typeof error?.code === 'number' && error.code >= 400 && error.code <= 599 ? error.code : undefined
  const httpStatus = status >= 400 && status <= 599 ? status : inner
  const code =
    httpStatus !== undefined ? errorCodeForStatus(httpStatus) : ((rpc ? codeForRpc[rpc] : undefined) ?? 'internal')
  let message = typeof error?.message === 'string' && error.message !== '' ? error.message : undefined
  if (message === undefined) message = typeof body === 'string' && body !== '' ? body.slice(0, 500) : `HTTP ${status}`
  const info: ir.ErrorInfo = { code, status: httpStatus ?? errorStatus[code], message, rawFormat: 'content-generation' }
  if (rpc) info.vendorType = rpc
  const reason = reasonOf(error?.details)
  if (reason) info.vendorCode = reason
  const retryAfter = retryDelayOf(error?.details)
  if (retryAfter !== undefined) info.retryAfter = retryAfter
  return info
}

export function encodeError(error: ir.ErrorInfo): { status: number; body: unknown } {
  const rpc =
    error.rawFormat === 'content-generation' && error.vendorType
      ? error.vendorType
      : (rpcForStatus[error.status] ??
        // by the code's default status; billing (402) is a failed precondition
        (error.code === 'billing' ? 'FAILED_PRECONDITION' : rpcForStatus[errorStatus[error.code]]) ??
        (error.status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT'))
  const inner: Record<string, unknown> = { code: error.status, message: error.message, status: rpc }
  const details: Record<string, unknown>[] = []
  // A Gemini reason (API_KEY_INVALID…) is kept where Google puts it: a google.rpc.ErrorInfo detail.
  if (error.rawFormat === 'content-generation' && error.vendorCode)
    details.push({
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: error.vendorCode,
      domain: 'googleapis.com',
    })
  if (error.retryAfter !== undefined)
    details.push({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${error.retryAfter}s` })
  if (details.length > 0) inner.details = details
  return { status: error.status, body: { error: inner } }
}
