import type { Citation, WebSearchPart } from './content.js'
import type { ErrorInfo } from './error.js'
import type { ProviderData } from './format-id.js'
import type { FinishReason, Usage } from './response.js'

/**
 * The IR stream grammar (DESIGN §3):
 *
 *     message-start (block-start delta* block-end)* [usage]* finish
 *
 * or `error` at any point (nothing follows an error). Blocks are text, reasoning and tool-call; each
 * has an `index`, 0-based and contiguous in start order across all block kinds. Several blocks may be
 * open at once (chat-completions interleaves tool calls by index); every block that starts ends before
 * `finish`. `providerData` on a start, delta or end event is merged (per format namespace, later keys
 * win) into the block's part: this is how Anthropic `signature_delta` and a Gemini `thoughtSignature`
 * riding on a chunk's part travel.
 */
export type StreamEvent =
  | MessageStartEvent
  | TextStartEvent
  | TextDeltaEvent
  | TextEndEvent
  | ReasoningStartEvent
  | ReasoningDeltaEvent
  | ReasoningEndEvent
  | ToolCallStartEvent
  | ToolCallDeltaEvent
  | ToolCallEndEvent
  | WebSearchEvent
  | UsageEvent
  | FinishEvent
  | ErrorEvent
  | PingEvent

export interface MessageStartEvent {
  type: 'message-start'
  id: string
  model: string
  /** Epoch seconds. */
  created?: number
  /** Usage known at the start (Anthropic `message_start` input tokens). */
  usage?: Partial<Usage>
}

export interface TextStartEvent {
  type: 'text-start'
  index: number
  providerData?: ProviderData
}
export interface TextDeltaEvent {
  type: 'text-delta'
  index: number
  text: string
  providerData?: ProviderData
}
export interface TextEndEvent {
  type: 'text-end'
  index: number
  /** The sources the block's text cites (they arrive with or after its text). */
  citations?: Citation[]
  providerData?: ProviderData
}

/** A reasoning block. With `redactedData` set it is an Anthropic `redacted_thinking` block (no deltas follow). */
export interface ReasoningStartEvent {
  type: 'reasoning-start'
  index: number
  redactedData?: string
  providerData?: ProviderData
}
export interface ReasoningDeltaEvent {
  type: 'reasoning-delta'
  index: number
  text: string
  providerData?: ProviderData
}
export interface ReasoningEndEvent {
  type: 'reasoning-end'
  index: number
  providerData?: ProviderData
}

export interface ToolCallStartEvent {
  type: 'tool-call-start'
  index: number
  id: string
  name: string
  providerData?: ProviderData
}
/** A fragment of the arguments' JSON text; fragments concatenate. */
export interface ToolCallDeltaEvent {
  type: 'tool-call-delta'
  index: number
  argumentsDelta: string
  providerData?: ProviderData
}
export interface ToolCallEndEvent {
  type: 'tool-call-end'
  index: number
  providerData?: ProviderData
}

/**
 * A web search the provider ran (see `WebSearchPart`): one standalone event, not a block (no index, no deltas), sent
 * once its results are known. Encoders with no place for it leave it out.
 */
export interface WebSearchEvent {
  type: 'web-search'
  part: WebSearchPart
}

/** A usage update. Fields are running totals: the latest value of each field wins (never summed). */
export interface UsageEvent {
  type: 'usage'
  usage: Partial<Usage>
}

/** The last event of a successful stream. `usage` is final when present. */
export interface FinishEvent {
  type: 'finish'
  finishReason: FinishReason
  stopSequence?: string
  usage?: Usage
}

/** An error. Before the first content event the gateway turns it into an HTTP error; after it, into the client format's in-stream error frame. Nothing follows it. */
export interface ErrorEvent {
  type: 'error'
  error: ErrorInfo
}

/** A keep-alive. Encoders write a comment (or Anthropic `event: ping`); accumulators ignore it. */
export interface PingEvent {
  type: 'ping'
}
