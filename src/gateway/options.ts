/** The gateway's options (issue 4). Every field is optional: `createGateway()` serves the embedded mock model. */
import type { FormatId, WireFormatId } from '../formats/format.js'
import type * as ir from '../ir/index.js'
import type { ProviderId, ProviderOptions } from '../providers/provider.js'
import type { ReasoningStoreOptions } from './reasoning-store.js'
import type { MemoryResponseStoreOptions, ResponseStore } from './response-store.js'

/**
 * An upstream service. `format: 'mock'` is the embedded mock model (no key, no network); every other format needs
 * `baseURL`, which means what it means for that format's official SDK (OpenAI `…/v1`; Anthropic and Gemini without
 * a version) — unless a `provider` says where requests go (Azure OpenAI, Vertex AI, Amazon Bedrock: see `provider`). The provider
 * fields (`deployment`, `project`, `location`, `region`, `auth`) are `ProviderOptions`'.
 */
export interface UpstreamOptions extends ProviderOptions {
  /** `'converse'` (Amazon Bedrock's Converse API) is spoken only to upstreams, and only with `provider: 'bedrock'`. */
  format: WireFormatId | 'mock'
  /**
   * The cloud that serves this upstream, when it is not the format's first-party API: `'azure'` (Azure OpenAI,
   * chat-completions or responses), `'vertex'` (Google Vertex AI: content-generation for Gemini, messages for
   * Claude) or `'bedrock'` (Amazon Bedrock: messages for Claude through InvokeModel, converse for any model). The
   * format still says what the wire looks like; the provider says where it goes and how it is
   * authenticated. @defaultValue first-party
   */
  provider?: ProviderId
  /** Required unless `format` is `'mock'` or the provider has a default origin (Vertex AI, Bedrock); Azure: the resource endpoint. */
  baseURL?: string
  /** The upstream's own key, sent in its format's auth header (Azure: `api-key`; Bedrock: an API key, as Bearer). The client's key is never forwarded. */
  apiKey?: string
  /**
   * Extra headers sent upstream (set after the auth header, so they may override it): an object, or a function
   * (sync or async) called before each upstream call — a corporate proxy's token plugs in there.
   */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>)
  /** content-generation: the API version path segment (`'v1beta'` by default). Azure: the classic API's `api-version`. */
  apiVersion?: string
}

/** Where a public model id goes: an upstream name and, optionally, the upstream's own model id. */
export interface ModelRoute {
  upstream: string
  /** The model id sent upstream. @defaultValue the public id */
  model?: string
}

/**
 * Who is calling: what `authenticate` returned for the client's key, handed to `resolveModel` and the events. The
 * gateway never puts the key in it; put in what your hooks need (an account id, a plan), never the key itself.
 */
export interface Caller {
  /** A stable id (an account, a key's row id): what usage is recorded under. */
  id: string
  /**
   * Public model ids this caller may use. A model outside the list is refused with a 403 in the client's format, and
   * model listings show only these. @defaultValue every model
   */
  models?: readonly string[]
  /** Reserved: an object with `refuse` is a `Refusal`. */
  refuse?: never
  /** Anything else your hooks need (a plan, a tenant, a rate-limit bucket). */
  [field: string]: unknown
}

/**
 * `authenticate`'s way to turn a caller away deliberately, answered in the client's format: `'authentication'` → 401
 * (unknown, revoked or expired key), `'permission'` → 403 (a known key that may not use the gateway),
 * `'rate-limit'` → 429 with `retry-after` when `retryAfter` is given. Build one with `refuse()` or write it literally.
 */
export interface Refusal {
  refuse: 'authentication' | 'permission' | 'rate-limit'
  /** The error message the client sees (no key, nothing secret). @defaultValue a generic one per reason */
  message?: string
  /** Seconds until a retry may succeed: the `retry-after` header (and Gemini's `RetryInfo`). */
  retryAfter?: number
}

/** What `authenticate` may answer: `true` (accepted, no caller), `false` (401), a `Caller`, or a `Refusal`. */
export type AuthenticateResult = boolean | Caller | Refusal

