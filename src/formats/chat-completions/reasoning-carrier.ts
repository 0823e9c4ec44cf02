import type * as ir from '../../ir/index.js'
import { isRecord } from '../../shared/is-record.js'

/**
 * Policy 3 — the chat-completions reasoning carrier.
 *
 * Chat Completions has no field for reasoning text or signatures, yet Anthropic and Gemini need them back
 * on the next turn. interlingua carries them on the assistant message in two extra fields that the
 * official `openai` SDK passes through untouched (responses are returned as parsed JSON; request params
 * are sent verbatim; its stream accumulator `Object.assign`s unknown delta fields):
 *
 * - `reasoning_content: string` — the reasoning text, concatenated (the DeepSeek/vLLM convention), for
 *   display. In streams it arrives as incremental `delta.reasoning_content` fragments.
 * - `reasoning_details: ReasoningDetail[]` — the lossless record (naming follows OpenRouter's
 *   `reasoning_details`). One entry per reasoning / redacted-reasoning part, plus one `provider-data`
 *   entry per other part that carries foreign provider data (e.g. a Gemini `thoughtSignature` on a
 *   function call). `index` is the part's position in the assistant content, so order is restored
 *   exactly. In streams it is sent whole, once, in the delta just before the finish chunk, because the
 *   SDK's accumulator keeps only the last value of an unknown field.
 *
 * When both are present, `reasoning_details` wins. A client that replays the assistant message it
 * received (`messages.push(completion.choices[0].message)`) sends both back, and decoding restores the
 * IR parts with their signatures.
 */
export type ReasoningDetail =
  | {
      type: 'reasoning.text'
      text: string
      index: number
      format?: string
      signature?: string
      provider_data?: ir.ProviderData
    }
  | { type: 'reasoning.encrypted'; data: string; index: number; format?: string; provider_data?: ir.ProviderData }
  | { type: 'provider-data'; index: number; id?: string; provider_data: ir.ProviderData }

/** The format whose opaque data a part carries (for the informational `format`/`signature` fields). */
function signatureOf(providerData: ir.ProviderData | undefined): { format?: string; signature?: string } {
  const messagesSignature = providerData?.messages?.signature
  if (typeof messagesSignature === 'string') return { format: 'messages', signature: messagesSignature }
  const geminiSignature = providerData?.['content-generation']?.thoughtSignature
  if (typeof geminiSignature === 'string') return { format: 'content-generation', signature: geminiSignature }
  return {}
}

/** Provider data of formats other than chat-completions (its own namespace is written natively). */
function foreignProviderData(providerData: ir.ProviderData | undefined): ir.ProviderData | undefined {
  if (!providerData) return undefined
  let foreign: ir.ProviderData | undefined
  for (const key of Object.keys(providerData) as ir.FormatId[]) {
    if (key === 'chat-completions') continue
    foreign ??= {}
    foreign[key] = providerData[key]
  }
  return foreign
}

export interface ReasoningCarrier {
  reasoningContent?: string
  details?: ReasoningDetail[]
}

/** IR assistant parts → the carrier fields. Returns `{}` when there is nothing to carry. */
export function encodeReasoningCarrier(parts: readonly ir.AssistantPart[]): ReasoningCarrier {
  let text: string | undefined
  const details: ReasoningDetail[] = []
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as ir.AssistantPart
    const foreign = foreignProviderData(part.providerData)
    if (part.type === 'reasoning') {
      text = text === undefined ? part.text : text + part.text
      const detail: ReasoningDetail = {
        type: 'reasoning.text',
        text: part.text,
        index,
        ...signatureOf(part.providerData),
      }
      if (foreign) detail.provider_data = foreign
      details.push(detail)
    } else if (part.type === 'redacted-reasoning') {
      const detail: ReasoningDetail = { type: 'reasoning.encrypted', data: part.data, index, format: 'messages' }
      if (foreign) detail.provider_data = foreign
      details.push(detail)
    } else if (foreign) {
      const detail: ReasoningDetail = { type: 'provider-data', index, provider_data: foreign }
      if (part.type === 'tool-call') detail.id = part.id
      details.push(detail)
    }
  }
  const carrier: ReasoningCarrier = {}
  if (text !== undefined) carrier.reasoningContent = text
  if (details.length > 0) carrier.details = details
  return carrier
}

