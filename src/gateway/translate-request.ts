/**
 * Request translation at the Fetch level (issue 3): an incoming `Request` of format A → the `Request` to send to an
 * upstream of format B. Same format: the body is forwarded with only the model rewritten (policy 1).
 */
import { reportWarnings } from '../convert.js'
import { InterlinguaError, invalidRequest } from '../errors.js'
import type { Converted, Format, FormatId, RouteMatch, UpstreamConfig, WireFormatId } from '../formats/format.js'
import { getGatewayFormat } from '../formats/gateway.js'
import type * as ir from '../ir/index.js'
import { assertJsonDepth } from '../shared/depth.js'
import { spliceModel } from '../shared/json-splice.js'
import { envelopeMarker } from '../shared/reasoning-envelope.js'
import type { MediaFetcher } from './media.js'
import { inlineMedia } from './media.js'

export interface TranslateRequestOptions {
  /** The incoming request's format. */
  from: FormatId
  /** The upstream's format. */
  to: FormatId
  upstream: UpstreamConfig
  /** The model id to send upstream. @defaultValue the model the request names */
  model?: string
  /** The incoming route (content-generation carries the model and `stream` in the path). @defaultValue `from.matchRoute(request)`, else `generate` */
  route?: RouteMatch
  /** Throw instead of dropping or approximating anything. @defaultValue false */
  strict?: boolean
  onWarning?: (warning: ir.Warning) => void
  /** Inlines http(s) media URLs for content-generation upstreams; without it such URLs are left to the encoder. @defaultValue none */
  fetchMedia?: MediaFetcher
  /** `max_tokens` for messages upstreams when the request has none. @defaultValue 4096 */
  defaultMaxTokens?: number
  /** Aborts the upstream request (e.g. the client's `request.signal`). */
  signal?: AbortSignal
}

/** Parses a JSON body; invalid JSON, or nesting deeper than `maxJsonDepth`, is an `invalid-request` error. */
export function parseJsonBody(text: string, format?: FormatId): unknown {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return invalidRequest('', 'the request body is not valid JSON', format)
  }
  assertJsonDepth(body, format)
  return body
}

/** What the gateway already knows when it builds the upstream request. */
export interface UpstreamRequestInput {
  from: FormatId
  to: WireFormatId
  /** The upstream format's codec when it is not in the registry (an upstream-only format a provider brings). */
  encoder?: Format<WireFormatId>
  body: unknown
  /** The body's JSON text as received, when `body` was parsed from it unchanged: passthrough forwards it. */
  text?: string
  /** The decoded body: required unless `from === to` (a passthrough forwards the body, never the IR). */
  decoded?: Converted<ir.Request>
  /** The request asks for a stream (`decoded.value.stream === true`). */
  stream: boolean
  route: RouteMatch
  upstream: UpstreamConfig
  model: string
  fetchMedia?: MediaFetcher
  defaultMaxTokens?: number
}

/** Whether the upstream request is a stream, and which endpoint kind it goes to. */
export function upstreamKind(input: Pick<UpstreamRequestInput, 'route' | 'stream'>): {
  kind: 'generate' | 'count-tokens'
  stream: boolean
} {
  const kind = input.route.kind === 'count-tokens' ? 'count-tokens' : 'generate'
  return { kind, stream: kind === 'generate' && input.stream }
}

/** What the gateway reads of a request before it knows the upstream: the values `decodeRequest` gives these fields. */
export interface RequestHead {
  model: string
  stream: boolean
  streamIncludeUsage: boolean
}

/** The head of a decoded request. */
export function headOf(request: ir.Request): RequestHead {
  return {
    model: request.model,
    stream: request.stream === true,
    streamIncludeUsage: request.streamIncludeUsage === true,
  }
}

/**
 * Validates a request body (the errors `decodeRequest` throws) and reads its head from the wire, without decoding it,
 * for the formats whose `validateRequest` is cheaper than decoding and whose head is plain body fields
 * (chat-completions, messages). Undefined for the others: decode them.
 */
export function validatedHead(format: Format, body: unknown, route: Partial<RouteMatch>): RequestHead | undefined {
  if ((format.id !== 'chat-completions' && format.id !== 'messages') || !format.validateRequest) return undefined
  format.validateRequest(body, route)
  const wire = body as { model: string; stream?: unknown; stream_options?: { include_usage?: unknown } | null }
  return {
    model: wire.model,
    stream: wire.stream === true,
    // messages has no stream_options: its decoded requests never set streamIncludeUsage.
    streamIncludeUsage: format.id === 'chat-completions' && wire.stream_options?.include_usage === true,
  }
}