/** Context passed to `resolveModel` and `authenticate`. */
export interface GatewayContext {
  /** The client's wire format. */
  format: FormatId
  request: Request
  /** The caller `authenticate` returned (`resolveModel` only). */
  caller?: Caller
}

/** Media fetching for http(s) image URLs that the upstream's format needs inline (policy 8). */
export interface MediaOptions {
  /** The fetch used for media. @defaultValue the gateway's `fetch` */
  fetch?: typeof fetch
  /** Largest media body accepted. @defaultValue 10 MiB */
  maxBytes?: number
  /** @defaultValue 10000 */
  timeoutMs?: number
  /** Hosts that may be fetched (`example.com` or `*.example.com`). @defaultValue any public host */
  allowHosts?: string[]
  /** Allow `localhost`, loopback, private and link-local addresses. @defaultValue false */
  allowPrivate?: boolean
  /** Media URLs fetched per request; more → 400 naming the first one over. @defaultValue 32 */
  maxCount?: number
  /** Bytes fetched per request, all media together (Gemini's inline-request limit); more → 400. @defaultValue 20 MiB */
  maxTotalBytes?: number
  /** Media fetches in flight at once per request. @defaultValue 4 */
  concurrency?: number
}

/** What `onRequest` receives. Never contains keys. */
export interface GatewayRequestEvent {
  requestId: string
  format: FormatId
  kind: 'generate' | 'count-tokens' | 'list-models' | 'get-model' | 'get-response'
  /** The public model id the client named. */
  model?: string
  /** The upstream name (`'mock'` for the embedded mock model). */
  upstream?: string
  /** The model id sent upstream. */
  upstreamModel?: string
  stream?: boolean
  /** The caller `authenticate` returned for this request's key (absent for `true`, `apiKeys` and open gateways). */
  caller?: Caller
}

/** What `onResponse` receives. Fired once per request; for streams, when the stream ends. Never contains keys. */
export interface GatewayResponseEvent extends GatewayRequestEvent {
  status: number
  /** Milliseconds from the request to the end of its answer (a stream's last chunk). */
  latencyMs: number
  /**
   * Milliseconds from the request to its answer's status and headers: a stream's start (before its first chunk); for a
   * whole answer, written at once, the same as `latencyMs`.
   */
  firstByteMs: number
  usage?: ir.Usage
  /** The error code when the answer was an error (HTTP or in-stream). */
  error?: ir.ErrorCode
  /**
   * Set when the gateway turned the key away before routing: `'authentication'` (401: no key, a key not in `apiKeys`,
   * `authenticate` answered `false` or `refuse('authentication')`), `'permission'` (403, `refuse('permission')`) or
   * `'rate-limit'` (429, `refuse('rate-limit')`). `error` is the same code and `status` the answer's. A refused event
   * never has a `caller`, `upstream` or `usage` (nothing was sent upstream, `onRequest` was not called); `model` only
   * when the path names it (content-generation). An upstream's own 401/403/429, or a model outside `caller.models`
   * (403 with the `caller`), has no `refused`.
   */
  refused?: Refusal['refuse']
  warnings: number
}

