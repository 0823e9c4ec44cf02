import type * as ir from '../../ir/index.js'

/**
 * @see https://ai.google.dev/api/generate-content#FinishReason
 * Gemini has no tool-call reason: a turn with a `functionCall` part ends with `STOP`, so callers pass
 * `hasToolCall`. A response with no candidates (prompt blocked) is `content-filter`.
 */
export function toFinishReason(raw: string | null | undefined, hasToolCall = false): ir.FinishReason {
  const value = raw ?? undefined
  const unified = hasToolCall ? 'tool-calls' : unifiedOf(value)
  return value === undefined ? { unified } : { unified, raw: value, rawFormat: 'content-generation' }
}

function unifiedOf(value: string | undefined): ir.FinishReason['unified'] {
  switch (value) {
    case 'STOP':
    case undefined:
      return 'stop'
    case 'MAX_TOKENS':
      return 'length'
    case 'SAFETY':
    case 'RECITATION':
    case 'LANGUAGE':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return 'content-filter'
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
    case 'TOO_MANY_TOOL_CALLS':
      return 'error'
    default:
      return 'other'
  }
}

/** IR → `finishReason`. Tool calls end with `STOP`, as the real service does. */
export function fromFinishReason(reason: ir.FinishReason): string {
  if (reason.rawFormat === 'content-generation' && reason.raw) return reason.raw
  switch (reason.unified) {
    case 'length':
      return 'MAX_TOKENS'
    case 'content-filter':
      return 'SAFETY'
    case 'error':
    case 'other':
      return 'OTHER'
    default:
      return 'STOP'
  }
}
