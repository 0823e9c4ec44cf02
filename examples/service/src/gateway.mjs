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
 * The service's gateway and `settle()`, which does the bookkeeping of the answers that ended since the last batch now
 * (before a usage page, a scrape of /metrics, a shutdown).
 *
 * The bookkeeping of an answer — its usage and request-log entry, metrics, log line and span — is done in batches,
 * `settleMs` (5 ms) after the first answer of a batch, not in `onResponse`: each handler runs over a batch of events in
 * a row, while its code and maps are in the processor's caches. Done one answer at a time, between two requests'
 * parsing and writing, the same work cost ~4 µs a request instead of ~2.5, and the bench showed it twice over
 * (0.73–0.74× the CLI gateway’s requests a second against 0.81–0.86× batched: `npm run bench`, `bench/run.mjs`). Each
 * event keeps the time its answer ended, so times, days and spans are the answer's own. A key's tokens are taken from
 * its rate-limit block at once (the next request must see them).
 * @param {{ gatewayOptions: object, keys: ReturnType<typeof import('./keys.mjs').createKeyCache>,
 *   limiter: ReturnType<typeof import('./limits.mjs').createLimiter>, usage: ReturnType<typeof import('./usage.mjs').createUsage>,
 *   responseStore?: object, reasoningStore?: object, observe?: { request?: Function, response?: Function },
 *   settleMs?: number }} parts
 */
export function createServiceGateway({
  gatewayOptions,
  keys,
  limiter,
  usage,
  responseStore,
  reasoningStore,
  observe,
  settleMs = 5,
}) {
  const overLimit = (retryAfter) => refuse('rate-limit', { retryAfter, message: 'This key is over its rate limit' })
  /** A valid key's record → its caller, unless over its rate limit (sync while the instance holds allowances). */
  const admit = (record) => {
    if (!record) return false
    const wait = limiter.take(record)
    if (wait === 0) return record.caller
    if (typeof wait === 'number') return overLimit(wait)
    return wait.then((seconds) => (seconds === 0 ? record.caller : overLimit(seconds)))
  }
  const answers = batches(
    (event, end) => {
      if (event.caller) usage.record(event.caller, event, end)
      observe?.response?.(event, end)
    },
    () => {
      usage.settled?.()
      observe?.settled?.()
    },
    settleMs,
  )
  const gateway = createGateway({
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
      const used = event.usage
      if (caller && used) limiter.spend(caller, (used.inputTokens ?? 0) + (used.outputTokens ?? 0))
      answers.add(event)
    },
  })
  return { gateway, settle: answers.settle }
}

/**
 * Events handled in batches: `add(event)` keeps it with the time (ms) it was added; `handle(event, time)` runs for each,
 * in order, `delayMs` after the first of a batch or at `settle()`, then `done()`. A handler's error is logged; the
 * batch goes on.
 */
function batches(handle, done, delayMs) {
  let events = []
  let times = []
  let timer
  function settle() {
    clearTimeout(timer)
    timer = undefined
    const batch = events
    const at = times
    events = []
    times = []
    for (let i = 0; i < batch.length; i++) {
      try {
        handle(batch[i], at[i])
      } catch (error) {
        console.error('[service] bookkeeping of an answer failed:', error)
      }
    }
    done()
  }
  return {
    add(event) {
      events.push(event)
      times.push(Date.now())
      if (timer === undefined) {
        timer = setTimeout(settle, delayMs)
        timer.unref()
      }
    },
    settle,
  }
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
