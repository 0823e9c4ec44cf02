/** Model listing and token-count bodies. @see wire-formats.md §2.9 */
import type { ModelInfo } from '../format.js'

/** RFC 3339 without fractional seconds, as the service writes it (`2025-02-19T00:00:00Z`). */
function rfc3339(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

export function encodeModel(model: ModelInfo): Record<string, unknown> {
  return {
    type: 'model',
    id: model.id,
    display_name: model.displayName ?? model.id,
    created_at: rfc3339(model.created ?? 0),
  }
}

export function encodeModelList(models: ModelInfo[]): unknown {
  return {
    data: models.map(encodeModel),
    has_more: false,
    first_id: models[0]?.id ?? null,
    last_id: models[models.length - 1]?.id ?? null,
  }
}

export function encodeTokenCount(inputTokens: number): unknown {
  return { input_tokens: inputTokens }
}

const countTokensFields = [
  'model',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'cache_control',
  'speed',
] as const

/**
 * The `/v1/messages/count_tokens` body for an encoded messages request: only the fields that endpoint accepts
 * (wire-formats.md §2.9); `max_tokens`, `stream`, sampling and `metadata` are left out.
 */
export function countTokensBody(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of countTokensFields) if (body[key] !== undefined) out[key] = body[key]
  return out
}
