/**
 * Responses error bodies ⇄ IR. The HTTP body is Chat Completions' `{"error":{message,type,param,code}}`
 * (responses-api.md §8.1), so the chat-completions codec does the work; this adds the Responses-only codes
 * (`previous_response_not_found`) and the codes Codex acts on in `response.failed` (§8.3).
 */
import type * as ir from '../../ir/index.js'
import { decodeError as decodeChatError, encodeError as encodeChatError } from '../chat-completions/errors.js'

export function decodeError(status: number, body: unknown): ir.ErrorInfo {
  return { ...decodeChatError(status, body), rawFormat: 'responses' }
}

/** Our own vendor type/code pass through (the chat-completions codec keeps them for its own rawFormat). */
function asChat(info: ir.ErrorInfo): ir.ErrorInfo {
  return info.rawFormat === 'responses' ? { ...info, rawFormat: 'chat-completions' } : info
}

export function encodeError(info: ir.ErrorInfo): {
  status: number
  body: { error: { message: string; type: string; param: string | null; code: string | null } }
} {
  const encoded = encodeChatError(asChat(info))
  if (info.param === 'previous_response_id' && info.status === 400 && info.rawFormat !== 'responses') {
    encoded.body.error.code = 'previous_response_not_found'
  }
  // An unknown response id (`GET /v1/responses/{id}`) is not an unknown model.
  if (info.param === 'response_id' && info.rawFormat !== 'responses') {
    encoded.body.error.code = null
    encoded.body.error.param = null
  }
  return encoded
}

/**
 * The `error.code` of an in-stream `error` / `response.failed` event. Codex retries every code it does not know
 * (responses-api.md §8.3), so deterministic failures get the codes it treats as fatal.
 */
export function streamErrorCode(info: ir.ErrorInfo): string {
  const own = info.rawFormat === 'responses' || info.rawFormat === 'chat-completions'
  if (own && info.vendorCode) return info.vendorCode
  switch (info.code) {
    case 'rate-limit':
      return 'rate_limit_exceeded'
    case 'billing':
      return 'insufficient_quota'
    case 'authentication':
      return 'invalid_api_key'
    case 'invalid-request':
    case 'unsupported-feature':
    case 'not-found':
    case 'permission':
    case 'request-too-large':
    case 'unprocessable':
    case 'conflict':
      return /context|too long|maximum.*tokens/i.test(info.message) ? 'context_length_exceeded' : 'invalid_prompt'
    case 'overloaded':
      return 'server_is_overloaded'
    default:
      return 'server_error'
  }
}

/** The message of an in-stream error; a rate limit says when to retry in the words Codex parses. */
export function streamErrorMessage(info: ir.ErrorInfo): string {
  if (info.code === 'rate-limit' && info.retryAfter !== undefined && !/try again in/i.test(info.message)) {
    return `${info.message} Please try again in ${info.retryAfter}s.`
  }
  return info.message
}

/** After passthrough bytes: a flat `error` event (what the JS SDKs stop on), then `[DONE]`. */
export function encodeStreamError(info: ir.ErrorInfo): Array<{ event?: string; data: string }> {
  const error = {
    type: 'error',
    code: streamErrorCode(info),
    message: streamErrorMessage(info),
    param: info.param ?? null,
    sequence_number: 0,
  }
  return [{ event: 'error', data: JSON.stringify(error) }, { data: '[DONE]' }]
}
