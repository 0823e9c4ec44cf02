/**
 * The events that close one streamed Responses item (responses-api.md §6.3): a text item's annotations,
 * `output_text.done` (or `refusal.done`) and `content_part.done`; a call's `function_call_arguments.done` (or
 * `custom_tool_call_input.done`); a reasoning item's summary `done` events — and the complete item its
 * `output_item.done` carries. A long text's done events hold its marker (long-text.ts).
 */
import type * as ir from '../../ir/index.js'
import { reasoningItem } from './encode-items.js'
import type { LongTexts } from './long-text.js'
import { callOutputItem, messageItem, outputTextPart } from './output-items.js'
import type { CallName } from './tool-names.js'

type Wire = Record<string, unknown>

/** An item open in the stream encoder. */
export interface OpenItem {
  outputIndex: number
  id: string
  kind: 'text' | 'refusal' | 'reasoning' | 'tool-call'
  part: ir.TextPart | ir.RefusalPart | ir.ReasoningPart | ir.RedactedReasoningPart | ir.ToolCallPart
  /** Reasoning: whether the summary part was opened. */
  summaryOpen?: boolean
  /** Text: the members of its delta events between `sequence_number` and the delta's value (made at the first). */
  deltaScope?: string
  /** Text: the deltas so far (joined when the item closes, or kept as they are for a long text: long-text.ts). */
  chunks?: string[]
  /** Text: the characters in `chunks`. */
  length?: number
}

/** Writes one event (its type, then the payload's members after `sequence_number`). */
export type Emit = (type: string, payload: Wire) => void

/** Emits the done events of `item` (all but `output_item.done`) and returns the complete item. */
export function closeItem(
  emit: Emit,
  item: OpenItem,
  names: ReadonlyMap<string, CallName>,
  longTexts: LongTexts,
): Wire {
  const scope = { item_id: item.id, output_index: item.outputIndex }
  const part = item.part
  let complete: Wire
  if (part.type === 'text' || part.type === 'refusal') {
    longTexts.close(part, item.chunks ?? [], item.length ?? 0)
    const wirePart = outputTextPart(part)
    const annotations = (wirePart.annotations as unknown[] | undefined) ?? []
    for (let i = 0; i < annotations.length; i++)
      emit('response.output_text.annotation.added', {
        ...scope,
        content_index: 0,
        annotation_index: i,
        annotation: annotations[i],
      })
    if (part.type === 'refusal') emit('response.refusal.done', { ...scope, content_index: 0, refusal: part.text })
    else emit('response.output_text.done', { ...scope, content_index: 0, text: part.text, logprobs: [] })
    emit('response.content_part.done', { ...scope, content_index: 0, part: wirePart })
    complete = messageItem(item.id, [part], 'completed')
  } else if (part.type === 'tool-call') {
    complete = callOutputItem(part, item.id, 'completed', names)
    if (complete.type === 'custom_tool_call')
      emit('response.custom_tool_call_input.done', { ...scope, input: complete.input })
    else emit('response.function_call_arguments.done', { ...scope, arguments: complete.arguments })
  } else {
    if (item.summaryOpen && part.type === 'reasoning') {
      const summary = { ...scope, summary_index: 0 }
      emit('response.reasoning_summary_text.done', { ...summary, text: part.text })
      emit('response.reasoning_summary_part.done', { ...summary, part: { type: 'summary_text', text: part.text } })
    }
    complete = reasoningItem(part, item.id)
  }
  complete.id = item.id
  return complete
}
