import type * as ir from '../../ir/index.js'
import { finiteNumber } from '../../shared/finite-number.js'
import type { ConverseUsage } from './schema.js'

/**
 * Converse semantics (as Anthropic's): `inputTokens` excludes cache reads and writes, so the IR's total input is the
 * sum of the three; `outputTokens` includes reasoning. Total: `undefined` for anything that is not a usage object.
 */
export function decodeUsage(usage: unknown): ir.Usage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined
  const wire = usage as ConverseUsage
  const read = finiteNumber(wire.cacheReadInputTokens) ?? 0
  const written = finiteNumber(wire.cacheWriteInputTokens) ?? 0
  const input = finiteNumber(wire.inputTokens)
  const output = finiteNumber(wire.outputTokens)
  if (input === undefined && output === undefined) return undefined
  const result: ir.Usage = { inputTokens: (input ?? 0) + read + written, outputTokens: output ?? 0 }
  if (read) result.cachedInputTokens = read
  if (written) result.cacheWriteInputTokens = written
  const total = finiteNumber(wire.totalTokens)
  if (total !== undefined) result.totalTokens = total
  return result
}

export function encodeUsage(usage: Partial<ir.Usage>): ConverseUsage {
  const read = usage.cachedInputTokens ?? 0
  const written = usage.cacheWriteInputTokens ?? 0
  const input = Math.max(0, (usage.inputTokens ?? 0) - read - written)
  const output = usage.outputTokens ?? 0
  const wire: ConverseUsage = {
    inputTokens: input,
    outputTokens: output,
    totalTokens: usage.totalTokens ?? input + output + read + written,
  }
  if (read) wire.cacheReadInputTokens = read
  if (written) wire.cacheWriteInputTokens = written
  return wire
}
