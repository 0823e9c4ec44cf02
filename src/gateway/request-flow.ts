/**
 * The gateway's per-request flow: route, authenticate, resolve the model, then answer (list, get, count, mock) or
 * forward. One `RequestFlow` per gateway holds the settings `createGateway` resolved from its options; its methods are
 * the steps of one request, so a request allocates no closures over the gateway's settings.
 */
import { reportWarnings } from '../convert.js'
import type { Converted, GatewayFormat, RouteMatch } from '../formats/format.js'
import { gatewayFormats, getGatewayFormat } from '../formats/gateway.js'
import { listPuller } from '../http/event-source.js'
import { type ExchangeRequest, type ExchangeResult, type ExchangeRuntime, routeRequestOf } from '../http/exchange.js'
import {
  errorResult,
  jsonResult,
  type RespondOptions,
  respondWithEvents,
  respondWithResponse,
} from '../http/respond.js'
import type { UpstreamTransport } from '../http/upstream.js'
import type * as ir from '../ir/index.js'
import { errorCodeForStatus } from '../ir/index.js'
import { assertPortable } from '../shared/foreign-extensions.js'
import { newId } from '../shared/ids.js'
import { mayUse } from './auth.js'
import { estimateInputTokens } from './count-tokens.js'
import type { DeadlineList } from './deadlines.js'
import { errorInfo, toErrorInfo } from './errors.js'
import { type Exchange, HookContext, storeScope } from './exchange-state.js'
import { type ForwardInput, forward } from './forward.js'
import { accepted, authorize, reportResponse, warningReporter } from './hooks.js'
import type { MediaFetcher } from './media.js'
import type { MockModel } from './mock-model.js'
import type { GatewayOptions, Refusal } from './options.js'
import type { ReasoningStore } from './reasoning-store.js'
import type { ResponseStore } from './response-store.js'
import {
  type AnswerRecord,
  expandState,
  inputItems,
  mayReferToState,
  recordAnswer,
  storeResponse,
} from './responses-state.js'
import { guessClientFormat, listedModels, resolveModel, staticUpstreamFormat } from './routing.js'
import { headOf, parseJsonBody, type RequestHead, validatedHead } from './translate-request.js'
import { warningsHeader } from './warnings.js'

type Json = Record<string, unknown>

/** Headers of a body kind, not kept when an error replaces the body. */
const streamHeaders = new Set(['content-type', 'cache-control', 'x-accel-buffering'])

function stripBase(path: string, basePath: string | undefined): string {
  if (!basePath) return path
  const base = basePath.replace(/\/+$/, '')
  if (!path.startsWith(base)) return path
  return path.slice(base.length) || '/'
}

/** An answer given before an exchange exists (no route), with the request id headers `finish` sets otherwise. */
function withRequestId(result: ExchangeResult, requestId: string): ExchangeResult {
  result.headers['x-request-id'] = requestId
  result.headers['request-id'] = requestId
  return result
}

/** The single entry of a one-model listing (`get-model`), in the format's listing shape. */
function singleModel(format: GatewayFormat, id: string): unknown {
  const list = format.encodeModelList([{ id, displayName: id, created: 0, ownedBy: 'interlingua' }]) as Record<
    string,
    unknown
  >
  const items = (list.data ?? list.models) as unknown[] | undefined
  return items?.[0] ?? list
}

/** What `createGateway` resolves from its options once, for every request of the gateway. */
export interface FlowSettings {
  options: GatewayOptions
  /** The transport when neither the options nor the runtime choose one. */
  defaultTransport: UpstreamTransport
  /** The media fetcher of a request's runtime (the options' own, unless the runtime brings one). */
  mediaFetcherFor: (runtime: ExchangeRuntime | undefined) => MediaFetcher
  mock: MockModel
  reasoningStore: ReasoningStore | undefined
  responseStore: ResponseStore | undefined
  maxBodyBytes: number
  /** Whether a key is required (`apiKeys` or `authenticate`). */
  authRequired: boolean
  /** The upstream timeouts on runtimes where one timer may serve every request (no timer until one is added). */
  timeouts: DeadlineList
}

/** The per-request flow of one gateway; `handle` is its entry (bound once by `createGateway`). */
export class RequestFlow {
  private readonly options: GatewayOptions
  private readonly defaultTransport: UpstreamTransport
  private readonly mediaFetcherFor: FlowSettings['mediaFetcherFor']
  private readonly mock: MockModel
  private readonly reasoningStore: ReasoningStore | undefined
  private readonly responseStore: ResponseStore | undefined
  private readonly maxBodyBytes: number
  private readonly authRequired: boolean
  private readonly timeouts: DeadlineList

  constructor(settings: FlowSettings) {
    this.options = settings.options
    this.defaultTransport = settings.defaultTransport
    this.mediaFetcherFor = settings.mediaFetcherFor
    this.mock = settings.mock
    this.reasoningStore = settings.reasoningStore
    this.responseStore = settings.responseStore
    this.maxBodyBytes = settings.maxBodyBytes
    this.authRequired = settings.authRequired
    this.timeouts = settings.timeouts
  }

