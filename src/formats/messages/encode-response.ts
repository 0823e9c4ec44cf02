/**
 * IR → messages response (wire), what the Anthropic SDK expects. @see wire-formats.md §2.5–2.6
 *
 * Decisions: an empty `id` becomes a generated `msg_…`; `stop_sequence` is always present (null when none);
 * a refusal part becomes a text block (`changed` warning) and, unless the turn ended for another reason
 * (tool calls, length), `stop_reason: "refusal"`; reasoning without a messages signature gets another provider's
 * signature in an envelope, or the envelope of nothing (`unsignedEnvelope`: never `signature: ""`, which a client
 * would send on to Anthropic); image/audio output and extra choices are dropped with a warning.
 */
import type * as ir from '../../ir/index.js'
import { reportForeignExtensions } from '../../shared/foreign-extensions.js'
import { newId } from '../../shared/ids.js'
import { envelopeFor, unsignedEnvelope } from '../../shared/reasoning-envelope.js'
import type { Converted, EncodeResponseOptions } from '../format.js'
import { encodeRedacted, encodeText, encodeThinking, encodeToolUse, type Json } from './blocks.js'
import { fromFinishReason } from './finish-reason.js'
import { encodeUsage } from './usage.js'

function messageId(): string {
  return newId('msg_', 24)
}

/**
 * True when the client asked for its thinking not to be shown (`thinking.display: "omitted"`): its thinking blocks
 * then come with empty text and their signature, as Anthropic sends them, whatever text the upstream returned.
 */
export function omitsThinking(options: EncodeResponseOptions | undefined): boolean {
  return options?.request?.reasoning?.includeThoughts === false
}

export function encodeResponse(response: ir.Response, options?: EncodeResponseOptions): Converted<unknown> {
  const warnings: ir.Warning[] = []
  const omit = omitsThinking(options)
  const content: Json[] = []
  let hasToolCall = false
  let refusal = false
  response.content.forEach((part, i) => {
    const path = `content[${i}]`
    switch (part.type) {
      case 'text':
        content.push(encodeText(part))
        break
      case 'tool-call': {
        hasToolCall = true
        // Another provider's signature on the call (Gemini's thoughtSignature) rides in a redacted_thinking block just
        // before it, which Anthropic clients replay verbatim (policy 3).
        const envelope = envelopeFor(part.providerData, 'messages')
        if (envelope) content.push({ type: 'redacted_thinking', data: envelope })
        content.push(encodeToolUse(part, () => path, warnings))
        break
      }
      case 'reasoning': {
        const block = encodeThinking(part)
        if (omit) block.thinking = ''
        // Never an empty signature: another provider's in an envelope, else the envelope of nothing (policy 3).
        if (block.signature === '') block.signature = envelopeFor(part.providerData, 'messages') ?? unsignedEnvelope()
        content.push(block)
        break
      }
      case 'redacted-reasoning':
        content.push(encodeRedacted(part))
        break
      case 'refusal':
        refusal = true
        content.push({ type: 'text', text: part.text })
        warnings.push({ type: 'changed', path, message: 'refusal sent as a text block with stop_reason refusal' })
        break
      case 'web-search': {
        // Anthropic's own search goes back as it came (its encrypted results are replayable); another's cannot.
        const blocks = part.providerData?.messages?.blocks
        if (Array.isArray(blocks)) content.push(...(blocks as Json[]))
        else warnings.push({ type: 'dropped', path, message: "another provider's web search has no messages blocks" })
        break
      }
      default:
        warnings.push({ type: 'dropped', path, message: `messages responses cannot hold ${part.type} parts` })
    }
  })
  let stopReason = fromFinishReason(response.finishReason, hasToolCall, response.stopSequence)
  if (refusal && stopReason !== 'tool_use' && stopReason !== 'max_tokens') stopReason = 'refusal'
  const body: Json = {
    id: response.id || messageId(),
    type: 'message',
    role: 'assistant',
    model: response.model,
    content,
    stop_reason: stopReason,
    stop_sequence: response.stopSequence ?? null,
    usage: encodeUsage(response.usage ?? {}),
  }
  if (response.extraChoices && response.extraChoices.length > 0) {
    warnings.push({ type: 'dropped', path: 'extraChoices', message: 'messages returns a single choice' })
  }
  const extensions = response.extensions
  if (extensions) {
    reportForeignExtensions(extensions, 'messages', warnings)
    const values = extensions.messages
    if (values) {
      for (const key in values) {
        if (key === 'usage') body.usage = { ...(body.usage as Json), ...(values.usage as Json) }
        else body[key] = values[key]
      }
    }
  }
  return { value: body, warnings }
}
