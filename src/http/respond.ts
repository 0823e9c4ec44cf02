/**
 * The gateway's answers as exchange results (status, a plain header record, a body that is a string or a chunk
 * source): an upstream answer of format A → what a client of format B expects. `translateResponse` (the Web API) and
 * the gateway both run on this; only the edges build `Response` objects.
 */
import { reportWarnings } from '../convert.js'
import { InterlinguaError } from '../errors.js'
import type { Format, WireFormatId } from '../formats/format.js'
import type * as ir from '../ir/index.js'
import { maskSecrets } from '../shared/mask.js'
import { createSnapshot, finalizeSnapshot, foldEvent } from '../stream/accumulate.js'
import { responseToEvents } from '../stream/from-response.js'
import { SSE_HEADERS } from '../stream/sse-encode.js'
import { chainSteps, clearBuffer, type StreamStep, takeJoined } from '../stream/step.js'
import {
  type ClientEncodeOptions,
  clientTextStep,
  type EventHooks,
  type EventPuller,
  listPuller,
  ssePuller,
  TapStep,
} from './event-source.js'
import type { ChunkSource, ExchangeResult } from './exchange.js'
import { readAnswerText } from './read-limited.js'
import type { UpstreamAnswer } from './upstream.js'

export type Headers_ = Record<string, string>

export interface RespondOptions extends ClientEncodeOptions, EventHooks {
  /** The client asked for a stream (else the answer is JSON). */
  stream?: boolean | undefined
  onWarning?: ((warning: ir.Warning) => void) | undefined
  /**
   * Secrets (the upstream's key) masked wherever an upstream error message echoes them; `sk-…`/`AIza…`-shaped tokens
   * are always masked. @defaultValue none
   */
  secrets?: ReadonlyArray<string | undefined> | undefined
  /** Same format: upstream headers relayed besides the allow-list (lower-case names). @defaultValue none */
  relayHeaders?: ReadonlyArray<string> | undefined
  /** Largest whole (non-streamed) upstream answer read into memory → 502. @defaultValue 64 MiB */
  maxResponseBytes?: number | undefined
  /** The upstream's name and URL path (no query), named when its answer shows the URL is wrong. @defaultValue none */
  upstreamAt?: UpstreamAt | undefined
}

/** Which upstream was called, and at which URL path (without the query: it may carry a key). */
export interface UpstreamAt {
  name: string
  path: string
}

/** A JSON body (serialised once). */
export function jsonResult(value: unknown, headers: Headers_ = {}, status = 200): ExchangeResult {
  headers['content-type'] = 'application/json'
  return { status, headers, body: JSON.stringify(value) }
}

/** An error in the client's format, with `retry-after` when known. */
export function errorResult(target: Format, info: ir.ErrorInfo, headers: Headers_ = {}): ExchangeResult {
  const encoded = target.encodeError(info)
  if (info.retryAfter !== undefined && headers['retry-after'] === undefined)
    headers['retry-after'] = String(info.retryAfter)
  return jsonResult(encoded.body, headers, encoded.status)
}

/**
 * The allow-list of what a passthrough answer relays besides rate-limit and retry hints: never `set-cookie`, account
 * ids (`openai-organization`, `anthropic-organization-id`, `openai-project`) or hop-by-hop headers.
 */
const passthroughAllowed = new Set(['content-type', 'cache-control', 'openai-processing-ms', 'openai-version'])

/** Headers of the upstream worth keeping (rate-limit and retry hints); passthrough also keeps the body's own headers. */
export function keptHeaders(
  answer: Pick<UpstreamAnswer, 'forEachHeader'>,
  passthrough = false,
  relay: ReadonlyArray<string> = [],
): Headers_ {
  const headers: Headers_ = {}
  answer.forEachHeader((value, name) => {
    if (
      name === 'retry-after' ||
      name === 'retry-after-ms' ||
      name.includes('ratelimit') ||
      name === 'x-should-retry' ||
      (passthrough && (passthroughAllowed.has(name) || relay.includes(name)))
    )
      headers[name] = value
  })
  return headers
}

/** An `{error}` body answered with HTTP 200 (Gemini does this): an error, not an empty success. */
function isErrorBody(body: unknown): body is { error: Record<string, unknown> } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false
  const record = body as Record<string, unknown>
  const error = record.error
  if (typeof error !== 'object' || error === null) return false
  return !('candidates' in record || 'choices' in record || 'content' in record || 'output' in record)
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const contentEvents = new Set<ir.StreamEvent['type']>(['message-start', 'ping', 'usage'])

