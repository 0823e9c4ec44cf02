/**
 * `createGateway(options)`: one Fetch handler serving all three wire formats (issue 4). It routes by each format's
 * `matchRoute` (registry order), authenticates the client's key, resolves the model to an upstream, and forwards:
 * same format → passthrough (policy 1), other pairs → the codecs and stream transducers, no upstream → the embedded
 * mock model. Every error reaches the client in its own format (policy 9).
 *
 * @example
 * const gateway = createGateway({ upstreams: { openai: { format: 'chat-completions', baseURL: 'https://api.openai.com/v1', apiKey } } })
 * export const POST = gateway.fetch
 */

import {
  type ExchangeHandler,
  type ExchangeRuntime,
  exchangeHandler,
  exchangeOfRequest,
  responseOfResult,
} from '../http/exchange.js'
import { fetchTransport } from '../http/upstream.js'
import { DeadlineList } from './deadlines.js'
import { defaultTimeoutMs } from './forward.js'
import { createMediaFetcher, type MediaFetcher } from './media.js'
import { createMockModel } from './mock-model.js'
import type { GatewayOptions } from './options.js'
import { createReasoningStore } from './reasoning-store.js'
import { RequestFlow } from './request-flow.js'
import { responseStoreOf } from './response-store.js'
import { validateOptions } from './routing.js'

export { refuse } from './auth.js'
export type { Exchange } from './exchange-state.js'

/** The gateway: a bound Fetch handler (and, for `interlingua/node`, its exchange handler under a symbol). */
export interface Gateway {
  /**
   * Answers one request. Takes a `Request` as every runtime passes it (Workers, Bun, Deno, Next, Hono), or a URL and
   * `init` as the global `fetch` does (`gateway.fetch('http://localhost/v1/chat/completions', { method: 'POST', body })`;
   * a path alone is read against `http://localhost`, as Hono's `app.request` does). With a `Request` the second
   * argument is ignored: the runtimes pass their own things there (Workers `env`, Bun's server, Deno's info, Next's
   * route context), never a `RequestInit`.
   */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>
  /** @internal The Web-free entry the Node adapter drives (see `http/exchange.ts`). */
  readonly [exchangeHandler]: ExchangeHandler
}

const defaultMaxBodyBytes = 32 * 1024 * 1024

/** The `Request` a Fetch-style call means: itself, or one built from a URL (a bare path against localhost) and `init`. */
function requestOf(input: Request | string | URL, init: RequestInit | undefined): Request {
  // Duck-typed: a `Request` of another realm (undici's, a framework's subclass) is still a request.
  if (typeof input === 'object' && 'method' in input && 'headers' in input) return input
  const url = typeof input === 'string' && input.startsWith('/') ? `http://localhost${input}` : input
  return new Request(url, init)
}

/** Creates the gateway. Throws a TypeError when the configuration is inconsistent (a route to an unknown upstream). */
export function createGateway(options: GatewayOptions = {}): Gateway {
  validateOptions(options)
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const defaultTransport = fetchTransport(doFetch)
  const fetchMedia = createMediaFetcher(options.media, doFetch)
  const ownMediaFetch = options.fetch !== undefined || options.media?.fetch !== undefined || options.media?.allowPrivate
  let runtimeMedia: MediaFetcher | undefined
  /** The runtime's media fetch (Node: DNS-checked) unless the options choose one. */
  const mediaFetcherFor = (runtime: ExchangeRuntime | undefined): MediaFetcher => {
    if (ownMediaFetch || !runtime?.mediaFetch) return fetchMedia
    runtimeMedia ??= createMediaFetcher(options.media, runtime.mediaFetch)
    return runtimeMedia
  }
  const flow = new RequestFlow({
    options,
    defaultTransport,
    mediaFetcherFor,
    mock: createMockModel(),
    reasoningStore: options.reasoningStore === false ? undefined : createReasoningStore(options.reasoningStore),
    responseStore: responseStoreOf(options.responseStore),
    maxBodyBytes: options.maxBodyBytes ?? defaultMaxBodyBytes,
    authRequired: (options.apiKeys?.length ?? 0) > 0 || options.authenticate !== undefined,
    timeouts: new DeadlineList(options.timeoutMs ?? defaultTimeoutMs),
  })
  const handle: ExchangeHandler = flow.handle.bind(flow)

  const fetchHandler = async (input: Request | string | URL, init?: RequestInit) =>
    responseOfResult(await handle(exchangeOfRequest(requestOf(input, init))))
  // `toNodeListener(gateway.fetch)` finds the fast path too.
  Object.defineProperty(fetchHandler, exchangeHandler, { value: handle })
  return { fetch: fetchHandler, [exchangeHandler]: handle }
}
