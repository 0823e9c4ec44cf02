/**
 * The stream half of a format's contract (`../formats/format.ts` re-exports it): the SSE shapes a format's stream
 * steps read and write, and the two steps the pipeline drives. It lives here, below the formats, so that the stream
 * pipeline plugs a format in without importing the formats: the formats import the stream folder, never the reverse.
 */
import type * as ir from '../ir/index.js'
import type { StreamStep } from './step.js'

/** An SSE message as parsed (eventsource-parser's `EventSourceMessage` shape: `event`, `data`, `id`). */
export interface SseMessage {
  /** The `event:` field; undefined when the message has none (browsers default it to `message`). */
  event?: string | undefined
  /** The last `id:` field of the message, if any. */
  id?: string | undefined
  /** The `data:` lines, joined with `\n`. */
  data: string
}

/** An SSE frame to write. `comment` alone writes `: comment` (a keep-alive). */
export interface SseFrame {
  event?: string
  data?: string
  comment?: string
}

export interface EncodeStreamOptions extends EncodeResponseOptions {
  /** chat-completions: write the final `choices: []` usage chunk (the client sent `stream_options.include_usage`). */
  includeUsage?: boolean
  /**
   * Responses: called with the response of the `response.completed` / `response.incomplete` event as the client
   * receives it (the gateway's response store keeps it without reading the stream back).
   */
  onResponse?: (response: Record<string, unknown>) => void
}

export interface EncodeResponseOptions {
  /**
   * The request this answers, as the client sent it (decoded). Lets an encoder restore what only the request says:
   * the responses encoder writes a call of a `custom` tool (Codex's `apply_patch`) as a `custom_tool_call`.
   */
  request?: ir.Request
}

/** What the stream pipeline drives of a format (`Format` extends it). */
export interface StreamCodec {
  /**
   * Upstream SSE → IR events, as a synchronous push step (fresh state per call). Bad vendor data becomes an `error`
   * event, never a throw. The gateway drives it directly; `createDecodeStream` is the same thing as a Web stream.
   */
  decodeStreamStep(): StreamStep<SseMessage, ir.StreamEvent>
  /** IR events → this format's SSE frames (event names, `[DONE]`, keep-alives, in-stream errors), as a push step. */
  encodeStreamStep(options?: EncodeStreamOptions): StreamStep<ir.StreamEvent, SseFrame>
}