export interface GatewayOptions {
  /**
   * Stores Responses answers so `previous_response_id`, `item_reference` (the Vercel AI SDK's default, `store` left at
   * true) and `GET /v1/responses/{id}` work in front of upstreams of other formats, scoped by the `Caller.id`
   * `authenticate` returned (every key of one caller sees its responses; callers sharing a key do not see each
   * other's), else by a hash of the client's key. On by default: a bounded in-memory store per process (1000
   * responses, 64 MiB as JSON text, 1 hour — tune it by passing `MemoryResponseStoreOptions`). Several instances share
   * any implementation of the `ResponseStore` interface (or route each client to one instance). `false` makes the
   * gateway stateless: those requests are answered with a 400 (the GET with a 404). A Responses upstream keeps its own
   * state either way (passthrough). @defaultValue `{ maxResponses: 1000, maxBytes: 64 MiB, ttlMs: 3600000 }`
   */
  responseStore?: ResponseStore | MemoryResponseStoreOptions | false
  /** Public model id → upstream. Checked before `resolveModel`. @defaultValue `{}` */
  models?: Record<string, ModelRoute>
  /** Routes a model id not found in `models`; `undefined` means unknown (404). @defaultValue none */
  resolveModel?: (model: string, context: GatewayContext) => ModelRoute | undefined
  /**
   * Model ids the model listings (`GET /v1/models` of every format) show besides `models`' — ids `resolveModel`
   * routes (the CLI's `azure/<deployment>`, `vertex/<model>`, `bedrock/<modelId>`). @defaultValue none
   */
  listedModels?: readonly string[]
  /**
   * Upstreams by name. With none configured, the embedded mock model serves every model; with exactly one and no
   * `models`/`resolveModel`, that one serves every model. @defaultValue `{}`
   */
  upstreams?: Record<string, UpstreamOptions>
  /** Client keys accepted (compared in constant time). @defaultValue none: any key is accepted */
  apiKeys?: string[]
  /**
   * Custom key check (sync or async), called when the key is not in `apiKeys`. `true` accepts, `false` is a 401; a
   * `Caller` accepts and identifies the caller (its `models` allow-list is enforced, and it reaches `resolveModel`
   * and every event); a `Refusal` (`refuse()`) answers 401, 403 or 429 with `retry-after`. @defaultValue none
   */
  authenticate?: (key: string, context: GatewayContext) => AuthenticateResult | Promise<AuthenticateResult>
  /** The fetch used to reach upstreams. @defaultValue `globalThis.fetch` */
  fetch?: typeof fetch
  /** Time allowed for an upstream to answer (headers, and the body of a non-streaming answer) → 504. @defaultValue 600000 */
  timeoutMs?: number
  /**
   * Longest wait between two chunks of a streamed upstream answer, before the first one too → the client format's
   * in-stream timeout error (504 when nothing was sent yet). @defaultValue 300000
   */
  idleTimeoutMs?: number
  /** Largest request body accepted → 413. @defaultValue 32 MiB */
  maxBodyBytes?: number
  /**
   * Largest upstream answer read whole into memory (non-streaming JSON and error bodies; streams are never buffered)
   * → 502 in the client's format. @defaultValue 64 MiB
   */
  maxResponseBytes?: number
  /** `max_tokens` sent to messages upstreams when the client gave none. @defaultValue 4096 */
  defaultMaxTokens?: number
  /** Refuse (400 `unsupported-feature`) any request whose translation would drop or approximate something. @defaultValue false */
  strict?: boolean
  /** Receives every conversion warning. @defaultValue none */
  onWarning?: (warning: ir.Warning, event: GatewayRequestEvent) => void
  /** Observability: a request was routed. @defaultValue none */
  onRequest?: (event: GatewayRequestEvent) => void
  /**
   * Observability: a response finished (status, usage, latency). Fired once for every request that matched a route,
   * refused ones included: those carry `refused` (the reason) and no `caller` (see `GatewayResponseEvent.refused`).
   * A request matching no route (404 `Invalid URL`) is not reported. @defaultValue none
   */
  onResponse?: (event: GatewayResponseEvent) => void
  /** Media fetching for image URLs sent to content-generation upstreams. @defaultValue see `MediaOptions` */
  media?: MediaOptions
  /**
   * Extra upstream response headers a passthrough answer relays (lower-case names). Beyond these only `content-type`,
   * `cache-control`, rate-limit and retry hints and OpenAI's `openai-processing-ms`/`openai-version` are relayed —
   * never `set-cookie` or account ids. @defaultValue none
   */
  relayHeaders?: string[]
  /** A path prefix the gateway is mounted under (routes also match by suffix). @defaultValue `''` */
  basePath?: string
  /**
   * Reasoning continuity for chat-completions clients that drop `reasoning_details` (Vercel AI SDK, LangChain,
   * Agents SDK): the reasoning of each answer that called tools is kept in memory, per caller (`Caller.id`, else per
   * client key, hashed), by tool-call id, and put back on the next turn (policy 3). `false` turns it off.
   * @defaultValue `{ maxEntries: 10000, ttlMs: 3600000 }`
   */
  reasoningStore?: ReasoningStoreOptions | false
}
