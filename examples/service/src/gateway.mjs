/**
 * The service's gateway: the library's `createGateway` with the service's keys (`authenticate` → the key's caller, from
 * the in-memory key cache), per-key rate limits (leased blocks), usage recorded from `onResponse`, and the shared
 * conversation stores. Served through `toNodeListener` (the library's Node fast path), not through the console's Hono
 * app: see `createListener`.
 */
import { getRequestListener } from '@hono/node-server'
import { createGateway, refuse } from 'interlingua/gateway'
import { toNodeListener } from 'interlingua/node'

/**
 * @param {{ gatewayOptions: object, keys: ReturnType<typeof import('./keys.mjs').createKeyCache>,
 *   limiter: ReturnType<typeof import('./limits.mjs').createLimiter>, usage: ReturnType<typeof import('./usage.mjs').createUsage>,
 *   responseStore?: object, reasoningStore?: object, observe?: { request?: Function, response?: Function } }} parts
 */
export function createServiceGateway({ gatewayOptions, keys, limiter, usage, responseStore, reasoningStore, observe }) {
  const overLimit = (retryAfter) => refuse('rate-limit', { retryAfter, message: 'This key is over its rate limit' })
  /** A valid key's record → its caller, unless over its rate limit (sync while the instance holds allowances). */
  const admit = (record) => {
    if (!record) return false
    const wait = limiter.take(record)
    if (wait === 0) return record.caller
    if (typeof wait === 'number') return overLimit(wait)
    return wait.then((seconds) => (seconds === 0 ? record.caller : overLimit(seconds)))
  }
  return createGateway({
    ...gatewayOptions,
    ...(responseStore ? { responseStore } : {}),
    ...(reasoningStore ? { reasoningStore } : {}),
    /**
     * The key (from Bearer, x-api-key, x-goog-api-key or ?key=) → its caller: the key's row id, its account and its
     * model allow-list, which the gateway enforces (403) and applies to model listings. Unknown, revoked or expired
     * keys are 401; a key over its rate limit is a 429 with retry-after — each in the client's format.
     */
    authenticate(presented) {
      if (!presented.startsWith('il-')) return false
      const record = keys.lookup(presented)
      return record instanceof Promise ? record.then(admit) : admit(record)
    },
    ...(observe?.request ? { onRequest: observe.request } : {}),
    // Once per request, when its answer (a stream included) has ended, with the caller and the usage.
    onResponse(event) {
      const caller = event.caller
      if (caller) usage.record(caller, event)
      observe?.response?.(event)
      if (!caller) return
      const used = event.usage
      if (used) limiter.spend(caller, (used.inputTokens ?? 0) + (used.outputTokens ?? 0))
    },
  })
}

const apiPath = /^\/v1(?:beta|alpha)?(?:[/?]|$)/

/**
 * The service's `node:http` listener: `/v1/…`, `/v1beta/…` and `/v1alpha/…` go straight to the gateway's Node fast path
 * (no Fetch `Request`/`Response` per request, nothing wrapped: the hooks' events carry the timings), `/healthz`,
 * `/readyz` and `/metrics` to the operations endpoints, everything else to the console (Hono through @hono/node-server).
 */
export function createListener({ gateway, console: app, ops }) {
  const api = toNodeListener(gateway)
  const web = getRequestListener(app.fetch)
  return (req, res) => {
    if (apiPath.test(req.url ?? '/')) return api(req, res)
    if (!ops?.handle(req, res)) web(req, res)
  }
}
