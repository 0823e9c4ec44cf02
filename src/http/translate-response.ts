/**
 * Response translation at the Fetch level: an upstream `Response` of format A → the `Response` a client of format B
 * expects. The body kind follows the upstream's status and content type (error JSON, SSE, or JSON) and what the client
 * asked for (`stream`): an upstream JSON answer to a streaming client is replayed as events; upstream SSE to a
 * non-streaming client is accumulated. Same format: the bytes are passed through untouched.
 */
import { reportWarnings } from '../convert.js'
import type { Format, FormatId } from '../formats/format.js'
import { getFormat } from '../formats/index.js'
import type * as ir from '../ir/index.js'
import { maskSecrets } from '../shared/mask.js'
import { accumulate } from '../stream/accumulate.js'
import { createResponseEventStream } from '../stream/from-response.js'
import { decodeSse, encodeEvents, peekForError, tapEvents } from './streams.js'

export interface TranslateResponseOptions {
  /** The upstream's format. */
  from: FormatId
  /** The client's format. */
  to: FormatId
  /** The model id to report to the client. @defaultValue the upstream's */
  model?: string
  /** The client asked for a stream. @defaultValue true when the upstream answered with SSE */
  stream?: boolean
  /** content-generation `:streamGenerateContent` without `alt=sse`: answer with a JSON array. @defaultValue false */
  streamJsonArray?: boolean
  /** chat-completions: write the final usage chunk (`stream_options.include_usage`). @defaultValue false */
  includeUsage?: boolean
  /** The client's decoded request: encoders restore what only it says (Responses custom tools). @defaultValue none */
  request?: ir.Request
  strict?: boolean
  onWarning?: (warning: ir.Warning) => void
  /** Aborting it cancels the upstream body. */
  signal?: AbortSignal
  /** Receives the final usage, when the answer carries it (at the end of a stream). */
  onUsage?: (usage: ir.Usage) => void
  /** Receives an error the answer carries (an HTTP error, or an in-stream error after the first byte). */
  onError?: (error: ir.ErrorInfo) => void
  /** Receives the assistant's parts once the answer is complete (streams are folded only when this is set). */
  onAssistant?: (parts: ir.AssistantPart[]) => void
  /**
   * Secrets (the upstream's key) masked wherever an upstream error message echoes them; `sk-…`/`AIza…`-shaped tokens
   * are always masked. @defaultValue none
   */
  secrets?: ReadonlyArray<string | undefined>
  /** Same format: upstream headers relayed besides the allow-list (lower-case names). @defaultValue none */
  relayHeaders?: ReadonlyArray<string>
}

/** Headers of the upstream worth keeping (rate-limit and retry hints); passthrough also keeps the body's own headers. */
function keptHeaders(upstream: Headers, passthrough = false, relay: ReadonlyArray<string> = []): Headers {
  const headers = new Headers()
  for (const [name, value] of upstream) {
    if (
      name === 'retry-after' ||
      name === 'retry-after-ms' ||
      name.includes('ratelimit') ||
      name === 'x-should-retry' ||
      (passthrough && (passthroughHeaders.has(name) || relay.includes(name)))
    ) {
      headers.set(name, value)
    }
  }
  return headers
}

/**
 * The allow-list of what a passthrough answer relays besides rate-limit and retry hints: never `set-cookie`, account
 * ids (`openai-organization`, `anthropic-organization-id`, `openai-project`) or hop-by-hop headers.
 */
const passthroughHeaders = new Set(['content-type', 'cache-control', 'openai-processing-ms', 'openai-version'])

/** An `{error}` body answered with HTTP 200 (Gemini does this): an error, not an empty success. */
function isErrorBody(body: unknown): body is { error: Record<string, unknown> } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false
  const record = body as Record<string, unknown>
  const error = record.error
  if (typeof error !== 'object' || error === null) return false
  return !('candidates' in record || 'choices' in record || 'content' in record || 'output' in record)
}

/** An error passed through in its own format, with key-shaped text masked and only allow-listed headers. */
async function passthroughError(response: Response, options: TranslateResponseOptions): Promise<Response> {
  const text = maskSecrets(await response.text(), options.secrets)
  return new Response(text, {
    status: response.status,
    statusText: response.statusText,
    headers: keptHeaders(response.headers, true, options.relayHeaders),
  })
}

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('text/event-stream')
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** An upstream error response → the client's format (status kept, `retry-after` kept, key-shaped text masked). */
async function translateError(
  response: Response,
  source: Format,
  target: Format,
  options: TranslateResponseOptions,
  known?: { body: unknown; status: number },
) {
  const body = known ? known.body : parseJson(await response.text())
  const info = source.decodeError(known ? known.status : response.status, body)
  info.message = maskSecrets(info.message, options.secrets)
  const retryAfter = Number(response.headers.get('retry-after'))
  if (info.retryAfter === undefined && Number.isFinite(retryAfter) && retryAfter >= 0) info.retryAfter = retryAfter
  options.onError?.(info)
  const encoded = target.encodeError(info)
  const headers = keptHeaders(response.headers)
  headers.set('content-type', 'application/json')
  return new Response(JSON.stringify(encoded.body), { status: encoded.status, headers })
}

