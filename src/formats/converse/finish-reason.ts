import type * as ir from '../../ir/index.js'

/**
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax
 * end_turn · tool_use · max_tokens · stop_sequence · guardrail_intervened · content_filtered ·
 * model_context_window_exceeded · malformed_model_output · malformed_tool_use.
 */
export function toFinishReason(raw: unknown, hasToolCall = false): ir.FinishReason {
  const value = typeof raw === 'string' ? raw : undefined
  const base = value === undefined ? {} : { raw: value, rawFormat: 'converse' as const }
  if (hasToolCall) return { unified: 'tool-calls', ...base }
  switch (value) {
    case 'end_turn':
    case 'stop_sequence':
    case undefined:
      return { unified: 'stop', ...base }
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { unified: 'length', ...base }
    case 'tool_use':
      return { unified: 'tool-calls', ...base }
    case 'guardrail_intervened':
    case 'content_filtered':
      return { unified: 'content-filter', ...base }
    case 'malformed_model_output':
    case 'malformed_tool_use':
      return { unified: 'error', ...base }
    default:
      return { unified: 'other', ...base }
  }
}

/** IR → `stopReason`. */
export function fromFinishReason(reason: ir.FinishReason, hasToolCall = false): string {
  if (reason.rawFormat === 'converse' && reason.raw && !(hasToolCall && reason.raw !== 'tool_use')) return reason.raw
  if (hasToolCall || reason.unified === 'tool-calls') return 'tool_use'
  switch (reason.unified) {
    case 'length':
      return 'max_tokens'
    case 'content-filter':
      return 'content_filtered'
    default:
      return 'end_turn'
  }
}
