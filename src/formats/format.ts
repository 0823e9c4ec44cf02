import type * as ir from '../ir/index.js'
import type {
  EncodeResponseOptions,
  EncodeStreamOptions,
  SseFrame,
  SseMessage,
  StreamCodec,
} from '../stream/contract.js'
import type { StreamStep } from '../stream/step.js'

export type { FormatId, UpstreamOnlyFormatId, WireFormatId } from '../ir/format-id.js'
export type { EncodeResponseOptions, EncodeStreamOptions, SseFrame, SseMessage } from '../stream/contract.js'

/** What every converter returns: the value plus anything it had to drop or approximate (policy 2). */
export interface Converted<T> {
  value: T
  warnings: ir.Warning[]
}

/** Sees a forwarded (passthrough) stream's chunks — whole SSE events — and writes its in-stream error frames. */
export interface ForwardedStreamWatcher {
  chunk(chunk: string | Uint8Array): void
  encodeError(error: ir.ErrorInfo): SseFrame[]
}

/** What the gateway serves on a route of this format. */
export type RouteKind = 'generate' | 'count-tokens' | 'list-models' | 'get-model' | 'get-response'

/** An inbound route this format answers. `model`/`stream` come from the path for content-generation. */
export interface RouteMatch {
  kind: RouteKind
  model?: string
  stream?: boolean
  /** `get-response`: the stored response's id (Responses `GET /v1/responses/{id}`). */
  id?: string
  /** content-generation `:streamGenerateContent` without `alt=sse` answers with a JSON array. */
  streamJsonArray?: boolean
}

/** What `matchRoute` reads: method, the URL's path and query, and header lookups (a `URL` and `Headers` fit). */
export interface RouteRequest {
  method: string
  url: Pick<URL, 'pathname' | 'searchParams'>
  headers: Pick<Headers, 'get' | 'has'>
}

/** An upstream of this format, as the gateway is configured with it. */
export interface UpstreamConfig {
  /** Means what it means for this format's official SDK: OpenAI `…/v1`, Anthropic and Gemini without a version. */
  baseURL: string
  apiKey?: string
  headers?: Record<string, string>
  /** content-generation: the API version path segment. @defaultValue `'v1beta'` */
  apiVersion?: string
}

export interface EncodeRequestOptions {
  /** messages requires `max_tokens`; this fills it when the source had none. @defaultValue 4096 */
  defaultMaxTokens?: number
  /** content-generation schema dialect. @defaultValue `'json-schema'` (`parametersJsonSchema` / `responseJsonSchema`) */
  schemaDialect?: 'json-schema' | 'openapi'
}

/** A model entry for listings. */
export interface ModelInfo {
  id: string
  displayName?: string
  /** Epoch seconds. */
  created?: number
  ownedBy?: string
}

/**
 * The contract every wire format implements (DESIGN §2): its codec. A format is one folder under
 * `src/formats/<id>/` whose `index.ts` exports a `const x: Format` (what `interlingua` exports) and whose `gateway.ts`
 * exports a `FormatGateway` (what only `interlingua/gateway` needs: routes, upstream target, model listing…, kept out
 * of the main entry's bundle); if it compiles, the folder implements the contract. Directions: `decode*` is wire → IR,
 * `encode*` is IR → wire. An upstream-only format (`converse`: `Format<'converse'>`) has the same folder but is in
 * neither registry: the gateway loads it when an upstream names it. Its stream "SSE messages" are the decoded frames
 * of its binary event stream: `event` is the frame's event (or exception) type, `data` its JSON payload.
 */
export interface Format<Id extends ir.WireFormatId = ir.FormatId> extends StreamCodec {
  readonly id: Id

  /** Validates and decodes a request body. Throws `InterlinguaError('invalid-request')` naming the JSON path. */
  decodeRequest(body: unknown, route?: Partial<RouteMatch>): Converted<ir.Request>
  /**
   * Validates a request body exactly as `decodeRequest` does (the same errors) without building the IR: what a
   * same-format conversion needs. Optional: without it `decodeRequest` validates.
   */
  validateRequest?(body: unknown, route?: Partial<RouteMatch>): void
  encodeRequest(request: ir.Request, options?: EncodeRequestOptions): Converted<unknown>