  private finish(exchange: Exchange, result: ExchangeResult): ExchangeResult {
    const headers = result.headers
    headers['x-request-id'] = exchange.event.requestId
    headers['request-id'] = exchange.event.requestId
    const warnings = warningsHeader(exchange.warnings)
    if (warnings) headers['x-interlingua-warnings'] = warnings
    if (result.status >= 400 && !exchange.error) exchange.error = errorCodeForStatus(result.status)
    if (this.options.onResponse) reportResponse(exchange, result, this.options)
    return result
  }

  /** The 403 for a model outside the caller's allow-list, or undefined when the caller may use it. */
  private forbidden(exchange: Exchange, model: string): ExchangeResult | undefined {
    if (mayUse(exchange.caller, model)) return undefined
    const info = errorInfo('permission', `This API key may not use the model "${model}"`, 'model')
    return errorResult(exchange.format, info, exchange.headers)
  }

  private async generate(exchange: Exchange): Promise<ExchangeResult> {
    const { format, route, event } = exchange
    const text = await exchange.request.text(this.maxBodyBytes)
    if (text === undefined) {
      return errorResult(
        format,
        errorInfo('request-too-large', `The request body is larger than ${this.maxBodyBytes} bytes`),
        exchange.headers,
      )
    }
    let body = parseJsonBody(text, format.id)
    // A passthrough needs only the model and the stream flags: validated and read from the wire when the format can and
    // the model's upstream, known without side effects, is of the same format. Otherwise decoded (once), as before.
    let decoded: Converted<ir.Request> | undefined
    const peeked = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined
    let head = staticUpstreamFormat(this.options, peeked) === format.id ? validatedHead(format, body, route) : undefined
    if (!head) {
      decoded = format.decodeRequest(body, route)
      head = headOf(decoded.value)
    }
    const model = head.model
    event.model = model
    if (route.kind === 'generate') event.stream = head.stream || route.stream === true
    const refused = this.forbidden(exchange, model)
    if (refused) return refused
    const resolved = resolveModel(this.options, model, () => new HookContext(exchange))
    if (!resolved) {
      return errorResult(
        format,
        errorInfo('not-found', `The model "${model}" does not exist or is not served here`, 'model'),
        exchange.headers,
      )
    }
    event.upstream = resolved.name
    event.upstreamModel = resolved.model
    this.options.onRequest?.({ ...event })
    const onWarning = warningReporter(exchange, this.options)
    const sameFormat = resolved.upstream.format === format.id
    if (!sameFormat) decoded ??= format.decodeRequest(body, route)
    // Responses state (previous_response_id, item_reference) through the store. A Responses upstream keeps its own: it
    // gets only what this gateway stored expanded (a conversation begun on another provider), the rest as sent.
    let record: AnswerRecord | undefined
    let passthroughText = sameFormat ? text : undefined
    const store = format.id === 'responses' && route.kind === 'generate' ? this.responseStore : undefined
    if (store && !sameFormat) {
      const scope = storeScope(exchange)
      body = await expandState(body as Record<string, unknown>, store, scope)
      decoded = format.decodeRequest(body, route)
      if ((body as Record<string, unknown>).store !== false) record = { input: inputItems(body as Json), scope, store }
    } else if (store && mayReferToState(text)) {
      const expanded = await expandState(body as Json, store, storeScope(exchange), true)
      if (expanded) {
        body = expanded
        passthroughText = undefined
      }
    }
    // Passthrough forwards the text as received, unless the store rewrote the body.
    if (!record) return this.respondTo(exchange, body, passthroughText, head, decoded, resolved, onWarning)
    const recording = record
    const onResponse = (response: Record<string, unknown>) => void storeResponse(recording, response).catch(() => {})
    const answer = await this.respondTo(exchange, body, passthroughText, head, decoded, resolved, onWarning, onResponse)
    return recordAnswer(answer, record)
  }

  /** Not `async`: a passthrough's promise is `forward`'s own (no frame of its own per request). */
  private respondTo(
    exchange: Exchange,
    body: unknown,
    /** The body's text when `body` is its unchanged parse (passthrough forwards it). */
    text: string | undefined,
    head: RequestHead,
    /** The decoded body: always there when the upstream is of another format (or the mock). */
    decoded: Converted<ir.Request> | undefined,
    resolved: NonNullable<ReturnType<typeof resolveModel>>,
    onWarning: (warning: ir.Warning) => void,
    /** A Responses stream's terminal response, for the response store. */
    onResponse?: (response: Record<string, unknown>) => void,
  ): ExchangeResult | Promise<ExchangeResult> {
    const { format, route, event } = exchange
    const model = event.model as string
    const sameFormat = resolved.upstream.format === format.id
    const input: ForwardInput = {
      body,
      head,
      resolved,
      onWarning,
      options: this.options,
      fetchMedia: exchange.fetchMedia,
    }
    if (text !== undefined) input.text = text
    if (onResponse) input.onResponse = onResponse
    if (this.reasoningStore && !sameFormat && format.id === 'chat-completions') {
      // Only a chat-completions client's translated turns use it (not a passthrough: no key hashed per request).
      // Scoped by caller (else by the client's key, hashed), so one caller's reasoning is never put on another's turn.
      input.reasoning = { store: this.reasoningStore, scope: storeScope(exchange) }
    }
    if (!decoded) return forward(exchange, input)
    input.decoded = decoded
    const request = decoded.value
    if (route.kind === 'count-tokens' && !sameFormat) {
      reportWarnings(decoded.warnings, { strict: this.options.strict, onWarning, to: format.id })
      const count = format.encodeTokenCount?.(estimateInputTokens(request)) ?? {
        input_tokens: estimateInputTokens(request),
      }
      exchange.headers['x-interlingua-token-count'] = 'estimate'
      return jsonResult(count, exchange.headers)
    }
    if (resolved.upstream.format === 'mock') {
      assertPortable(request.extensions, 'mock')
      reportWarnings(decoded.warnings, { strict: this.options.strict, onWarning, to: format.id })
      request.model = resolved.model
      const respond: RespondOptions = {
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
        onResponse,
      }
      if (event.stream)
        return respondWithEvents(listPuller(this.mock.events(request)), format, respond, exchange.headers)
      return respondWithResponse(this.mock.generate(request), format, respond, exchange.headers)
    }
    return forward(exchange, input)
  }

