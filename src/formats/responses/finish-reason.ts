/**
 * Responses has no finish reason: `status` (`completed` · `incomplete` · `failed` · …) plus
 * `incomplete_details.reason`, and function calls are their own signal. @see responses-api.md §9.6
 */
import type * as ir from '../../ir/index.js'

export function toFinishReason(status: unknown, reason: unknown, hasToolCall: boolean): ir.FinishReason {
  const raw = typeof status === 'string' ? (typeof reason === 'string' ? `${status}:${reason}` : status) : undefined
  const base = raw === undefined ? {} : { raw, rawFormat: 'responses' as const }
  if (status === 'incomplete') {
    if (reason === 'content_filter') return { unified: 'content-filter', ...base }
    return { unified: 'length', ...base }
  }
  if (status === 'failed' || status === 'cancelled') return { unified: 'error', ...base }
  if (hasToolCall) return { unified: 'tool-calls', ...base }
  if (status === undefined || status === 'completed') return { unified: 'stop', ...base }
  return { unified: 'other', ...base }
}

export interface WireStatus {
  status: 'completed' | 'incomplete' | 'failed'
  incompleteReason?: string
}

/** IR → `status` and `incomplete_details.reason`. Our own raw value comes back unchanged. */
export function fromFinishReason(reason: ir.FinishReason): WireStatus {
  if (reason.rawFormat === 'responses' && reason.raw) {
    const [status, detail] = reason.raw.split(':')
    if (status === 'completed' || status === 'failed') return { status }
    if (status === 'incomplete') return { status, incompleteReason: detail ?? 'max_output_tokens' }
  }
  switch (reason.unified) {
    case 'length':
      return { status: 'incomplete', incompleteReason: 'max_output_tokens' }
    case 'content-filter':
      return { status: 'incomplete', incompleteReason: 'content_filter' }
    case 'error':
      return { status: 'failed' }
    default:
      return { status: 'completed' }
  }
}
