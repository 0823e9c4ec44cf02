/**
 * Response translation at the Fetch level: an upstream `Response` of format A → the `Response` a client of format B
 * expects. The body kind follows the upstream's status and content type (error JSON, SSE, or JSON) and what the client
 * asked for (`stream`): an upstream JSON answer to a streaming client is replayed as events; upstream SSE to a
 * non-streaming client is accumulated. Same format: the bytes are passed through untouched.
 */
import type { FormatId } from '../formats/format.js'
import { getGatewayFormat } from '../formats/gateway.js'
import type * as ir from '../ir/index.js'
import { responseOfResult } from './exchange.js'
import { passthroughAnswer } from './passthrough.js'
import { keptHeaders, type RespondOptions, translateAnswer } from './respond.js'
import { answerOfResponse, cancel, createCancel } from './upstream.js'

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

/**
 * Translates an upstream response into the client's format.
 *
 * @example
 * const clientResponse = await translateResponse(await fetch(upstreamRequest), { from: 'messages', to: 'chat-completions', stream: true })
 */
export async function translateResponse(response: Response, options: TranslateResponseOptions): Promise<Response> {
  const handle = createCancel()
  const signal = options.signal
  if (signal) {
    if (signal.aborted) cancel(handle)
    else signal.addEventListener('abort', () => cancel(handle), { once: true })
  }
  const answer = answerOfResponse(response, handle)
  if (options.from === options.to) {
    if (!response.ok)
      return responseOfResult(
        await passthroughAnswer(answer, false, options, () => undefined, getGatewayFormat(options.to)),
      )
    const headers = keptHeaders(answer, true, options.relayHeaders)
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
  const respond: RespondOptions = { ...options }
  return responseOfResult(
    await translateAnswer(answer, getGatewayFormat(options.from), getGatewayFormat(options.to), respond),
  )
}
