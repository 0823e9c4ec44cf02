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
import { reportWarnings } from '../convert.js'
import type { Format, RouteMatch } from '../formats/format.js'
import { formats } from '../formats/index.js'
import { parseJsonBody } from '../http/translate-request.js'
import { respondWithEvents, respondWithResponse } from '../http/translate-response.js'
import type * as ir from '../ir/index.js'
import { errorCodeForStatus } from '../ir/index.js'
import { assertPortable } from '../shared/foreign-extensions.js'
import { extractKey, keyMatches } from './auth.js'
import { type BodyHooks, readBodyText, wrapBody } from './body.js'
import { estimateInputTokens } from './count-tokens.js'
import { errorInfo, errorResponse, toErrorInfo } from './errors.js'
import { type ForwardInput, forward } from './forward.js'
import { createMediaFetcher } from './media.js'
import { createMockModel } from './mock-model.js'
import type { GatewayOptions, GatewayRequestEvent, GatewayResponseEvent } from './options.js'
import { createReasoningStore } from './reasoning-store.js'
import type { ResponseStore } from './response-store.js'
import { expandState, inputItems, recordAnswer } from './responses-state.js'
import { guessClientFormat, listedModels, resolveModel, validateOptions } from './routing.js'
import { warningsHeader } from './warnings.js'

export type {
  GatewayContext,
  GatewayOptions,
  GatewayRequestEvent,
  GatewayResponseEvent,
  MediaOptions,
  ModelRoute,
  UpstreamOptions,
} from './options.js'

/** The gateway: a bound Fetch handler. */
export interface Gateway {
  fetch(request: Request): Promise<Response>
}

/** Everything one request carries through the handler. */
export interface Exchange {
  request: Request
  format: Format
  route: RouteMatch
  event: GatewayRequestEvent
  headers: Headers
  warnings: ir.Warning[]
  started: number
  usage?: ir.Usage
  error?: ir.ErrorCode
  /** Whether the answer is a stream whose end `onResponse` waits for. */
  streaming?: boolean
  /** Releases timers and listeners when a streamed answer ends. */
  cleanup?: () => void
  /** Aborts the upstream request (client disconnect). */
  abort?: () => void
  /** Passthrough streams: the in-stream error frame to write when the upstream body fails. */
  errorBytes?: () => Uint8Array
}

const defaultMaxBodyBytes = 32 * 1024 * 1024

/** FNV-1a of a client key: a map scope that does not keep the key itself. */
function scopeOf(key: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  return (h >>> 0).toString(36) + key.length.toString(36)
}

function randomId(): string {
  return crypto.randomUUID().replace(/-/g, '')
}

function routeUrl(url: URL, basePath: string | undefined): URL {
  if (!basePath) return url
  const base = basePath.replace(/\/+$/, '')
  if (!url.pathname.startsWith(base)) return url
  const copy = new URL(url)
  copy.pathname = url.pathname.slice(base.length) || '/'
  return copy
}

/** An answer given before an exchange exists (no route), with the request id headers `finish` sets otherwise. */
function withRequestId(response: Response, requestId: string): Response {
  response.headers.set('x-request-id', requestId)
  response.headers.set('request-id', requestId)
  return response
}

/** The single entry of a one-model listing (`get-model`), in the format's listing shape. */
function singleModel(format: Format, id: string): unknown {
  const list = format.encodeModelList([{ id, displayName: id, created: 0, ownedBy: 'interlingua' }]) as Record<
    string,
    unknown
  >
  const items = (list.data ?? list.models) as unknown[] | undefined
  return items?.[0] ?? list
}

