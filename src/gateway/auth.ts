/** Client keys: where they come from and how they are checked (policy 10); callers, refusals and allow-lists. */

import type { FormatId } from '../ir/format-id.js'
import type * as ir from '../ir/index.js'
import { errorInfo } from './errors.js'
import type { AuthenticateResult, Caller, Refusal } from './options.js'

/** What a key is read from: header lookups by lower-case name and the query string (without `?`). */
export interface KeySource {
  header(name: string): string | null
  query: string
}

const bearer = /^Bearer\s+(.+)$/i

/** The client's key from `Authorization: Bearer`, `x-api-key`, `x-goog-api-key` or `?key=`. */
export function extractKey(request: KeySource): string | undefined {
  const authorization = request.header('authorization')
  if (authorization) {
    // `test`, not `exec`: no match array. What follows `Bearer` and its blanks is the rest of the trimmed value.
    const value = authorization.trim()
    if (bearer.test(value)) return value.slice(6).trim()
  }
  return (
    request.header('x-api-key') ??
    request.header('x-goog-api-key') ??
    (request.query === '' ? undefined : (new URLSearchParams(request.query).get('key') ?? undefined))
  )
}

/**
 * Compares two strings in time that depends only on their lengths (the longer one's), never on where they differ: every
 * UTF-16 code unit is compared, no early exit. Code units, not UTF-8 bytes: the same answer for every well-formed
 * string, nothing encoded per request, and two different lone surrogates (both U+FFFD once encoded) stay different.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length)
  let diff = a.length ^ b.length
  for (let i = 0; i < length; i++) diff |= (i < a.length ? a.charCodeAt(i) : 0) ^ (i < b.length ? b.charCodeAt(i) : 0)
  return diff === 0
}

/** True when `key` equals one of `keys`; every key is compared, so timing does not reveal which one matched. */
export function keyMatches(key: string, keys: readonly string[]): boolean {
  let found = false
  for (const candidate of keys) if (constantTimeEqual(key, candidate)) found = true
  return found
}

/**
 * A `Refusal` for `authenticate` to return: `'authentication'` → 401, `'permission'` → 403, `'rate-limit'` → 429 with
 * `retry-after` (seconds), each in the client's format.
 *
 * @example
 * authenticate: async (key) => {
 *   const row = await keys.find(key)
 *   if (!row) return false
 *   const wait = await limiter.take(row.id)
 *   if (wait) return refuse('rate-limit', { retryAfter: wait })
 *   return { id: row.accountId, models: row.models }
 * }
 */
export function refuse(reason: Refusal['refuse'], options: Omit<Refusal, 'refuse'> = {}): Refusal {
  return { refuse: reason, ...options }
}

const refusalDefaults: Record<Refusal['refuse'], { code: ir.ErrorCode; message: string }> = {
  authentication: { code: 'authentication', message: 'Invalid API key' },
  permission: { code: 'permission', message: 'This API key may not use this service' },
  'rate-limit': { code: 'rate-limit', message: 'Rate limit exceeded for this API key' },
}

/** What a key check concluded: accepted (with the caller, when `authenticate` named one) or refused (the error). */
export type Authorization = { caller?: Caller } | { refused: ir.ErrorInfo }

/** `authenticate`'s answer as an authorization. Throws a TypeError for an answer that is none of the documented ones. */
export function authorizationOf(result: AuthenticateResult): Authorization {
  if (result === true) return {}
  if (typeof result !== 'object' || result === null) return { refused: errorInfo('authentication', 'Invalid API key') }
  if ('refuse' in result && result.refuse !== undefined) {
    const refusal = result as Refusal
    const defaults = refusalDefaults[refusal.refuse]
    if (!defaults) throw new TypeError(`authenticate: unknown refusal "${String(refusal.refuse)}"`)
    const info = errorInfo(defaults.code, refusal.message ?? defaults.message)
    if (refusal.retryAfter !== undefined && Number.isFinite(refusal.retryAfter) && refusal.retryAfter >= 0)
      info.retryAfter = Math.ceil(refusal.retryAfter)
    return { refused: info }
  }
  if (typeof (result as Caller).id !== 'string') throw new TypeError('authenticate: a caller needs a string `id`')
  return { caller: result as Caller }
}

/** True when the caller may use `model` (no caller, or no allow-list, means every model). */
export function mayUse(caller: Caller | undefined, model: string): boolean {
  return caller?.models === undefined || caller.models.includes(model)
}

/**
 * The refusal of a key that is not one of `apiKeys`, as the service of the client's format answers it: Gemini answers
 * a wrong key with 400 `INVALID_ARGUMENT` and a `google.rpc.ErrorInfo` of reason `API_KEY_INVALID` (what
 * `@google/genai` users test for), not 401; the others with 401.
 */
export function invalidKey(format: FormatId): ir.ErrorInfo {
  if (format !== 'content-generation') return errorInfo('authentication', 'Invalid API key')
  return {
    code: 'authentication',
    status: 400,
    message: 'API key not valid. Please pass a valid API key.',
    vendorType: 'INVALID_ARGUMENT',
    vendorCode: 'API_KEY_INVALID',
    rawFormat: 'content-generation',
  }
}

/**
 * The refusal of a request that carries no key, as the service of the client's format answers it: Gemini answers 403
 * `PERMISSION_DENIED` ("Method doesn't allow unregistered callers…"), not 401; the others 401.
 */
export function missingKey(format: FormatId): ir.ErrorInfo {
  if (format !== 'content-generation')
    return errorInfo(
      'authentication',
      'Missing API key (send Authorization: Bearer, x-api-key, x-goog-api-key or ?key=)',
    )
  return {
    code: 'permission',
    status: 403,
    message:
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    vendorType: 'PERMISSION_DENIED',
    rawFormat: 'content-generation',
  }
}
