/**
 * IR → messages response (wire), what the Anthropic SDK expects. @see wire-formats.md §2.5–2.6
 *
 * Decisions: an empty `id` becomes a generated `msg_…`; `stop_sequence` is always present (null when none);
 * a refusal part becomes a text block (`changed` warning) and, unless the turn ended for another reason
 * (tool calls, length), `stop_reason: "refusal"`; reasoning without a messages signature gets `signature: ""`
 * (messages encoders drop it when replayed); image/audio output and extra choices are dropped with a warning.
 */
import type * as ir from '../../ir/index.js'
import { reportForeignExtensions } from '../../shared/foreign-extensions.js'
import type { Converted } from '../format.js'
import { encodeRedacted, encodeText, encodeThinking, encodeToolUse, type Json } from './blocks.js'
import { fromFinishReason } from './finish-reason.js'
import { encodeUsage } from './usage.js'

function messageId(): string {
  return `msg_${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`
}

export function encodeResponse(response: ir.Response): Converted<unknown> {
  const warnings: ir.Warning[] = []
  const content: Json[] = []
  let hasToolCall = false
  let refusal = false
  response.content.forEach((part, i) => {
    const path = `content[${i}]`
    switch (part.type) {
      case 'text':
        content.push(encodeText(part))
        break
      case 'tool-call':
        hasToolCall = true
        content.push(encodeToolUse(part, () => path, warnings))
        break
      case 'reasoning':
        content.push(encodeThinking(part))
        break
      case 'redacted-reasoning':
        content.push(encodeRedacted(part))
        break
      case 'refusal':
        refusal = true
        content.push({ type: 'text', text: part.text })
        warnings.push({ type: 'changed', path, message: 'refusal sent as a text block with stop_reason refusal' })
        break
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
