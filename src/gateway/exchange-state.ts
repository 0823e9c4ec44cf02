/**
 * What one request carries through the gateway's flow (request-flow.ts, forward.ts): the exchange's state, the
 * context hooks receive, and the scope the response and reasoning stores key its entries by.
 */
import type { GatewayFormat, RouteMatch } from '../formats/format.js'
import type { ExchangeRequest } from '../http/exchange.js'
import type { UpstreamTransport } from '../http/upstream.js'
import type * as ir from '../ir/index.js'
import { extractKey } from './auth.js'
import type { DeadlineList } from './deadlines.js'
import type { MediaFetcher } from './media.js'
import type { Caller, GatewayContext, GatewayRequestEvent, Refusal } from './options.js'

/** Everything one request carries through the handler. */
export interface Exchange {
  request: ExchangeRequest
  format: GatewayFormat
  route: RouteMatch
  event: GatewayRequestEvent
  /** The answer's headers (lower-case names). */
  headers: Record<string, string>
  warnings: ir.Warning[]
  started: number
  /** When the answer's status and headers were handed to the runtime (`Date.now()`), once they were. */
  headAt?: number
  /** How upstreams are reached for this request. */
  transport: UpstreamTransport
  /** How media URLs are fetched for this request. */
  fetchMedia: MediaFetcher
  /** The upstream timeouts' shared timer, when the runtime allows one (else a timer per request). */
  timeouts?: DeadlineList | undefined
  usage?: ir.Usage
  error?: ir.ErrorCode
  /** What `authenticate` returned for the client's key, when it named a caller. */
  caller?: Caller
  /** Why the key was turned away, when it was (reported to `onResponse`). */
  refused?: Refusal['refuse']
}

/**
 * The context hooks receive; the Web `Request` is built only if a hook reads it. A class, not an object literal with a
 * getter: a literal's per-call getter gets a hidden class of its own in old space, which keeps the whole request alive
 * through young-generation collections (see `RouteView` in exchange.ts).
 */
export class HookContext implements GatewayContext {
  readonly format: GatewayContext['format']
  caller?: Caller
  readonly #request: ExchangeRequest

  constructor(exchange: Exchange) {
    this.format = exchange.format.id
    this.#request = exchange.request
    if (exchange.caller) this.caller = exchange.caller
  }

  get request(): Request {
    return this.#request.toRequest()
  }
}

/** FNV-1a of a client key: a map scope that does not keep the key itself. */
function scopeOf(key: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  return (h >>> 0).toString(36) + key.length.toString(36)
}

/**
 * The store scope of a request (response and reasoning stores): the caller `authenticate` named, so every key of one
 * account shares it and one key serving several callers does not; else a hash of the client's key. A key's hash has no
 * `:`, so the two kinds never meet.
 */
export function storeScope(exchange: Exchange): string {
  if (exchange.caller) return `caller:${exchange.caller.id}`
  return scopeOf(extractKey(exchange.request) ?? '')
}
