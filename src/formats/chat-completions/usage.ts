import type * as ir from '../../ir/index.js'
import { finiteNumber as count } from '../../shared/finite-number.js'
import { isRecord } from '../../shared/is-record.js'

/** The wire usage object (subset we read and write). @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage */
export interface ChatCompletionsUsage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number; audio_tokens?: number } | null
  completion_tokens_details?: {
    reasoning_tokens?: number
    audio_tokens?: number
    accepted_prediction_tokens?: number
    rejected_prediction_tokens?: number
  } | null
}

/**
 * OpenAI semantics: `prompt_tokens` includes cached tokens, `completion_tokens` includes reasoning. Reads only numeric
 * fields (a stream chunk's usage is not schema-checked), so vendor garbage never reaches the IR.
 */
export function decodeUsage(usage: unknown): ir.Usage | undefined {
  if (!isRecord(usage)) return undefined
  const prompt = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : undefined
  const completion = isRecord(usage.completion_tokens_details) ? usage.completion_tokens_details : undefined
  const result: ir.Usage = {
    inputTokens: count(usage.prompt_tokens) ?? 0,
    outputTokens: count(usage.completion_tokens) ?? 0,
  }
  const cached = count(prompt?.cached_tokens)
  if (cached) result.cachedInputTokens = cached
  const written = count(prompt?.cache_write_tokens)
  if (written) result.cacheWriteInputTokens = written
  const reasoning = count(completion?.reasoning_tokens)
  if (reasoning) result.reasoningTokens = reasoning
  const total = count(usage.total_tokens)
  if (total !== undefined) result.totalTokens = total
  return result
}

/**
 * IR → wire usage. The detail objects are always written, zeros included, as the OpenAI API does: clients read
 * `prompt_tokens_details.cached_tokens` and `completion_tokens_details.reasoning_tokens` without null checks.
 */
export function encodeUsage(usage: ir.Usage): ChatCompletionsUsage {
  const promptDetails: NonNullable<ChatCompletionsUsage['prompt_tokens_details']> = {
    cached_tokens: usage.cachedInputTokens ?? 0,
    audio_tokens: 0,
  }
  if (usage.cacheWriteInputTokens !== undefined) promptDetails.cache_write_tokens = usage.cacheWriteInputTokens
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: promptDetails,
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  }
}
