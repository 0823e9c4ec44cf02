import type * as ir from '../../ir/index.js'

/** @see https://ai.google.dev/api/generate-content#UsageMetadata */
export interface ContentGenerationUsage {
  promptTokenCount?: number
  cachedContentTokenCount?: number
  candidatesTokenCount?: number
  thoughtsTokenCount?: number
  toolUsePromptTokenCount?: number
  totalTokenCount?: number
  [key: string]: unknown
}

/**
 * Gemini semantics: `promptTokenCount` includes cached content; `candidatesTokenCount` excludes
 * thoughts, so output = candidates + thoughts. Tool-use prompt tokens count as input.
 */
export function decodeUsage(usage: ContentGenerationUsage | null | undefined): ir.Usage | undefined {
  if (!usage) return undefined
  const thoughts = usage.thoughtsTokenCount ?? 0
  const result: ir.Usage = {
    inputTokens: (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0),
    outputTokens: (usage.candidatesTokenCount ?? 0) + thoughts,
  }
  if (usage.cachedContentTokenCount) result.cachedInputTokens = usage.cachedContentTokenCount
  if (thoughts) result.reasoningTokens = thoughts
  if (usage.totalTokenCount !== undefined) result.totalTokens = usage.totalTokenCount
  return result
}

export function encodeUsage(usage: Partial<ir.Usage>): ContentGenerationUsage {
  const reasoning = usage.reasoningTokens ?? 0
  const input = usage.inputTokens ?? 0
  const output = usage.outputTokens ?? 0
  const wire: ContentGenerationUsage = {
    promptTokenCount: input,
    candidatesTokenCount: Math.max(0, output - reasoning),
    totalTokenCount: usage.totalTokens ?? input + output,
  }
  if (usage.cachedInputTokens) wire.cachedContentTokenCount = usage.cachedInputTokens
  if (reasoning) wire.thoughtsTokenCount = reasoning
  return wire
}
