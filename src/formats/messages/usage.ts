import type * as ir from '../../ir/index.js'

/** @see https://docs.anthropic.com/en/api/messages#response-usage */
export interface MessagesUsage {
  input_tokens: number
  output_tokens: number
  cache_creation_input_tokens?: number | null
  cache_read_input_tokens?: number | null
  output_tokens_details?: { thinking_tokens?: number | null } | null
  [key: string]: unknown
}

/**
 * Anthropic semantics: `input_tokens` excludes cache reads and writes (total input is the sum of the
 * three); `output_tokens` includes thinking.
 */
export function decodeUsage(usage: Partial<MessagesUsage> | null | undefined): ir.Usage | undefined {
  if (!usage) return undefined
  const read = usage.cache_read_input_tokens ?? 0
  const written = usage.cache_creation_input_tokens ?? 0
  const result: ir.Usage = {
    inputTokens: (usage.input_tokens ?? 0) + read + written,
    outputTokens: usage.output_tokens ?? 0,
  }
  if (read) result.cachedInputTokens = read
  if (written) result.cacheWriteInputTokens = written
  const thinking = usage.output_tokens_details?.thinking_tokens
  if (thinking) result.reasoningTokens = thinking
  return result
}

/** Partial form for stream deltas: only the fields present in `usage` are converted. */
export function decodePartialUsage(usage: Partial<MessagesUsage> | null | undefined): Partial<ir.Usage> {
  if (!usage) return {}
  const result: Partial<ir.Usage> = {}
  if (
    usage.input_tokens !== undefined ||
    usage.cache_read_input_tokens != null ||
    usage.cache_creation_input_tokens != null
  ) {
    const read = usage.cache_read_input_tokens ?? 0
    const written = usage.cache_creation_input_tokens ?? 0
    result.inputTokens = (usage.input_tokens ?? 0) + read + written
    if (usage.cache_read_input_tokens != null) result.cachedInputTokens = read
    if (usage.cache_creation_input_tokens != null) result.cacheWriteInputTokens = written
  }
  if (usage.output_tokens !== undefined) result.outputTokens = usage.output_tokens
  const thinking = usage.output_tokens_details?.thinking_tokens
  if (thinking != null) result.reasoningTokens = thinking
  return result
}

export function encodeUsage(usage: Partial<ir.Usage>): MessagesUsage {
  const read = usage.cachedInputTokens ?? 0
  const written = usage.cacheWriteInputTokens ?? 0
  const wire: MessagesUsage = {
    input_tokens: Math.max(0, (usage.inputTokens ?? 0) - read - written),
    output_tokens: usage.outputTokens ?? 0,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: read,
  }
  if (usage.reasoningTokens !== undefined) wire.output_tokens_details = { thinking_tokens: usage.reasoningTokens }
  return wire
}
