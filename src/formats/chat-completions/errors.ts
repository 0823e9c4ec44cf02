/**
 * chat-completions error bodies ⇄ IR. @see wire-formats.md §1.9, §5.11
 * @see https://platform.openai.com/docs/guides/error-codes
 */

import { errorCodeForStatus } from '../../ir/error.js'
import type * as ir from '../../ir/index.js'
import { isRecord } from '../../shared/is-record.js'

/** IR code → OpenAI `error.type` and default `error.code` (the one table, both directions). */
const table: Record<ir.ErrorCode, { type: string; code: string | null }> = {
  'invalid-request': { type: 'invalid_request_error', code: null },
  'unsupported-feature': { type: 'invalid_request_error', code: 'unsupported_parameter' },
  authentication: { type: 'invalid_request_error', code: 'invalid_api_key' },
  billing: { type: 'insufficient_quota', code: 'insufficient_quota' },
  permission: { type: 'permission_error', code: null },
  // `model_not_found` only when the missing thing is the model (`param: 'model'`); an unknown route has `code: null`.
  'not-found': { type: 'invalid_request_error', code: null },
  conflict: { type: 'invalid_request_error', code: null },
  'request-too-large': { type: 'invalid_request_error', code: 'request_too_large' },
  unprocessable: { type: 'invalid_request_error', code: null },
  'rate-limit': { type: 'requests', code: 'rate_limit_exceeded' },
  internal: { type: 'server_error', code: null },
  upstream: { type: 'server_error', code: null },
  overloaded: { type: 'server_error', code: null },
  timeout: { type: 'server_error', code: 'timeout' },
}

function codeFor(status: number, type: string | undefined, code: string | undefined): ir.ErrorCode {
  if (code === 'invalid_api_key') return 'authentication'
  if (code === 'insufficient_quota' || type === 'insufficient_quota') return status === 402 ? 'billing' : 'rate-limit'
  if (code === 'context_length_exceeded') return 'invalid-request'
  // OpenAI answers a model the project may not use with 403 `model_not_found`.
  if (code === 'model_not_found') return status === 403 ? 'permission' : 'not-found'
  return errorCodeForStatus(status)
}

/** Any body → IR. Total: a string, null, array or HTML page never throws. */
export function decodeError(status: number, body: unknown): ir.ErrorInfo {
  const error = isRecord(body) && isRecord(body.error) ? body.error : isRecord(body) ? body : undefined
  const type = typeof error?.type === 'string' ? error.type : undefined
  const rawCode = error?.code
  const vendorCode = typeof rawCode === 'string' ? rawCode : typeof rawCode === 'number' ? String(rawCode) : undefined
  let message: string
  if (typeof error?.message === 'string' && error.message !== '') message = error.message
  else if (typeof body === 'string' && body.trim() !== '' && !body.trimStart().startsWith('<'))
    message = body.slice(0, 500)
  else message = `Upstream error (HTTP ${status})`
  const info: ir.ErrorInfo = { code: codeFor(status, type, vendorCode), status, message, rawFormat: 'chat-completions' }
  if (typeof error?.param === 'string') info.param = error.param
  if (type !== undefined) info.vendorType = type
  if (vendorCode !== undefined) info.vendorCode = vendorCode
  return info
}

export function encodeError(info: ir.ErrorInfo): {
  status: number
  body: { error: { message: string; type: string; param: string | null; code: string | null } }
} {
  const own = info.rawFormat === 'chat-completions'
  const entry = table[info.code] ?? table.internal
  return {
    status: info.status,
    body: {
      error: {
        message: info.message,
        // A model the key may not use: OpenAI's 403 (`Project … does not have access to model …`) is an
        // `invalid_request_error` with code `model_not_found`.
        type:
          own && info.vendorType !== undefined
            ? info.vendorType
            : info.code === 'permission' && info.param === 'model'
              ? 'invalid_request_error'
              : entry.type,
        param: info.param ?? null,
        code:
          own && info.vendorCode !== undefined
            ? info.vendorCode
            : (info.code === 'not-found' || info.code === 'permission') && info.param === 'model'
              ? 'model_not_found'
              : entry.code,
      },
    },
  }
}
