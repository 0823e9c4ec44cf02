/**
 * messages response (wire) → IR. @see wire-formats.md §2.5–2.6
 * Top-level fields the IR has no slot for (`stop_details`, `container`, `diagnostics`, …) and usage fields that
 * `encodeUsage` would not reproduce (`cache_creation`, `service_tier`, nulls, …) go to `extensions.messages`
 * (usage ones under `usage`), so a same-format round trip is exact.
 */
import type * as ir from '../../ir/index.js'
import { parseWire } from '../../shared/validate.js'
import type { Converted } from '../format.js'
import { decodeAssistantBlock, type Json } from './blocks.js'
import { toFinishReason } from './finish-reason.js'
import { responseSchema } from './schema.js'
import { decodeUsage, encodeUsage, type MessagesUsage } from './usage.js'
import { searchQuery, webSearchPart } from './web-search.js'

const known = new Set(Object.keys(responseSchema.shape))

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  return JSON.stringify(a) === JSON.stringify(b)
}

/** Usage keys whose wire value `encodeUsage(decodeUsage(usage))` would not reproduce. */
function usageExtras(usage: Json, decoded: ir.Usage): Json | undefined {
  const encoded = encodeUsage(decoded) as Json
  let out: Json | undefined
  for (const key in usage) {
    if (!sameValue(usage[key], encoded[key])) {
      out ??= {}
      out[key] = usage[key]
    }
  }
  for (const key in encoded) {
    if (!(key in usage)) {
      out ??= {}
      out[key] = undefined
    }
  }
  return out
}

export function decodeResponse(body: unknown): Converted<ir.Response> {
  const wire = parseWire(responseSchema, body, 'messages', 'response')
  const warnings: ir.Warning[] = []
  const content: ir.AssistantPart[] = []
  let hasToolCall = false
  /** `server_tool_use` web search blocks by id, until their result arrives. */
  const searches = new Map<string, { block: Json; index: number }>()
  wire.content.forEach((block, i) => {
    if (block.type === 'server_tool_use' && block.name === 'web_search' && typeof block.id === 'string') {
      searches.set(block.id, { block, index: i })
      return
    }
    if (block.type === 'web_search_tool_result') {
      const use = searches.get(String(block.tool_use_id))?.block
      searches.delete(String(block.tool_use_id))
      content.push(webSearchPart(block, use, searchQuery(use?.input)))
      return
    }
    const part = decodeAssistantBlock(block)
    if (part) {
      if (part.type === 'tool-call') hasToolCall = true
      content.push(part)
    } else {
      warnings.push({ type: 'dropped', path: `content[${i}]`, message: `${block.type} blocks have no IR equivalent` })
    }
  })
  // A search whose result never came (a `pause_turn`) has nothing to show.
  for (const { index } of searches.values())
    warnings.push({
      type: 'dropped',
      path: `content[${index}]`,
      message: 'server_tool_use blocks have no IR equivalent',
    })
  const response: ir.Response = {
    id: wire.id,
    model: wire.model,
    content,
    finishReason: toFinishReason(wire.stop_reason, hasToolCall),
  }
  if (typeof wire.stop_sequence === 'string') response.stopSequence = wire.stop_sequence
  const extensions: Json = {}
  if (wire.usage) {
    const usage = decodeUsage(wire.usage as Partial<MessagesUsage>) as ir.Usage
    response.usage = usage
    const extras = usageExtras(wire.usage, usage)
    if (extras) extensions.usage = extras
  }
  for (const key in wire) if (!known.has(key)) extensions[key] = (wire as Json)[key]
  if (Object.keys(extensions).length > 0) response.extensions = { messages: extensions }
  return { value: response, warnings }
}
