import type { AssistantPart } from './content.js'
import type { WireFormatId } from './format-id.js'

/** @see DESIGN.md §3: a turn that contains a tool call is `tool-calls` whatever the raw value. */
export type UnifiedFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other'

export interface FinishReason {
  unified: UnifiedFinishReason
  /** The vendor's own value, e.g. `end_turn`, `STOP`. */
  raw?: string
  /** Which format `raw` belongs to; an encoder reuses `raw` only when this is its own id. */
  rawFormat?: WireFormatId
}

/**
 * Usage, normalised once (DESIGN §3).
 * - `inputTokens`: all input, cache reads and writes included.
 * - `outputTokens`: all output, reasoning included.
 */
export interface Usage {
  inputTokens: number
  outputTokens: number
  /** Subset of `inputTokens` read from cache. */
  cachedInputTokens?: number
  /** Subset of `inputTokens` written to cache. */
  cacheWriteInputTokens?: number
  /** Subset of `outputTokens` spent on reasoning. */
  reasoningTokens?: number
  /** Usually input + output; Gemini adds tool-use prompt tokens. */
  totalTokens?: number
}

/** An additional choice (n > 1 / candidateCount > 1). */
export interface Choice {
  index: number
  content: AssistantPart[]
  finishReason: FinishReason
}

export interface Response {
  id: string
  model: string
  /** Epoch seconds. */
  created?: number
  /** The (first) choice's content, in order. */
  content: AssistantPart[]
  finishReason: FinishReason
  /** The stop sequence that matched, when known (Anthropic `stop_sequence`). */
  stopSequence?: string
  usage?: Usage
  /** Choices beyond the first, for formats that can return several. */
  extraChoices?: Choice[]
  /** Response fields with no IR equivalent, kept under the source format's id (see `Request.extensions`). */
  extensions?: { [F in WireFormatId]?: Record<string, unknown> }
}