/**
 * The same-format (passthrough) body for the upstream, synchronously: the client's text with the upstream's model
 * spliced in when it was given, else the parsed body re-serialised with it.
 */
export function passthroughBody(input: Pick<UpstreamRequestInput, 'body' | 'text' | 'model'>): string {
  const hasModel = typeof input.body === 'object' && input.body !== null && 'model' in input.body
  const spliced = input.text === undefined ? undefined : spliceModel(input.text, input.model, hasModel)
  if (spliced !== undefined) return spliced
  const body = hasModel ? { ...(input.body as Record<string, unknown>), model: input.model } : input.body
  return JSON.stringify(body)
}

/** Builds the body text for the upstream. Returns the encoder's warnings (not yet reported). */
export async function buildUpstreamBody(
  input: UpstreamRequestInput,
): Promise<{ body: string; warnings: ir.Warning[] }> {
  if (input.from === input.to) {
    // Policy 1's exception, as the gateway's passthrough does: another provider's reasoning is not forwarded.
    const own =
      input.text?.includes(envelopeMarker) === false
        ? undefined
        : getGatewayFormat(input.to).ownReasoningOnly?.(input.body)
    if (!own) return { body: passthroughBody(input), warnings: [] }
    return { body: passthroughBody({ body: own.value, model: input.model }), warnings: own.warnings }
  }
  if (!input.decoded) throw new Error('buildUpstreamBody: a translated request needs its decoded body')
  const request = input.decoded.value
  request.model = input.model
  // A chat-completions upstream reports stream usage only when asked; the client's format needs it.
  if (input.to === 'chat-completions' && upstreamKind(input).stream) request.streamIncludeUsage = true
  // Formats that take media only as bytes: http(s) URLs are fetched (through the configured fetcher) and inlined.
  if ((input.to === 'content-generation' || input.to === 'converse') && input.fetchMedia)
    await inlineMedia(request, input.fetchMedia)
  const encodeOptions = input.defaultMaxTokens === undefined ? {} : { defaultMaxTokens: input.defaultMaxTokens }
  const encoded = (input.encoder ?? getGatewayFormat(input.to as FormatId)).encodeRequest(request, encodeOptions)
  return { body: JSON.stringify(encoded.value), warnings: encoded.warnings }
}

/** Builds the URL, headers and body text for the upstream. Returns the encoder's warnings (not yet reported). */
export async function buildUpstreamRequest(
  input: UpstreamRequestInput & { to: FormatId },
): Promise<{ url: string; headers: Headers; body: string; warnings: ir.Warning[] }> {
  const { kind, stream } = upstreamKind(input)
  const { url, headers } = getGatewayFormat(input.to).upstreamTarget(input.model, kind, stream, input.upstream)
  return { url, headers, ...(await buildUpstreamBody(input)) }
}

/**
 * Translates an incoming request into the request for an upstream of another format.
 *
 * @example
 * const upstreamRequest = await translateRequest(request, {
 *   from: 'chat-completions', to: 'messages', upstream: { baseURL: 'https://api.anthropic.com', apiKey },
 * })
 * const upstreamResponse = await fetch(upstreamRequest)
 * @throws InterlinguaError `invalid-request` (invalid JSON, or a field, named by its JSON path) or, with `strict`, `unsupported-feature`.
 */
export async function translateRequest(request: Request, options: TranslateRequestOptions): Promise<Request> {
  const source = getGatewayFormat(options.from)
  const route = options.route ??
    source.matchRoute({ method: request.method, url: new URL(request.url), headers: request.headers }) ?? {
      kind: 'generate',
    }
  const body = parseJsonBody(await request.text(), options.from)
  const decoded = source.decodeRequest(body, route)
  const model = options.model ?? decoded.value.model
  if (!model) throw new InterlinguaError('invalid-request', 'model: required field is missing', { param: 'model' })
  const input: UpstreamRequestInput & { to: FormatId } = {
    from: options.from,
    to: options.to,
    body,
    decoded,
    stream: decoded.value.stream === true,
    route,
    upstream: options.upstream,
    model,
  }
  if (options.fetchMedia) input.fetchMedia = options.fetchMedia
  if (options.defaultMaxTokens !== undefined) input.defaultMaxTokens = options.defaultMaxTokens
  const built = await buildUpstreamRequest(input)
  reportWarnings(options.from === options.to ? built.warnings : [...decoded.warnings, ...built.warnings], {
    strict: options.strict,
    onWarning: options.onWarning,
    to: options.to,
  })
  const init: RequestInit = { method: 'POST', headers: built.headers, body: built.body }
  if (options.signal) init.signal = options.signal
  return new Request(built.url, init)
}
