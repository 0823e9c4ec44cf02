/** Responses usage ⇄ IR. @see responses-api.md §5.3 */
import type * as ir from '../../ir/index.js'
import { finiteNumber as num } from '../../shared/finite-number.js'
import { isRecord } from '../../shared/is-record.js'

export interface ResponsesUsage {
  input_tokens: number
  input_tokens_details: { cached_tokens: number; cache_write_tokens?: number }
  output_tokens: number
  output_tokens_details: { reasoning_tokens: number }
  total_tokens: number
}

/** Same semantics as the IR: `input_tokens` includes cached tokens, `output_tokens` includes reasoning. Total. */
export function decodeUsage(raw: unknown): ir.Usage | undefined {
  if (!isRecord(raw)) return undefined
  const usage: ir.Usage = { inputTokens: num(raw.input_tokens) ?? 0, outputTokens: num(raw.output_tokens) ?? 0 }
  const input = isRecord(raw.input_tokens_details) ? raw.input_tokens_details : {}
  const output = isRecord(raw.output_tokens_details) ? raw.output_tokens_details : {}
  const cached = num(input.cached_tokens)
  if (cached) usage.cachedInputTokens = cached
  const written = num(input.cache_write_tokens)
  if (written !== undefined) usage.cacheWriteInputTokens = written
  const reasoning = num(output.reasoning_tokens)
  if (reasoning) usage.reasoningTokens = reasoning
  const total = num(raw.total_tokens)
  if (total !== undefined) usage.totalTokens = total
  return usage
}

/**
 * IR → wire usage with every integer field present (0 when unknown): Codex fails the whole `response.completed`
 * when a details object lacks its integer (responses-api.md §5.3).
 */
export function encodeUsage(usage: Partial<ir.Usage>): ResponsesUsage {
  const input = usage.inputTokens ?? 0
  const output = usage.outputTokens ?? 0
  const details: ResponsesUsage['input_tokens_details'] = { cached_tokens: usage.cachedInputTokens ?? 0 }
  if (usage.cacheWriteInputTokens !== undefined) details.cache_write_tokens = usage.cacheWriteInputTokens
  return {
    input_tokens: input,
    input_tokens_details: details,
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens ?? input + output,
  }
}