/** The events whose frames carry what a client waits for (text, reasoning, a tool call, an error). */
const firstContent = new Set<ir.StreamEvent['type']>([
  'text-delta',
  'reasoning-delta',
  'tool-call-start',
  'tool-call-delta',
  'error',
])

/**
 * Encodes pulled events for the client: the events already read first, then one chunk per upstream chunk — except
 * that the first content frame goes out on its own as soon as it is encoded: when a whole short answer arrives in one
 * upstream read, its first text is not held back until the rest of that read is translated.
 */
function encodedSource(
  puller: EventPuller,
  first: ir.StreamEvent[],
  more: boolean,
  step: StreamStep<ir.StreamEvent, string>,
  tap: TapStep,
): ChunkSource {
  let events = first
  let at = 0
  let ended = !more
  let done = false
  let contentSent = false
  const texts: string[] = []
  return {
    async next() {
      // What one push produced past MAX_JOINED_TEXT goes out over several calls.
      if (texts.length > 0) return takeJoined(texts)
      while (!done) {
        if (at >= events.length && !ended) {
          events = []
          at = 0
          ended = !(await puller.pull(events))
        }
        if (done) return undefined
        while (at < events.length) {
          const event = events[at++] as ir.StreamEvent
          step.push(event, texts)
          if (!contentSent && texts.length > 0 && firstContent.has(event.type)) {
            contentSent = true
            break
          }
        }
        if (tap.failed) {
          at = events.length
          if (!ended) {
            ended = true
            puller.cancel()
          }
        }
        if (ended && at >= events.length) {
          step.end(texts)
          done = true
        }
        if (texts.length > 0) return takeJoined(texts)
      }
      return undefined
    },
    cancel() {
      if (done) return
      done = true
      puller.cancel()
    },
  }
}

/**
 * Answers from pulled IR events: an HTTP error when the events fail before any content, else the client's stream
 * (SSE or JSON array), or the accumulated JSON response for a non-streaming client.
 */
export async function respondWithEvents(
  puller: EventPuller,
  target: Format,
  options: RespondOptions,
  headers: Headers_,
): Promise<ExchangeResult> {
  const seen: ir.StreamEvent[] = []
  let more = true
  let scanned = 0
  peek: while (more) {
    more = await puller.pull(seen)
    for (; scanned < seen.length; scanned++) {
      const event = seen[scanned] as ir.StreamEvent
      if (event.type === 'error') {
        puller.cancel()
        event.error.message = maskSecrets(event.error.message, options.secrets)
        options.onError?.(event.error)
        return errorResult(target, event.error, headers)
      }
      if (!contentEvents.has(event.type)) break peek
    }
  }
  const tap = new TapStep(options)
  if (options.stream === false) {
    const snapshot = createSnapshot()
    const tapped: ir.StreamEvent[] = []
    let response: ir.Response
    try {
      for (let events = seen; ; events = []) {
        for (const event of events) tap.push(event, tapped)
        for (const event of tapped) foldEvent(snapshot, event)
        clearBuffer(tapped)
        if (!more) break
        more = await puller.pull(events)
      }
      response = finalizeSnapshot(snapshot)
    } catch (error) {
      puller.cancel()
      const info: ir.ErrorInfo =
        typeof error === 'object' && error !== null && 'toErrorInfo' in error && typeof error.toErrorInfo === 'function'
          ? (error.toErrorInfo() as ir.ErrorInfo)
          : { code: 'upstream', status: 502, message: 'The upstream stream failed before it finished' }
      options.onError?.(info)
      return errorResult(target, info, headers)
    }
    return respondWithResponse(response, target, { ...options, onUsage: undefined, onAssistant: undefined }, headers)
  }
  const step = chainSteps(tap, clientTextStep(target, options))
  Object.assign(headers, options.streamJsonArray ? { 'content-type': 'application/json' } : SSE_HEADERS)
  return { status: 200, headers, body: encodedSource(puller, seen, more, step, tap) }
}

/** Answers from an IR response: JSON, or replayed as a stream when the client asked for one. */
export function respondWithResponse(
  response: ir.Response,
  target: Format,
  options: RespondOptions,
  headers: Headers_,
  warnings: ir.Warning[] = [],
): ExchangeResult | Promise<ExchangeResult> {
  if (options.model !== undefined) response.model = options.model
  if (options.stream) {
    reportWarnings(warnings, { strict: false, onWarning: options.onWarning, to: target.id })
    return respondWithEvents(listPuller(responseToEvents(response)), target, options, headers)
  }
  if (response.usage) options.onUsage?.(response.usage)
  options.onAssistant?.(response.content)
  const encoded = target.encodeResponse(response, options.request ? { request: options.request } : {})
  reportWarnings([...warnings, ...encoded.warnings], { strict: false, onWarning: options.onWarning, to: target.id })
  return jsonResult(encoded.value, headers)
}

