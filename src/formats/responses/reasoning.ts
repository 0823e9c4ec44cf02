/**
 * Policy 3 for Responses clients: another provider's reasoning signature travels in a `reasoning` item's
 * `encrypted_content` — the one field the AI SDK, the Agents SDK and Codex all send back unchanged
 * (responses-api.md §9.1) — as the project's versioned envelope (`shared/reasoning-envelope.ts`). The item's
 * `summary` holds the reasoning text (every client echoes it too); the envelope holds the signatures.
 *
 * - A reasoning item with an envelope is that reasoning part (a redacted one when the envelope carries its data).
 *   Reasoning with no signature at all (a chat-completions upstream's `reasoning_content`, a Gemini thought) gets the
 *   envelope of nothing: a client that keeps reasoning only with its `encrypted_content` (the AI SDK with
 *   `store: false` drops every reasoning item without one, and Codex asks for it with `include`) then still sends
 *   the text back in `summary`, and the item is recognisably the gateway's, never sent to OpenAI.
 * - A reasoning item with an empty `summary` whose envelope holds only Gemini data is a carrier for the part that
 *   follows it in the turn (a function call or text): Gemini wants its `thoughtSignature` back on the
 *   `functionCall` part, and a `function_call` item has no field any client echoes.
 *
 * Anything else in `encrypted_content` (OpenAI's own `gAAAA…` tokens) is not ours: the item is kept whole under
 * `providerData.responses.item` and only ever sent back to a Responses upstream.
 */
import type * as ir from '../../ir/index.js'
import { envelopeFor, unsignedEnvelope, unwrapEnvelope } from '../../shared/reasoning-envelope.js'

export type Carried =
  | { kind: 'reasoning'; providerData?: ir.ProviderData }
  | { kind: 'redacted'; data: string; providerData?: ir.ProviderData }
  | { kind: 'attach'; providerData: ir.ProviderData }

/** What a reasoning item's `encrypted_content` carries, or undefined when it is not our envelope. Never throws. */
export function readEnvelope(item: Record<string, unknown>): Carried | undefined {
  const envelope = unwrapEnvelope(item.encrypted_content)
  if (!envelope) return undefined
  const keys = Object.keys(envelope.providerData)
  if (envelope.redactedData !== undefined) {
    return keys.length > 0
      ? { kind: 'redacted', data: envelope.redactedData, providerData: envelope.providerData }
      : { kind: 'redacted', data: envelope.redactedData }
  }
  const emptySummary = !Array.isArray(item.summary) || item.summary.length === 0
  if (emptySummary && keys.length > 0 && keys.every((key) => key === 'content-generation')) {
    return { kind: 'attach', providerData: envelope.providerData }
  }
  return keys.length > 0 ? { kind: 'reasoning', providerData: envelope.providerData } : { kind: 'reasoning' }
}

/** The envelope for a reasoning / redacted part: another provider's signature, else the envelope of nothing. */
export function reasoningEnvelope(part: ir.ReasoningPart | ir.RedactedReasoningPart): string {
  const redacted = part.type === 'redacted-reasoning' ? part.data : undefined
  return envelopeFor(part.providerData, 'responses', redacted) ?? unsignedEnvelope()
}

/** The envelope of a Gemini signature riding on a function call or text part (undefined when there is none). */
export function attachEnvelope(providerData: ir.ProviderData | undefined): string | undefined {
  const signature = providerData?.['content-generation']?.thoughtSignature
  if (typeof signature !== 'string' || signature === '') return undefined
  return envelopeFor({ 'content-generation': { thoughtSignature: signature } }, 'responses')
}

/** Merges provider data namespaces (later keys win), as the IR stream grammar does. */
export function mergeData(
  base: ir.ProviderData | undefined,
  extra: ir.ProviderData | undefined,
): ir.ProviderData | undefined {
  if (!extra) return base
  const merged: ir.ProviderData = { ...base }
  for (const key of Object.keys(extra) as ir.FormatId[]) merged[key] = { ...merged[key], ...extra[key] }
  return merged
}
