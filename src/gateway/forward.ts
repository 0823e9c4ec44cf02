/**
 * Forwarding to a real upstream: build the upstream request (passthrough or translated), send it through the
 * exchange's transport with the client's disconnect and the configured timeout as cancellation, and translate the
 * answer back (policies 1, 9, 10, 11). The upstream's key comes from its configuration via the format's
 * `upstreamTarget`; no client header is copied.
 */
import { reportWarnings } from '../convert.js'
import { InterlinguaError } from '../errors.js'
import type { Converted, FormatId, WireFormatId } from '../formats/format.js'
import { getGatewayFormat } from '../formats/gateway.js'
import { upstreamStreamError } from '../http/event-source.js'
import { type ExchangeResult, isChunkSource, observe } from '../http/exchange.js'
import { inStreamErrorText, passthroughAnswer, withTail } from '../http/passthrough.js'
import { errorResult, type RespondOptions, translateAnswer } from '../http/respond.js'
import { cancel, type UpstreamAnswer } from '../http/upstream.js'
import type * as ir from '../ir/index.js'
import { appendMember } from '../shared/json-splice.js'
import { envelopeMarker } from '../shared/reasoning-envelope.js'
import { CallGuard, callFailure } from './call-guard.js'
import { errorInfo } from './errors.js'
import type { Exchange } from './exchange-state.js'
import { withIdleTimeout } from './idle.js'
import type { MediaFetcher } from './media.js'
import type { GatewayOptions } from './options.js'
import type * as ProviderCalls from './provider-call.js'
import type { ReasoningStore } from './reasoning-store.js'
import { type ResolvedModel, upstreamConfig } from './routing.js'
import {
  buildUpstreamBody,
  passthroughBody,
  type RequestHead,
  type UpstreamRequestInput,
  upstreamKind,
} from './translate-request.js'
import { targetOf } from './upstream-target.js'
import { usageChunkCutter, usageOfBody, usageWatcher } from './usage-scan.js'

export interface ForwardInput {
  body: unknown
  /** The body's text as received, when `body` is its parse (passthrough forwards it, the model spliced in). */
  text?: string | undefined
  /** The decoded body: required unless the upstream is of the client's format (passthrough reads only `head`). */
  decoded?: Converted<ir.Request>
  head: RequestHead
  resolved: ResolvedModel
  onWarning: (warning: ir.Warning) => void
  options: GatewayOptions
  fetchMedia: MediaFetcher
  /** Chat-completions clients' reasoning kept by tool-call id, and the caller's scope in it (policy 3). */
  reasoning?: { store: ReasoningStore; scope: string }
  /** A translated Responses stream's terminal response, for the response store. */
  onResponse?: (response: Record<string, unknown>) => void
}

/** The upstream timeout (until the answer's headers) when `timeoutMs` is not set. */
export const defaultTimeoutMs = 600_000
const streamFailure = upstreamStreamError().error
const defaultIdleTimeoutMs = 300_000

/** Provider calls' code, loaded the first time an upstream needs it (a provider, or a `headers` function). */
let providerCalls: Promise<typeof ProviderCalls> | undefined
const loadProviderCalls = () => {
  providerCalls ??= import('./provider-call.js')
  return providerCalls
}

function idleFailure(name: string, options: GatewayOptions): ir.ErrorInfo {
  const ms = options.idleTimeoutMs ?? defaultIdleTimeoutMs
  return errorInfo('timeout', `The upstream "${name}" sent nothing for ${ms} ms`)
}