  async handle(request: ExchangeRequest, runtime?: ExchangeRuntime): Promise<ExchangeResult> {
    const routeRequest = routeRequestOf(request, stripBase(request.path, this.options.basePath))
    let format: GatewayFormat | undefined
    let route: RouteMatch | undefined
    const requestId = newId('req_')
    const headers: Record<string, string> = {}
    for (const candidate of gatewayFormats) {
      try {
        route = candidate.matchRoute(routeRequest)
      } catch (error) {
        // A route of this format whose path does not parse (a malformed percent-escape): native 400, never a 500.
        return withRequestId(errorResult(candidate, toErrorInfo(error), headers), requestId)
      }
      if (route) {
        format = candidate
        break
      }
    }
    if (!format || !route) {
      // What the services answer for an unknown route: OpenAI `Invalid URL (POST /v1/x)` with `code: null`, Anthropic
      // `not_found_error`, Gemini `NOT_FOUND` — never `model_not_found`.
      const info = errorInfo('not-found', `Invalid URL (${request.method} ${request.path})`)
      const client = getGatewayFormat(guessClientFormat(routeRequest.url, routeRequest.headers))
      return withRequestId(errorResult(client, info, headers), requestId)
    }
    const exchange: Exchange = {
      request,
      format,
      route,
      event: { requestId, format: format.id, kind: route.kind },
      headers,
      warnings: [],
      started: Date.now(),
      transport: this.options.fetch === undefined && runtime?.transport ? runtime.transport : this.defaultTransport,
      fetchMedia: this.mediaFetcherFor(runtime),
      timeouts: runtime?.sharedTimers ? this.timeouts : undefined,
    }
    if (route.model !== undefined) exchange.event.model = route.model
    try {
      let authorization = this.authRequired ? authorize(exchange, this.options) : accepted
      if (authorization instanceof Promise) authorization = await authorization
      if ('refused' in authorization) {
        exchange.error = authorization.refused.code
        // A refusal's code is its reason: 'authentication', 'permission' or 'rate-limit'.
        exchange.refused = authorization.refused.code as Refusal['refuse']
        return this.finish(exchange, errorResult(format, authorization.refused, headers))
      }
      if (authorization.caller) {
        exchange.caller = authorization.caller
        exchange.event.caller = authorization.caller
      }
      if (route.kind === 'list-models') {
        const listed = listedModels(this.options).filter((model) => mayUse(exchange.caller, model.id))
        return this.finish(exchange, jsonResult(format.encodeModelList(listed), headers))
      }
      if (route.kind === 'get-model') {
        const id = route.model ?? ''
        const refused = this.forbidden(exchange, id)
        if (refused) return this.finish(exchange, refused)
        if (!resolveModel(this.options, id, () => new HookContext(exchange))) {
          exchange.error = 'not-found'
          return this.finish(
            exchange,
            errorResult(format, errorInfo('not-found', `The model "${id}" does not exist`, 'model'), headers),
          )
        }
        return this.finish(exchange, jsonResult(singleModel(format, id), headers))
      }
      if (route.kind === 'get-response') {
        const id = route.id ?? ''
        const stored = this.responseStore ? await this.responseStore.get(storeScope(exchange), id) : undefined
        if (!stored) {
          exchange.error = 'not-found'
          const message = `Response with id '${id}' not found.${this.responseStore ? '' : ' This gateway stores no responses.'}`
          return this.finish(exchange, errorResult(format, errorInfo('not-found', message, 'response_id'), headers))
        }
        return this.finish(exchange, jsonResult(stored.response, headers))
      }
      return this.finish(exchange, await this.generate(exchange))
    } catch (error) {
      const info = toErrorInfo(error)
      exchange.error = info.code
      const kept: Record<string, string> = {}
      for (const name of Object.keys(headers)) if (!streamHeaders.has(name)) kept[name] = headers[name] as string
      return this.finish(exchange, errorResult(format, info, kept))
    }
  }
}
