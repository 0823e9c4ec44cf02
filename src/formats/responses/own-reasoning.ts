/**
 * Policy 1's exception for a Responses passthrough (issue 21 §4): a client whose earlier turn came from another
 * provider sends back `reasoning` items whose `encrypted_content` is the gateway's envelope (`il1.…`, an Anthropic
 * signature or Gemini's per-call signature) — OpenAI cannot verify it and rejects the request. Those items are
 * dropped (`dropped` warning), as the translated path leaves another provider's reasoning out; OpenAI's own reasoning
 * items go as they came. Only called when the body's text holds the envelope marker.
 */
import type * as ir from '../../ir/index.js'
import { isRecord } from '../../shared/is-record.js'
import { isEnvelope } from '../../shared/reasoning-envelope.js'
import type { Converted } from '../format.js'

/** The body without another provider's reasoning items, or undefined when it holds none. */
export function ownReasoningOnly(body: unknown): Converted<unknown> | undefined {
  if (!isRecord(body) || !Array.isArray(body.input)) return undefined
  const warnings: ir.Warning[] = []
  const input = body.input.filter((item: unknown, i) => {
    if (!isRecord(item) || item.type !== 'reasoning' || !isEnvelope(item.encrypted_content)) return true
    warnings.push({
      type: 'dropped',
      path: `input[${i}]`,
      message: 'reasoning of another provider cannot be replayed to a Responses upstream',
    })
    return false
  })
  return warnings.length > 0 ? { value: { ...body, input }, warnings } : undefined
}