  /** Validates and decodes a response body (throws `invalid-request` on a malformed body). */
  decodeResponse(body: unknown): Converted<ir.Response>
  encodeResponse(response: ir.Response, options?: EncodeResponseOptions): Converted<unknown>

  /** `decodeStreamStep` as a `TransformStream` (the public Web API). */
  createDecodeStream(): TransformStream<SseMessage, ir.StreamEvent>
  /** `encodeStreamStep` as a `TransformStream` (the public Web API). */
  createEncodeStream(options?: EncodeStreamOptions): TransformStream<ir.StreamEvent, SseFrame>
  /**
   * A same-format stream (`convertStream` with `from === to`): each message validated, then forwarded as it came (SSE
   * text), and at the first error this format's in-stream error tail. Optional: without it the decoder validates and
   * the encoder writes the error (`stream/forward.ts`); responses continues the upstream's sequence numbers instead.
   */
  forwardStreamStep?(): StreamStep<SseMessage, string>

  /** An error body (HTTP or in-stream) → IR. Total: never throws, whatever the body. */
  decodeError(status: number, body: unknown): ir.ErrorInfo
  /** IR → the status and body this format's official SDK understands. */
  encodeError(error: ir.ErrorInfo): { status: number; body: unknown }
}

/**
 * The gateway's part of a format (`src/formats/<id>/gateway.ts`): what serving it over HTTP takes beyond the codec.
 * Only `interlingua/gateway` imports it, so code that only converts does not ship it.
 */
export interface FormatGateway {
  /** Inbound routing: `undefined` means "not mine". Pure. */
  matchRoute(request: RouteRequest): RouteMatch | undefined
  /** Outbound: URL and headers (auth, version, content type) for sending a request of this format upstream. */
  upstreamTarget(
    model: string,
    kind: 'generate' | 'count-tokens',
    stream: boolean,
    upstream: UpstreamConfig,
  ): { url: string; headers: Headers }

  /**
   * The in-stream error frames written after bytes this encoder did not produce (a passthrough stream whose upstream
   * failed). Optional: without it the error body is written as one `data:` frame (`event: error` for messages).
   */
  encodeStreamError?(error: ir.ErrorInfo): SseFrame[]
  /**
   * For a stream whose error tail depends on what was forwarded (a Responses `response.failed` lists the items
   * completed so far, with the next `sequence_number`): a watcher the gateway shows every forwarded chunk, and that
   * writes the error frames instead of `encodeStreamError`. Optional.
   */
  watchForwardedStream?(): ForwardedStreamWatcher

  /**
   * Policy 1's exception: a same-format (passthrough) request body that holds the gateway's reasoning envelopes (the
   * client's text contains `envelopeMarker`), with this provider's own signatures unwrapped and every other
   * provider's reasoning dropped or replaced as the translated path would encode it; undefined when nothing had to
   * change. Optional: a format whose clients carry no envelope (chat-completions) has none.
   */
  ownReasoningOnly?(body: unknown): Converted<unknown> | undefined

  /** The token-count response body (`{input_tokens}` / `{totalTokens}`); undefined when the format has no such endpoint. */
  encodeTokenCount?(inputTokens: number): unknown
  /** The model-listing response body. */
  encodeModelList(models: ModelInfo[]): unknown

  /**
   * Where this format's answers carry token usage: the JSON key of the usage object in a response body and in stream
   * events (`usage`, `usageMetadata`), and its decoder (total: `undefined` for anything that is not a usage object).
   * The gateway reads the usage of a passthrough answer with it without decoding the answer. Optional: without it a
   * passthrough answer reports no usage.
   */
  readonly usageField?: UsageField
}

/** A format as the gateway serves it: its codec and its gateway part. */
export interface GatewayFormat<Id extends ir.WireFormatId = ir.FormatId> extends Format<Id>, FormatGateway {}

/** See `FormatGateway.usageField`. */
export interface UsageField {
  key: string
  decode(usage: Record<string, unknown>): ir.Usage | undefined
}