/** Creates the gateway. Throws a TypeError when the configuration is inconsistent (a route to an unknown upstream). */
export function createGateway(options: GatewayOptions = {}): Gateway {
  validateOptions(options)
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const fetchMedia = createMediaFetcher(options.media, doFetch)
  const mock = createMockModel()
  const reasoningStore = options.reasoningStore === false ? undefined : createReasoningStore(options.reasoningStore)
  const responseStore = options.responseStore
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes
  const authRequired = (options.apiKeys?.length ?? 0) > 0 || options.authenticate !== undefined

  function finish(exchange: Exchange, response: Response): Response {
    const headers = response.headers
    headers.set('x-request-id', exchange.event.requestId)
    headers.set('request-id', exchange.event.requestId)
    const warnings = warningsHeader(exchange.warnings)
    if (warnings) headers.set('x-interlingua-warnings', warnings)
    if (!exchange.streaming || !response.body || response.status >= 400) {
      options.onResponse?.(responseEvent(exchange, response.status))
      return response
    }
    const hooks: BodyHooks = {
      onEnd: (outcome) => {
        exchange.cleanup?.()
        if (outcome === 'error' && !exchange.error) exchange.error = 'upstream'
        options.onResponse?.(responseEvent(exchange, response.status))
      },
      onCancel: () => exchange.abort?.(),
    }
    if (exchange.errorBytes) hooks.onErrorBytes = exchange.errorBytes
    return new Response(wrapBody(response.body, hooks), { status: response.status, headers })
  }

  function responseEvent(exchange: Exchange, status: number): GatewayResponseEvent {
    const event: GatewayResponseEvent = {
      ...exchange.event,
      status,
      latencyMs: Date.now() - exchange.started,
      warnings: exchange.warnings.length,
    }
    if (exchange.usage) event.usage = exchange.usage
    if (exchange.error) event.error = exchange.error
    return event
  }

  async function authorize(exchange: Exchange, url: URL): Promise<boolean> {
    if (!authRequired) return true
    const key = extractKey(exchange.request.headers, url)
    if (!key) return false
    if (options.apiKeys && keyMatches(key, options.apiKeys)) return true
    return options.authenticate
      ? (await options.authenticate(key, { format: exchange.format.id, request: exchange.request })) === true
      : false
  }

  async function generate(exchange: Exchange): Promise<Response> {
    const { format, route, event } = exchange
    const text = await readBodyText(exchange.request, maxBodyBytes)
    if (text === undefined) {
      return errorResponse(
        format.id,
        errorInfo('request-too-large', `The request body is larger than ${maxBodyBytes} bytes`),
        exchange.headers,
      )
    }
    let body = parseJsonBody(text, format.id)
    let decoded = format.decodeRequest(body, route)
    const model = decoded.value.model
    event.model = model
    if (route.kind === 'generate') event.stream = decoded.value.stream === true || route.stream === true
    const resolved = resolveModel(options, model, { format: format.id, request: exchange.request })
    if (!resolved) {
      return errorResponse(
        format.id,
        errorInfo('not-found', `The model "${model}" does not exist or is not served here`, 'model'),
        exchange.headers,
      )
    }
    event.upstream = resolved.name
    event.upstreamModel = resolved.model
    options.onRequest?.({ ...event })
    const onWarning = (warning: ir.Warning) => {
      exchange.warnings.push(warning)
      options.onWarning?.(warning, { ...event })
    }
    const sameFormat = resolved.upstream.format === format.id
    // Responses state (previous_response_id, item_reference) through the optional store; a Responses upstream keeps its own.
    let record: { input: unknown[]; scope: string; store: ResponseStore } | undefined
    if (responseStore && format.id === 'responses' && route.kind === 'generate' && !sameFormat) {
      const scope = scopeOf(extractKey(exchange.request.headers, new URL(exchange.request.url)) ?? '')
      body = await expandState(body as Record<string, unknown>, responseStore, scope)
      decoded = format.decodeRequest(body, route)
      if ((body as Record<string, unknown>).store !== false) {
        record = { input: inputItems(body as Record<string, unknown>), scope, store: responseStore }
      }
    }
    const answer = await respondTo(exchange, body, decoded, resolved, onWarning)
    return record ? recordAnswer(answer, record.input, record.store, record.scope) : answer
  }

  async function respondTo(
    exchange: Exchange,
    body: unknown,
    decoded: ReturnType<Format['decodeRequest']>,
    resolved: NonNullable<ReturnType<typeof resolveModel>>,
    onWarning: (warning: ir.Warning) => void,
  ): Promise<Response> {
    const { format, route, event } = exchange
    const request = decoded.value
    const model = event.model as string
    const sameFormat = resolved.upstream.format === format.id
    if (route.kind === 'count-tokens' && !sameFormat) {
      reportWarnings(decoded.warnings, { strict: options.strict, onWarning, to: format.id })
      const count = format.encodeTokenCount?.(estimateInputTokens(request)) ?? {
        input_tokens: estimateInputTokens(request),
      }
      exchange.headers.set('content-type', 'application/json')
      exchange.headers.set('x-interlingua-token-count', 'estimate')
      return new Response(JSON.stringify(count), { status: 200, headers: exchange.headers })
    }
    if (resolved.upstream.format === 'mock') {
      assertPortable(request.extensions, 'mock')
      reportWarnings(decoded.warnings, { strict: options.strict, onWarning, to: format.id })
      request.model = resolved.model
      const respond = {
        model,
        stream: event.stream === true,
        streamJsonArray: route.streamJsonArray === true,
        includeUsage: request.streamIncludeUsage === true,
        request,
        onWarning,
        onUsage: (usage: ir.Usage) => {
          exchange.usage = usage
        },
        onError: (error: ir.ErrorInfo) => {
          exchange.error = error.code
        },
      }
      if (event.stream) {
        exchange.streaming = true
        return respondWithEvents(mock.stream(request), format, respond, exchange.headers)
      }
      return respondWithResponse(mock.generate(request), format, respond, exchange.headers)
    }
    const input: ForwardInput = { body, decoded, resolved, onWarning, options, doFetch, fetchMedia }
    if (reasoningStore) {
      // Scoped by the client's key (hashed), so one caller's reasoning is never put on another's turn.
      const key = extractKey(exchange.request.headers, new URL(exchange.request.url)) ?? ''
      input.reasoning = { store: reasoningStore, scope: scopeOf(key) }
    }
    return forward(exchange, input)
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const matchUrl = routeUrl(url, options.basePath)
    let format: Format | undefined
    let route: RouteMatch | undefined
    const requestId = `req_${randomId()}`
    const headers = new Headers()
    for (const candidate of formats) {
      try {
        route = candidate.matchRoute({ method: request.method, url: matchUrl, headers: request.headers })
      } catch (error) {
        // A route of this format whose path does not parse (a malformed percent-escape): native 400, never a 500.
        return withRequestId(errorResponse(candidate.id, toErrorInfo(error), headers), requestId)
      }
      if (route) {
        format = candidate
        break
      }
    }
    if (!format || !route) {
      // What the services answer for an unknown route: OpenAI `Invalid URL (POST /v1/x)` with `code: null`, Anthropic
      // `not_found_error`, Gemini `NOT_FOUND` — never `model_not_found`.
      const info = errorInfo('not-found', `Invalid URL (${request.method} ${url.pathname})`)
      return withRequestId(errorResponse(guessClientFormat(url, request.headers), info, headers), requestId)
    }
    const exchange: Exchange = {
      request,
      format,
      route,
      event: { requestId, format: format.id, kind: route.kind },
      headers,
      warnings: [],
      started: Date.now(),
    }
    if (route.model !== undefined) exchange.event.model = route.model
    try {
      if (!(await authorize(exchange, url))) {
        const key = extractKey(request.headers, url)
        exchange.error = 'authentication'
        const message = key
          ? 'Invalid API key'
          : 'Missing API key (send Authorization: Bearer, x-api-key, x-goog-api-key or ?key=)'
        return finish(exchange, errorResponse(format.id, errorInfo('authentication', message), headers))
      }
      if (route.kind === 'list-models') {
        headers.set('content-type', 'application/json')
        return finish(
          exchange,
          new Response(JSON.stringify(format.encodeModelList(listedModels(options))), { headers }),
        )
      }
      if (route.kind === 'get-model') {
        const id = route.model ?? ''
        if (!resolveModel(options, id, { format: format.id, request })) {
          exchange.error = 'not-found'
          return finish(
            exchange,
            errorResponse(format.id, errorInfo('not-found', `The model "${id}" does not exist`, 'model'), headers),
          )
        }
        headers.set('content-type', 'application/json')
        return finish(exchange, new Response(JSON.stringify(singleModel(format, id)), { headers }))
      }
      if (route.kind === 'get-response') {
        const id = route.id ?? ''
        const scope = scopeOf(extractKey(request.headers, url) ?? '')
        const stored = responseStore ? await responseStore.get(scope, id) : undefined
        if (!stored) {
          exchange.error = 'not-found'
          const message = `Response with id '${id}' not found.${responseStore ? '' : ' This gateway stores no responses.'}`
          return finish(exchange, errorResponse(format.id, errorInfo('not-found', message, 'response_id'), headers))
        }
        headers.set('content-type', 'application/json')
        return finish(exchange, new Response(JSON.stringify(stored.response), { headers }))
      }
      const response = await generate(exchange)
      if (response.status >= 400 && !exchange.error) exchange.error = errorCodeForStatus(response.status)
      return finish(exchange, response)
    } catch (error) {
      const info = toErrorInfo(error)
      exchange.error = info.code
      exchange.streaming = false
      return finish(exchange, errorResponse(format.id, info, new Headers(headers)))
    }
  }

  return { fetch: (request: Request) => handle(request) }
}