/** An upstream error (HTTP, or an `{error}` body with 200) → the client's format, status and retry hints kept, keys masked. */
function translateError(
  answer: UpstreamAnswer,
  info: ir.ErrorInfo,
  target: Format,
  options: RespondOptions,
): ExchangeResult {
  info.message = maskSecrets(info.message, options.secrets)
  const given = answer.header('retry-after')
  const retryAfter = given === null ? Number.NaN : Number(given)
  if (info.retryAfter === undefined && Number.isFinite(retryAfter) && retryAfter >= 0) info.retryAfter = retryAfter
  options.onError?.(info)
  const encoded = target.encodeError(info)
  const headers = keptHeaders(answer)
  // A delay the error itself names (Gemini's RetryInfo, Bedrock's throttling) reaches the client as `retry-after`.
  if (info.retryAfter !== undefined && headers['retry-after'] === undefined)
    headers['retry-after'] = String(info.retryAfter)
  return jsonResult(encoded.body, headers, encoded.status)
}

/** An upstream answer of another format → the client's (error, SSE or JSON, whichever the upstream sent). */
export async function translateAnswer(
  answer: UpstreamAnswer,
  source: Format<WireFormatId>,
  target: Format,
  options: RespondOptions,
): Promise<ExchangeResult> {
  const headers = keptHeaders(answer)
  const sse =
    answer.status >= 200 && answer.status <= 299 && (answer.header('content-type') ?? '').includes('text/event-stream')
  let text = ''
  if (!sse) {
    try {
      text = await readAnswerText(answer, options.maxResponseBytes)
    } catch (error) {
      if (!InterlinguaError.isInstance(error)) throw error
      const info = error.toErrorInfo()
      options.onError?.(info)
      return errorResult(target, info, headers)
    }
  }
  if (answer.status < 200 || answer.status > 299) {
    const body = parseJson(text)
    const info = isJsonObject(body)
      ? source.decodeError(answer.status, body)
      : opaqueErrorInfo(source, answer, text, options.upstreamAt)
    return translateError(answer, info, target, options)
  }
  const stream = options.stream ?? sse
  if (sse) return respondWithEvents(ssePuller(answer, source), target, { ...options, stream }, headers)
  const body = parseJson(text)
  if (isErrorBody(body)) {
    const code = body.error.code
    const status = typeof code === 'number' && code >= 400 && code <= 599 ? code : 502
    return translateError(answer, source.decodeError(status, body), target, options)
  }
  let decoded: ReturnType<Format['decodeResponse']>
  try {
    decoded = source.decodeResponse(body)
  } catch (error) {
    const detail = error instanceof Error ? `: ${error.message.slice(0, 200)}` : ''
    const info: ir.ErrorInfo = {
      code: 'upstream',
      status: 502,
      message: `The upstream's ${source.id} response is invalid${detail}`,
    }
    options.onError?.(info)
    return errorResult(target, info, headers)
  }
  return respondWithResponse(decoded.value, target, { ...options, stream }, headers, decoded.warnings)
}

/**
 * An upstream error body that is not JSON (a proxy's HTML page, plain text): an error of its status in `source`'s
 * terms, with the text as message only when it is short plain text — never markup. A 404 of that kind means the URL is
 * not the API's (a wrong `baseURL`; every supported API answers its own 404s in JSON): a 502 naming the upstream and
 * the path it was sent to, never a 404 that reads like a missing model.
 */
export function opaqueErrorInfo(
  source: Format<WireFormatId>,
  answer: UpstreamAnswer,
  text: string,
  at?: UpstreamAt,
): ir.ErrorInfo {
  const type = (answer.header('content-type') ?? '').split(';')[0]?.trim()
  if (answer.status === 404 && at) {
    const body = type ? ` with a ${type} body` : ''
    const message = `The upstream "${at.name}" answered HTTP 404${body} for POST ${at.path} (check its baseURL)`
    return { code: 'upstream', status: 502, message }
  }
  const info = source.decodeError(answer.status, undefined)
  const plain = text.trim()
  info.message =
    plain !== '' && plain.length <= 300 && !plain.startsWith('<')
      ? plain
      : `The upstream answered HTTP ${answer.status}${type ? ` with a ${type} body` : ''}`
  return info
}

export function isJsonObject(body: unknown): boolean {
  return typeof body === 'object' && body !== null
}