/** An error (before any content) as a JSON error response of the client's format. */
export function errorInfoResponse(target: Format, info: ir.ErrorInfo, headers = new Headers()): Response {
  const encoded = target.encodeError(info)
  headers.set('content-type', 'application/json')
  return new Response(JSON.stringify(encoded.body), { status: encoded.status, headers })
}

function cancelOnAbort(response: Response, signal: AbortSignal | undefined): void {
  if (!signal || !response.body) return
  const body = response.body
  signal.addEventListener('abort', () => body.cancel(signal.reason).catch(() => {}), { once: true })
}

/**
 * Answers the client from IR events: an HTTP error when the stream fails before any content, else the client's
 * stream (SSE or JSON array), or the accumulated JSON response for a non-streaming client.
 */
export async function respondWithEvents(
  events: ReadableStream<ir.StreamEvent>,
  target: Format,
  options: Omit<TranslateResponseOptions, 'from' | 'to'>,
  headers: Headers,
): Promise<Response> {
  const peeked = await peekForError(events)
  if ('error' in peeked) {
    peeked.error.message = maskSecrets(peeked.error.message, options.secrets)
    options.onError?.(peeked.error)
    return errorInfoResponse(target, peeked.error, headers)
  }
  const tapped = peeked.events.pipeThrough(tapEvents(options))
  if (options.stream === false) {
    let response: ir.Response
    try {
      response = await accumulate(tapped)
    } catch (error) {
      const info: ir.ErrorInfo =
        typeof error === 'object' && error !== null && 'toErrorInfo' in error && typeof error.toErrorInfo === 'function'
          ? (error.toErrorInfo() as ir.ErrorInfo)
          : { code: 'upstream', status: 502, message: 'The upstream stream failed before it finished' }
      options.onError?.(info)
      return errorInfoResponse(target, info, headers)
    }
    return respondWithResponse(response, target, { ...options, onUsage: undefined, onAssistant: undefined }, headers)
  }
  const encoded = encodeEvents(tapped, target, options)
  for (const [name, value] of encoded.headers) headers.set(name, value)
  return new Response(encoded.body, { status: 200, headers })
}

/** Answers the client from an IR response: JSON, or replayed as a stream when the client asked for one. */
export function respondWithResponse(
  response: ir.Response,
  target: Format,
  options: Omit<TranslateResponseOptions, 'from' | 'to'>,
  headers: Headers,
  warnings: ir.Warning[] = [],
): Response | Promise<Response> {
  if (options.model !== undefined) response.model = options.model
  if (options.stream) {
    reportWarnings(warnings, { strict: false, onWarning: options.onWarning, to: target.id })
    return respondWithEvents(createResponseEventStream(response), target, options, headers)
  }
  if (response.usage) options.onUsage?.(response.usage)
  options.onAssistant?.(response.content)
  const encoded = target.encodeResponse(response, options.request ? { request: options.request } : {})
  reportWarnings([...warnings, ...encoded.warnings], { strict: false, onWarning: options.onWarning, to: target.id })
  headers.set('content-type', 'application/json')
  return new Response(JSON.stringify(encoded.value), { status: 200, headers })
}

/**
 * Translates an upstream response into the client's format.
 *
 * @example
 * const clientResponse = await translateResponse(await fetch(upstreamRequest), { from: 'messages', to: 'chat-completions', stream: true })
 */
export async function translateResponse(response: Response, options: TranslateResponseOptions): Promise<Response> {
  const source = getFormat(options.from)
  const target = getFormat(options.to)
  cancelOnAbort(response, options.signal)
  if (options.from === options.to) {
    if (!response.ok) return passthroughError(response, options)
    const headers = keptHeaders(response.headers, true, options.relayHeaders)
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
  if (!response.ok) return translateError(response, source, target, options)
  const headers = keptHeaders(response.headers)
  const sse = isEventStream(response)
  const stream = options.stream ?? sse
  if (sse && response.body) {
    return respondWithEvents(decodeSse(response.body, source), target, { ...options, stream }, headers)
  }
  const body = parseJson(await response.text())
  if (isErrorBody(body)) {
    const code = body.error.code
    const status = typeof code === 'number' && code >= 400 && code <= 599 ? code : 502
    return translateError(response, source, target, options, { body, status })
  }
  let decoded: ReturnType<Format['decodeResponse']>
  try {
    decoded = source.decodeResponse(body)
  } catch (error) {
    const detail = error instanceof Error ? `: ${error.message.slice(0, 200)}` : ''
    const info: ir.ErrorInfo = {
      code: 'upstream',
      status: 502,
      message: `The upstream's ${options.from} response is invalid${detail}`,
    }
    options.onError?.(info)
    return errorInfoResponse(target, info, headers)
  }
  return respondWithResponse(decoded.value, target, { ...options, stream }, headers, decoded.warnings)
}