/** The informational string fields of an entry, when present, are strings. */
function optionalStrings(entry: Record<string, unknown>, ...keys: string[]): boolean {
  return keys.every((key) => entry[key] === undefined || typeof entry[key] === 'string')
}

/** An object of namespaces, each an object (the shape `provider_data` is written in). */
function isProviderData(value: unknown): boolean {
  return isRecord(value) && Object.values(value).every(isRecord)
}

function mergeProviderData(part: ir.AssistantPart, extra: unknown): void {
  if (!isRecord(extra)) return
  const merged: ir.ProviderData = { ...part.providerData }
  for (const [key, value] of Object.entries(extra)) {
    if (isRecord(value)) merged[key as ir.FormatId] = { ...merged[key as ir.FormatId], ...value }
  }
  part.providerData = merged
}

/**
 * Restores reasoning parts (and foreign provider data) into the visible parts decoded from a message.
 * `visible` is the message's text / refusal / tool-call parts in order; `details` is the raw
 * `reasoning_details` value (validated here, never throws: malformed entries are skipped and reported
 * through the returned `skipped` count); `reasoningContent` is used only when `details` is absent.
 */
export function decodeReasoningCarrier(
  visible: ir.AssistantPart[],
  details: unknown,
  reasoningContent: unknown,
): { parts: ir.AssistantPart[]; skipped: number } {
  if (!Array.isArray(details)) {
    // Present but not an array: malformed, reported as one skipped entry (never silently ignored).
    const skipped = details === undefined || details === null ? 0 : 1
    if (typeof reasoningContent === 'string' && reasoningContent !== '') {
      return { parts: [{ type: 'reasoning', text: reasoningContent }, ...visible], skipped }
    }
    return { parts: visible, skipped }
  }
  const inserted: Array<{ index: number; part: ir.AssistantPart }> = []
  const attachments: Array<{ index: number; id?: string; providerData: unknown }> = []
  let skipped = 0
  for (const entry of details as unknown[]) {
    // `provider_data`, when present, must be an object of namespace objects: else a malformed entry (reported).
    if (
      !isRecord(entry) ||
      typeof entry.index !== 'number' ||
      (entry.provider_data !== undefined && !isProviderData(entry.provider_data)) ||
      !optionalStrings(entry, 'format', 'signature', 'id')
    ) {
      skipped++
      continue
    }
    if (entry.type === 'reasoning.text' && typeof entry.text === 'string') {
      const part: ir.ReasoningPart = { type: 'reasoning', text: entry.text }
      mergeProviderData(part, entry.provider_data)
      inserted.push({ index: entry.index, part })
    } else if (entry.type === 'reasoning.encrypted' && typeof entry.data === 'string') {
      const part: ir.RedactedReasoningPart = { type: 'redacted-reasoning', data: entry.data }
      mergeProviderData(part, entry.provider_data)
      inserted.push({ index: entry.index, part })
    } else if (entry.type === 'provider-data') {
      const attachment: { index: number; id?: string; providerData: unknown } = {
        index: entry.index,
        providerData: entry.provider_data,
      }
      if (typeof entry.id === 'string') attachment.id = entry.id
      attachments.push(attachment)
    } else {
      skipped++
    }
  }
  // Rebuild the full sequence: carried parts take their recorded positions, visible parts fill the rest in order.
  inserted.sort((a, b) => a.index - b.index)
  const parts: ir.AssistantPart[] = []
  let next = 0
  for (const { index, part } of inserted) {
    while (parts.length < index && next < visible.length) parts.push(visible[next++] as ir.AssistantPart)
    parts.push(part)
  }
  while (next < visible.length) parts.push(visible[next++] as ir.AssistantPart)
  for (const attachment of attachments) {
    const byId =
      attachment.id === undefined
        ? undefined
        : parts.find((part) => part.type === 'tool-call' && part.id === attachment.id)
    const target = byId ?? parts[attachment.index]
    if (target) mergeProviderData(target, attachment.providerData)
    else skipped++
  }
  return { parts, skipped }
}
