/**
 * How one request meets the gateway's hooks (issue 22: a service calls all of them on every request, so each is kept
 * to what it must cost): `apiKeys` and `authenticate` give the request's authorization, synchronously unless
 * `authenticate` answers with a promise; `onRequest` and `onWarning` get copies of the request's event; `onResponse`
 * gets that event completed in place, at once for a whole answer and when a streamed one ends.
 */
import { type ExchangeResult, isChunkSource, observe } from '../http/exchange.js'
import type * as ir from '../ir/index.js'
import { type Authorization, authorizationOf, extractKey, invalidKey, keyMatches, missingKey } from './auth.js'
import { type Exchange, HookContext } from './exchange-state.js'
import type { AuthenticateResult, GatewayOptions, GatewayResponseEvent } from './options.js'

/** An accepted key that names no caller (`apiKeys`, or no key required). */
export const accepted: Authorization = Object.freeze({})

function isThenable(value: unknown): value is PromiseLike<AuthenticateResult> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

/**
 * The authorization of the request's key: one of `apiKeys`, else what `authenticate` answers. A promise only when
 * `authenticate` returns one: a synchronous answer costs the request no `await`. Throws what `authenticate` throws.
 */
export function authorize(exchange: Exchange, options: GatewayOptions): Authorization | Promise<Authorization> {
  const key = extractKey(exchange.request)
  if (!key) return { refused: missingKey(exchange.format.id) }
  if (options.apiKeys && keyMatches(key, options.apiKeys)) return accepted
  if (!options.authenticate) return { refused: invalidKey(exchange.format.id) }
  const answer = options.authenticate(key, new HookContext(exchange))
  return isThenable(answer) ? Promise.resolve(answer).then(authorizationOf) : authorizationOf(answer)
}

/** The `onWarning` of one request: the warning is kept for the answer's header and shown to the hook. */
export function warningReporter(exchange: Exchange, options: GatewayOptions): (warning: ir.Warning) => void {
  return (warning) => {
    exchange.warnings.push(warning)
    options.onWarning?.(warning, { ...exchange.event })
  }
}

/**
 * The request's event, completed in place (no copy: `{ ...event, status }`, a spread followed by more properties,
 * takes V8's slow path — ~10 µs a request). `onRequest` and `onWarning` got copies, so nothing else sees it change.
 */
function responseEvent(exchange: Exchange, status: number, now: number): GatewayResponseEvent {
  const event = exchange.event as GatewayResponseEvent
  event.status = status
  event.latencyMs = now - exchange.started
  event.firstByteMs = (exchange.headAt ?? now) - exchange.started
  event.warnings = exchange.warnings.length
  if (exchange.usage) event.usage = exchange.usage
  if (exchange.error) event.error = exchange.error
  if (exchange.refused) event.refused = exchange.refused
  return event
}

/**
 * Hands the answer's event to `options.onResponse` (set): now for a whole answer or an error, when a streamed body
 * ends or the client leaves (the body is wrapped to see it).
 */
export function reportResponse(exchange: Exchange, result: ExchangeResult, options: GatewayOptions): void {
  const now = Date.now()
  exchange.headAt = now
  const body = result.body
  if (!isChunkSource(body) || result.status >= 400) {
    // A whole answer: its first byte is its end — one clock reading, so the two never differ by a tick.
    options.onResponse?.(responseEvent(exchange, result.status, now))
    return
  }
  result.body = observe(body, () => options.onResponse?.(responseEvent(exchange, result.status, Date.now())))
}