export async function forward(exchange: Exchange, input: ForwardInput): Promise<ExchangeResult> {
  const { format, route, event } = exchange
  // What is read of `input` after the upstream answers, taken now: `input` itself (the client's text and its parse)
  // is not referenced past the first await, so a passthrough does not keep the request body alive while it waits.
  const { options, resolved, onWarning } = input
  const includeUsage = input.head.streamIncludeUsage
  const to = resolved.upstream.format as WireFormatId
  const sameFormat = to === format.id
  const decoded = input.decoded
  if (!sameFormat && !decoded) throw new Error('forward: a translated request needs its decoded body')
  // A chat-completions client may have dropped the reasoning carrier: put back what the gateway kept (policy 3).
  const reasoning = !sameFormat && format.id === 'chat-completions' ? input.reasoning : undefined
  if (reasoning && decoded) {
    const restoring = reasoning.store.restore(reasoning.scope, decoded.value.messages)
    if (restoring) await restoring // shared entries (several instances); the memory store answers at once
  }
  const { kind, stream: upstreamStream } = upstreamKind({ route, stream: input.head.stream })
  // A cloud provider (Azure, Vertex AI…) or a `headers` function: code loaded on first use. A first-party upstream with
  // static headers skips all of it.
  const upstream = resolved.upstream
  const calls =
    upstream.provider !== undefined || typeof upstream.headers === 'function' ? await loadProviderCalls() : undefined
  const provider =
    calls && upstream.provider !== undefined
      ? await calls.providerOf(upstream, resolved.name, options.fetch ?? globalThis.fetch)
      : undefined
  const target = targetOf(resolved, kind, upstreamStream, provider)
  let body: string
  if (sameFormat) {
    // Passthrough: the client's text, the model spliced in — synchronous (no promise of its own per request). A text
    // holding the envelope marker first loses what belongs to other providers (policy 1's exception).
    const own = input.text?.includes(envelopeMarker) === false ? undefined : format.ownReasoningOnly?.(input.body)
    if (own) {
      reportWarnings(own.warnings, { strict: options.strict, onWarning, to })
      input.body = own.value
      input.text = undefined
    }
    body = passthroughBody({ body: input.body, text: input.text, model: resolved.model })
  } else {
    const buildInput: UpstreamRequestInput = {
      from: format.id,
      to,
      body: input.body,
      stream: input.head.stream,
      route,
      upstream: upstreamConfig(resolved.upstream),
      model: resolved.model,
      fetchMedia: input.fetchMedia,
    }
    if (provider?.codec) buildInput.encoder = provider.codec
    if (decoded) buildInput.decoded = decoded
    if (options.defaultMaxTokens !== undefined) buildInput.defaultMaxTokens = options.defaultMaxTokens
    const built = await buildUpstreamBody(buildInput)
    body = built.body
    if (decoded)
      reportWarnings([...decoded.warnings, ...built.warnings], {
        strict: options.strict,
        onWarning,
        to,
      })
  }
  // A chat-completions passthrough stream reports usage only when asked: asked for onResponse, cut out for the client.
  const askUsage =
    sameFormat &&
    upstreamStream &&
    format.id === 'chat-completions' &&
    options.onResponse !== undefined &&
    !includeUsage
  if (askUsage) body = withIncludeUsage(body, input.body)
  const request = provider && { format: to, model: resolved.model, kind, stream: upstreamStream }
  if (provider?.body && request) body = provider.body(body, request)
  // The client's text and its parse are not needed past this point: dropped, so that they are not kept (through this
  // frame's parameter) while the call waits for the upstream.
  input.body = undefined
  input.text = undefined

  // A content-generation client that asked for a JSON array (no `alt=sse`) gets the upstream's own JSON array.
  const upstreamURL = sameFormat && route.streamJsonArray ? target.url.replace(/\?alt=sse$/, '') : target.url
  const headers = calls
    ? await calls.callHeaders(upstream, resolved.name, provider, { url: upstreamURL, headers: target.headers, body })
    : target.headers
  // Cancelled by the client going away or by the timeout: a plain object, not an AbortController.
  const guard = new CallGuard(exchange, exchange.timeouts, options.timeoutMs ?? defaultTimeoutMs)
  const handle = guard.handle
  const relay = {
    secrets: calls ? [upstream.apiKey, ...calls.headerSecrets(headers)] : [upstream.apiKey],
    relayHeaders: options.relayHeaders,
    maxResponseBytes: options.maxResponseBytes,
    // The same options may serve under several names: the name is the request's, the path the target's.
    upstreamAt: { name: resolved.name, path: target.path },
  }
  let answer: UpstreamAnswer
  try {
    answer = await exchange.transport({ url: upstreamURL, headers, body, cancel: handle })
    if (calls && provider && request) {
      const sent = { url: upstreamURL, headers: target.headers, body }
      const resend = (fresh: Readonly<Record<string, string>>) => {
        relay.secrets.push(...calls.headerSecrets(fresh))
        return exchange.transport({ url: upstreamURL, headers: fresh, body, cancel: handle })
      }
      const count = (n: number) => format.encodeTokenCount?.(n) ?? { input_tokens: n }
      const answered = await calls.providerAnswer(answer, {
        upstream,
        name: resolved.name,
        provider,
        request,
        sent,
        headers,
        resend,
        count,
      })
      if ('failure' in answered) {
        // A stream whose first frame is a cloud exception: the client's HTTP error, as for any error before a byte.
        guard.release()
        exchange.error = answered.failure.code
        return errorResult(format, answered.failure, exchange.headers)
      }
      answer = answered
    }
  } catch (error) {
    if (InterlinguaError.isInstance(error) && !guard.timedOut && !handle.cancelled) {
      // A fresh credential could not be had (the token endpoint refused): answered in the client's format.
      guard.release()
      throw error
    }
    return callFailure(exchange, guard, resolved.name)
  }

  const stream = route.kind === 'generate' && event.stream === true
  // A stream is bounded by the idle timeout between upstream chunks (the total timeout stops at its start).
  const watched = stream
    ? withIdleTimeout(answer, options.idleTimeoutMs ?? defaultIdleTimeoutMs, resolved.name, () => cancel(handle), guard)
    : undefined
  if (watched) answer = watched
  let result: ExchangeResult
  try {
    if (calls && provider && (answer.status < 200 || answer.status > 299)) {
      // A cloud's error answer is always re-encoded in the client's format: never its raw body, even in passthrough.
      const source = calls.errorSource(provider, provider.codec ?? getGatewayFormat(to as FormatId), answer)
      const onError = (error: ir.ErrorInfo) => {
        exchange.error = error.code
      }
      result = await translateAnswer(answer, source, format, { stream: false, onError, ...relay })
      Object.assign(result.headers, exchange.headers)
    } else if (sameFormat) {
      // Usage for onResponse, read from the forwarded bytes (not decoded, not re-encoded) only when someone listens.
      const usageField = options.onResponse && route.kind === 'generate' ? format.usageField : undefined
      const onUsage = (usage: ir.Usage) => {
        exchange.usage = usage
      }
      if (stream) {
        const tail = format.watchForwardedStream?.()
        const failed = () => {
          exchange.error = watched?.timedOut ? 'timeout' : 'upstream'
          return inStreamErrorText(
            format,
            watched?.timedOut ? idleFailure(resolved.name, options) : streamFailure,
            tail,
          )
        }
        const watcher = withTail(
          usageField
            ? askUsage
              ? usageChunkCutter(usageField, onUsage)
              : usageWatcher(usageField, onUsage)
            : undefined,
          tail,
        )
        result = await passthroughAnswer(answer, stream, relay, failed, format, watcher)
      } else result = await passthroughAnswer(answer, stream, relay, noStreamFailure, format)
      const body = result.body
      if (usageField && !isChunkSource(body) && body !== null && result.status >= 200 && result.status <= 299) {
        // A passthrough JSON answer is the upstream's bytes: scanned for its usage only because someone listens.
        const usage = usageOfBody(body, usageField)
        if (usage) onUsage(usage)
      }
      Object.assign(result.headers, exchange.headers)
      exchange.headers = result.headers
    } else {
      const respond: RespondOptions = {
        stream,
        streamJsonArray: route.streamJsonArray === true,
        includeUsage,
        request: (decoded as Converted<ir.Request>).value,
        onWarning,
        onUsage: (usage) => {
          exchange.usage = usage
        },
        onError: (error) => {
          exchange.error = error.code
        },
        ...relay,
      }
      if (input.onResponse) respond.onResponse = input.onResponse
      // A shared store's write for a JSON answer completes before the answer is sent (the client's next turn may
      // reach another instance); a stream's starts when it ends. A failed write costs continuity, not the answer.
      let remembering: Promise<void> | undefined
      if (reasoning) {
        respond.onAssistant = (parts) => {
          remembering = reasoning.store.remember(reasoning.scope, parts)?.catch(() => {})
        }
        // The store keeps reasoning, tool calls and provider data, never the answer's text: a long answer is not held.
        respond.assistantText = false
      }
      if (event.model !== undefined) respond.model = event.model
      result = await translateAnswer(answer, provider?.codec ?? getGatewayFormat(to as FormatId), format, respond)
      if (remembering) await remembering
      Object.assign(result.headers, exchange.headers)
    }
  } catch (error) {
    if (watched?.timedOut) {
      // The idle timeout before the first byte of a stream: nothing was sent yet, so a 504 in the client's format.
      guard.release()
      exchange.error = 'timeout'
      return errorResult(format, idleFailure(resolved.name, options), exchange.headers)
    }
    if (InterlinguaError.isInstance(error) && !guard.timedOut && !handle.cancelled) {
      guard.release()
      throw error
    }
    return callFailure(exchange, guard, resolved.name)
  }
  // A streamed answer is not bound by the timeout once it has started; the client leaving still cancels it.
  guard.stopTimer()
  if (isChunkSource(result.body)) result.body = observe(result.body, guard.unsubscribe)
  else guard.unsubscribe()
  return result
}

/** A JSON answer has no in-stream error frame. */
const noStreamFailure = () => undefined

/**
 * A chat-completions request body (JSON text) with `stream_options.include_usage: true`: appended in the text when the
 * client sent no `stream_options` (the usual case: the bytes stay the client's), else set in the parsed body.
 */
function withIncludeUsage(text: string, body: unknown): string {
  const record = body as Record<string, unknown>
  if (record.stream_options === undefined) {
    const appended = appendMember(text, 'stream_options', '{"include_usage":true}')
    if (appended !== undefined) return appended
  }
  const parsed = JSON.parse(text) as Record<string, unknown>
  const options = parsed.stream_options
  parsed.stream_options = { ...(typeof options === 'object' && options !== null ? options : {}), include_usage: true }
  return JSON.stringify(parsed)
}
