import type * as ir from '../../ir/index.js'

/**
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 * `finish_reason`: stop · length · tool_calls · content_filter · function_call (legacy).
 */
export function toFinishReason(raw: string | null | undefined, hasToolCall = false): ir.FinishReason {
  const value = raw ?? undefined
  const base = value === undefined ? {} : { raw: value, rawFormat: 'chat-completions' as const }
  if (hasToolCall) return { unified: 'tool-calls', ...base }
  switch (value) {
    case 'stop':
      return { unified: 'stop', ...base }
    case 'length':
      return { unified: 'length', ...base }
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', ...base }
    case 'content_filter':
      return { unified: 'content-filter', ...base }
    case undefined:
      return { unified: 'stop' }
    default:
      return { unified: 'other', ...base }
  }
}

const ownValues = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'function_call'])

/** IR → `finish_reason`. `other` and `error` become `stop` (the SDK accepts only the documented values). */
export function fromFinishReason(reason: ir.FinishReason, hasToolCall = false): string {
  // Our own raw value comes back unchanged (e.g. a refusal that OpenAI ended with `stop`).
  if (reason.rawFormat === 'chat-completions' && reason.raw && ownValues.has(reason.raw) && !hasToolCall)
    return reason.raw
  if (hasToolCall || reason.unified === 'tool-calls') {
    return reason.rawFormat === 'chat-completions' && reason.raw === 'function_call' ? 'function_call' : 'tool_calls'
  }
  switch (reason.unified) {
    case 'length':
      return 'length'
    case 'content-filter':
      return 'content_filter'
    default:
      return 'stop'
  }
}
