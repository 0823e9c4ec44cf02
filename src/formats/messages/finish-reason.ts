import type * as ir from '../../ir/index.js'

/**
 * @see https://docs.anthropic.com/en/api/messages#response-stop-reason
 * end_turn · max_tokens · stop_sequence · tool_use · pause_turn · refusal · model_context_window_exceeded.
 */
export function toFinishReason(raw: string | null | undefined, hasToolCall = false): ir.FinishReason {
  const value = raw ?? undefined
  const base = value === undefined ? {} : { raw: value, rawFormat: 'messages' as const }
  if (hasToolCall) return { unified: 'tool-calls', ...base }
  switch (value) {
    case 'end_turn':
    case 'stop_sequence':
      return { unified: 'stop', ...base }
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { unified: 'length', ...base }
    case 'tool_use':
      return { unified: 'tool-calls', ...base }
    case 'refusal':
      return { unified: 'content-filter', ...base }
    case undefined:
      return { unified: 'stop' }
    default:
      // pause_turn and future values
      return { unified: 'other', ...base }
  }
}

/** IR → `stop_reason`. A stop with a matched sequence is `stop_sequence`. */
export function fromFinishReason(reason: ir.FinishReason, hasToolCall = false, stopSequence?: string): string {
  if (reason.rawFormat === 'messages' && reason.raw && (reason.unified !== 'tool-calls' || reason.raw === 'tool_use')) {
    if (!hasToolCall || reason.raw === 'tool_use') return reason.raw
  }
  if (hasToolCall || reason.unified === 'tool-calls') return 'tool_use'
  switch (reason.unified) {
    case 'length':
      return 'max_tokens'
    case 'content-filter':
      return 'refusal'
    default:
      return stopSequence ? 'stop_sequence' : 'end_turn'
  }
}
