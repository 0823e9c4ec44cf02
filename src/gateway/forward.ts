/**
 * Forwarding to a real upstream: build the upstream request (passthrough or translated), fetch it with the
 * client's abort signal and the configured timeout, and translate the answer back (policies 1, 9, 10, 11).
 * The upstream's key comes from its configuration via the format's `upstreamTarget`; no client header is copied.
 */
import { reportWarnings } from '../convert.js'
import { InterlinguaError } from '../errors.js'
import type { Converted, FormatId } from '../formats/format.js'
import { inStreamErrorBytes, upstreamStreamError } from '../http/streams.js'
import { buildUpstreamRequest, type UpstreamRequestInput } from '../http/translate-request.js'
import { type TranslateResponseOptions, translateResponse } from '../http/translate-response.js'
import type * as ir from '../ir/index.js'
import type { Exchange } from './create-gateway.js'
import { errorInfo, errorResponse } from './errors.js'
import type { MediaFetcher } from './media.js'
import type { GatewayOptions } from './options.js'
import type { ReasoningStore } from './reasoning-store.js'
import { type ResolvedModel, upstreamConfig } from './routing.js'

export interface ForwardInput {
  body: unknown
  decoded: Converted<ir.Request>
  resolved: ResolvedModel
  onWarning: (warning: ir.Warning) => void
  options: GatewayOptions
  doFetch: typeof fetch
  fetchMedia: MediaFetcher
  /** Chat-completions clients' reasoning kept by tool-call id, and the caller's scope in it (policy 3). */
  reasoning?: { store: ReasoningStore; scope: string }
}

const defaultTimeoutMs = 600_000
const streamFailure = (upstreamStreamError() as { error: ir.ErrorInfo }).error

/** Rejects when the signal aborts, so a fetch that ignores its signal still times out. */
function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))
}

export async function forward(exchange: Exchange, input: ForwardInput): Promise<Response> {
  const { format, route, event } = exchange
  const { options, resolved } = input
  const to = resolved.upstream.format as FormatId
  const sameFormat = to === format.id
  // A chat-completions client may have dropped the reasoning carrier: put back what the gateway kept (policy 3).
  const reasoning = !sameFormat && format.id === 'chat-completions' ? input.reasoning : undefined
  reasoning?.store.restore(reasoning.scope, input.decoded.value.messages)
  const buildInput: UpstreamRequestInput = {
    from: format.id,
    to,
    body: input.body,
    decoded: input.decoded,
    route,
    upstream: upstreamConfig(resolved.upstream),
    model: resolved.model,
    fetchMedia: input.fetchMedia,
  }
  if (options.defaultMaxTokens !== undefined) buildInput.defaultMaxTokens = options.defaultMaxTokens
  const built = await buildUpstreamRequest(buildInput)
  if (!sameFormat)
    reportWarnings([...input.decoded.warnings, ...built.warnings], {
      strict: options.strict,
      onWarning: input.onWarning,
      to,
    })

  const controller = new AbortController()
  let timedOut = false
  const signal = exchange.request.signal
  const onClientAbort = () => controller.abort(signal.reason)
  if (signal.aborted) controller.abort(signal.reason)
  else signal.addEventListener('abort', onClientAbort, { once: true })
  exchange.abort = () => controller.abort()
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, options.timeoutMs ?? defaultTimeoutMs)

  const failure = (): Response => {
    clearTimeout(timer)
    if (timedOut)
      return errorResponse(
        format.id,
        errorInfo('timeout', `The upstream "${resolved.name}" did not answer in time`),
        exchange.headers,
      )
    if (signal.aborted)
      return errorResponse(
        format.id,
        { code: 'upstream', status: 499, message: 'The client closed the request' },
        exchange.headers,
      )
    return errorResponse(
      format.id,
      errorInfo('upstream', `The upstream "${resolved.name}" is unreachable`),
      exchange.headers,
    )
  }

  let upstreamResponse: Response
  try {
    const init: RequestInit = { method: 'POST', headers: built.headers, body: built.body, signal: controller.signal }
    upstreamResponse = await Promise.race([input.doFetch(built.url, init), rejectOnAbort(controller.signal)])
  } catch {
    exchange.error = timedOut ? 'timeout' : 'upstream'
    return failure()
  }

  const stream = route.kind === 'generate' && event.stream === true
  const translate: TranslateResponseOptions = {
    from: to,
    to: format.id,
    stream,
    streamJsonArray: route.streamJsonArray === true,
    includeUsage: input.decoded.value.streamIncludeUsage === true,
    request: input.decoded.value,
    onWarning: input.onWarning,
    onUsage: (usage) => {
      exchange.usage = usage
    },
    onError: (error) => {
      exchange.error = error.code
    },
    secrets: [resolved.upstream.apiKey],
  }
  if (options.relayHeaders) translate.relayHeaders = options.relayHeaders
  if (reasoning) translate.onAssistant = (parts) => reasoning.store.remember(reasoning.scope, parts)
  if (event.model !== undefined) translate.model = event.model
  try {
    const response = await translateResponse(upstreamResponse, translate)
    const cleanup = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onClientAbort)
    }
    // A streamed answer is not bound by the timeout once it has started; a passthrough JSON body still is, until read.
    if (stream || !sameFormat) clearTimeout(timer)
    if (response.status < 400 && response.body && (stream || sameFormat)) {
      exchange.streaming = true
      exchange.cleanup = cleanup
      if (sameFormat && stream) exchange.errorBytes = () => inStreamErrorBytes(format, streamFailure)
    } else cleanup()
    return response
  } catch (error) {
    if (InterlinguaError.isInstance(error) && !timedOut && !signal.aborted) {
      clearTimeout(timer)
      throw error
    }
    exchange.error = timedOut ? 'timeout' : 'upstream'
    return failure()
  }
}
