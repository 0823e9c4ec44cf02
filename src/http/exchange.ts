/**
 * The gateway's internal exchange (issue 11): the core works on a minimal request and answers a minimal result, so
 * the Node adapter can drive it straight from `IncomingMessage` to `ServerResponse`; `gateway.fetch` wraps it in Web
 * objects at the edge. This is the one place where bytes for the client are produced (`ExchangeResult.body`).
 */
import type { RouteRequest } from '../formats/format.js'
import type { UpstreamTransport } from './upstream.js'

/** What the core reads of a request. */
export interface ExchangeRequest {
  readonly method: string
  /** The path, without the query. */
  readonly path: string
  /** The query string without `?` (`''` when there is none). */
  readonly query: string
  /** A header by lower-case name. */
  header(name: string): string | null
  /** The body as text; `undefined` when it is larger than `maxBytes`. */
  text(maxBytes: number): Promise<string | undefined>
  /** Calls `listener` once if the client goes away before the answer ended; returns the unsubscribe. */
  onClose(listener: () => void): () => void
  /** A Web `Request` for hooks that take one (`authenticate`, `resolveModel`), built on first use. */
  toRequest(): Request
}

/** A body produced chunk by chunk. `next` never rejects (failures are already in-stream error frames). */
export interface ChunkSource {
  /** The next chunk (frames ready together, coalesced); `undefined` at the end. */
  next(): Promise<string | Uint8Array | undefined>
  /** The client went away: stop, and abort the upstream. */
  cancel(): void
}

export interface ExchangeResult {
  status: number
  /** Lower-case names. */
  headers: Record<string, string>
  body: string | Uint8Array | ChunkSource | null
}

/** Per-serving-runtime choices the edge passes to the core. */
export interface ExchangeRuntime {
  /** The upstream transport when the gateway has no `fetch` option (the Node adapter passes `node:http`'s). */
  transport?: UpstreamTransport
  /**
   * The fetch for media when neither `media.fetch` nor `fetch` is configured and `media.allowPrivate` is off (the Node
   * adapter passes `createNodeMediaFetch()`, which checks the address each name resolves to).
   */
  mediaFetch?: typeof fetch
  /**
   * Whether a timer may outlive the request that set it (Node): the upstream timeouts then share one timer per gateway
   * instead of one per request.
   */
  sharedTimers?: boolean
}

/** The symbol under which a gateway exposes its exchange handler to the Node adapter. */
export const exchangeHandler: unique symbol = Symbol.for('interlingua.exchange') as never

export type ExchangeHandler = (request: ExchangeRequest, runtime?: ExchangeRuntime) => Promise<ExchangeResult>

export function isChunkSource(body: ExchangeResult['body']): body is ChunkSource {
  return typeof body === 'object' && body !== null && !(body instanceof Uint8Array)
}

/**
 * The routing view of a request (`matchRoute`, client-format guess): one object that is its own `url` and `headers`.
 * A class, not an object literal with a getter: a literal's per-call getter closure gets a hidden class of its own in
 * old space, which keeps the request it closes over alive through every young-generation collection (issue 11: the
 * gateway's GC time was 3× the floor's from this alone).
 */
class RouteView implements RouteRequest {
  readonly method: string
  readonly url: this
  readonly headers: this
  private params: URLSearchParams | undefined

  constructor(
    private readonly request: ExchangeRequest,
    readonly pathname: string,
  ) {
    this.method = request.method
    this.url = this
    this.headers = this
  }

  /** Parsed only when a route reads the query (content-generation's `alt` and `key`). */
  get searchParams(): URLSearchParams {
    this.params ??= new URLSearchParams(this.request.query)
    return this.params
  }

  get(name: string): string | null {
    return this.request.header(name.toLowerCase())
  }

  has(name: string): boolean {
    return this.request.header(name.toLowerCase()) !== null
  }
}

/** The routing view of a request (`matchRoute`, client-format guess). */
export function routeRequestOf(request: ExchangeRequest, path = request.path): RouteRequest {
  return new RouteView(request, path)
}

/** A Web `Request` as an exchange request. */
export function exchangeOfRequest(request: Request): ExchangeRequest {
  const url = request.url
  const scheme = url.indexOf('//')
  const pathStart = url.indexOf('/', scheme < 0 ? 0 : scheme + 2)
  const queryStart = url.indexOf('?', pathStart)
  const hashStart = url.indexOf('#', pathStart)
  const end = hashStart < 0 ? url.length : hashStart
  const path = pathStart < 0 ? '/' : url.slice(pathStart, queryStart < 0 ? end : queryStart)
  const query = queryStart < 0 ? '' : url.slice(queryStart + 1, end)
  return {
    method: request.method,
    path,
    query,
    header: (name) => request.headers.get(name),
    text: (maxBytes) => readRequestText(request, maxBytes),
    onClose(listener) {
      const signal = request.signal
      if (signal.aborted) {
        listener()
        return () => {}
      }
      signal.addEventListener('abort', listener, { once: true })
      return () => signal.removeEventListener('abort', listener)
    },
    toRequest: () => request,
  }
}

/** Reads a Web request's body as text; `undefined` when it is larger than `maxBytes`. */
async function readRequestText(request: Request, maxBytes: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > maxBytes) return undefined
  if (!request.body) return ''
  const reader = request.body.getReader()
  const decoder = new TextDecoder()
  let size = 0
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    text += decoder.decode(value, { stream: true })
  }
  return text + decoder.decode()
}

/** A chunk source as a pull-based byte stream; cancelling it cancels the source. */
export function streamOfSource(source: ChunkSource): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = await source.next()
        if (chunk === undefined) controller.close()
        else controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)
      },
      cancel() {
        source.cancel()
      },
    },
    { highWaterMark: 0 },
  )
}

/** An exchange result as a Web `Response`. */
export function responseOfResult(result: ExchangeResult): Response {
  const body = result.body
  const init = { status: result.status, headers: result.headers }
  if (body === null || typeof body === 'string') return new Response(body, init)
  if (body instanceof Uint8Array) return new Response(body as Uint8Array<ArrayBuffer>, init)
  return new Response(streamOfSource(body), init)
}

/** Calls `onEnd` once when a streamed body ends or the client leaves (then the source is cancelled). */
export function observe(source: ChunkSource, onEnd: () => void): ChunkSource {
  let ended = false
  const end = () => {
    if (ended) return
    ended = true
    onEnd()
  }
  const check = (chunk: string | Uint8Array | undefined) => {
    if (chunk === undefined) end()
    return chunk
  }
  return {
    // One `then` per chunk, not an async frame around the source's.
    next: () => source.next().then(check),
    cancel() {
      source.cancel()
      end()
    },
  }
}
