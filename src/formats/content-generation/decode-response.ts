/**
 * content-generation response body → IR. @see wire-formats.md §3.6, §3.7, §5.8
 * `candidates[0]` is the content, further candidates are `extraChoices`; no candidates (prompt blocked) is an
 * empty `content-filter` response. Function calls without an id get a stable id seeded by the response id.
 */
import type * as ir from '../../ir/index.js'
import { toolCallFromObject } from '../../shared/tool-arguments.js'
import { generateToolCallId } from '../../shared/tool-ids.js'
import { parseWire } from '../../shared/validate.js'
import type { Converted } from '../format.js'
import { toFinishReason } from './finish-reason.js'
import { attachCitations, groundingSearch } from './grounding.js'
import { responseSchema, type WireCandidate, type WirePart } from './schema.js'
import { decodeUsage } from './usage.js'

const F = 'content-generation'
const mappedKeys = new Set(['candidates', 'usageMetadata', 'modelVersion', 'responseId'])
/** Usage fields the IR holds; the rest (`promptTokensDetails`, `toolUsePromptTokenCount`, …) ride in extensions. */
const usageKeys = new Set([
  'promptTokenCount',
  'cachedContentTokenCount',
  'candidatesTokenCount',
  'thoughtsTokenCount',
  'totalTokenCount',
])
const candidateKeys = new Set(['content', 'finishReason', 'index'])

/** A part's own provider data: its wire id (a function call's), then its `thoughtSignature`; undefined when neither. */
export function providerData(part: WirePart, id?: string): ir.ProviderData | undefined {
  if (id === undefined && part.thoughtSignature === undefined) return undefined
  const data: Record<string, unknown> = {}
  if (id !== undefined) data.id = id
  if (part.thoughtSignature !== undefined) data.thoughtSignature = part.thoughtSignature
  return { [F]: data }
}

/**
 * Part `pi` of candidate `ci` → an assistant part (undefined, with a warning, for kinds the IR cannot hold). A call
 * without an id gets one seeded by `responseId:ci:pi` and the name.
 */
export function decodeAssistantPart(
  part: WirePart,
  responseId: string,
  ci: number,
  pi: number,
  warnings: ir.Warning[],
): ir.AssistantPart | undefined {
  if (part.functionCall) {
    const fc = part.functionCall
    const out = toolCallFromObject(
      fc.id ?? generateToolCallId('call_', `${responseId}:${ci}:${pi}:${fc.name}`),
      fc.name,
      fc.args,
    )
    const data = providerData(part, fc.id)
    if (data) out.providerData = data
    return out
  }
  const inline = part.inlineData
  let out: ir.AssistantPart
  if (part.text !== undefined) out = { type: part.thought ? 'reasoning' : 'text', text: part.text }
  else if (inline && (inline.mimeType.startsWith('image/') || inline.mimeType.startsWith('audio/'))) {
    const { mimeType, data } = inline
    out = {
      type: mimeType.startsWith('image/') ? 'image' : 'audio',
      source: { type: 'base64', mediaType: mimeType, data },
    }
  } else {
    warnings.push({
      type: 'dropped',
      path: `candidates[${ci}].content.parts[${pi}]`,
      message: 'Part kind not supported in a response',
    })
    return undefined
  }
  const data = providerData(part)
  if (data) out.providerData = data
  return out
}

function decodeCandidate(
  candidate: WireCandidate,
  ci: number,
  responseId: string,
  warnings: ir.Warning[],
): ir.Choice & { extra?: Record<string, unknown> } {
  const content: ir.AssistantPart[] = []
  let hasToolCall = false
  const parts = candidate.content?.parts
  if (parts) {
    for (let pi = 0; pi < parts.length; pi++) {
      const decoded = decodeAssistantPart(parts[pi] as WirePart, responseId, ci, pi, warnings)
      if (!decoded) continue
      if (decoded.type === 'tool-call') hasToolCall = true
      content.push(decoded)
    }
  }
  const choice: ir.Choice & { extra?: Record<string, unknown> } = {
    index: candidate.index ?? ci,
    content,
    finishReason: toFinishReason(candidate.finishReason, hasToolCall),
  }
  let extra: Record<string, unknown> | undefined
  for (const key in candidate) {
    if (candidateKeys.has(key)) continue
    extra ??= {}
    extra[key] = (candidate as Record<string, unknown>)[key]
  }
  if (extra) choice.extra = extra
  const search = groundingSearch(candidate.groundingMetadata, `${responseId}_search${ci}`)
  if (search) {
    attachCitations(
      candidate.groundingMetadata,
      content.filter((part): part is ir.TextPart => part.type === 'text'),
    )
    content.unshift(search)
  }
  return choice
}

export function decodeResponse(body: unknown): Converted<ir.Response> {
  const wire = parseWire(responseSchema, body, F, 'response')
  const warnings: ir.Warning[] = []
  const id =
    wire.responseId ?? generateToolCallId('resp_', JSON.stringify(wire.usageMetadata ?? {}) + (wire.modelVersion ?? ''))
  const extensions: Record<string, unknown> = {}
  const candidates = wire.candidates ?? []
  const choices = candidates.map((candidate, ci) => decodeCandidate(candidate, ci, id, warnings))
  const first = choices[0]
  const response: ir.Response = {
    id,
    model: wire.modelVersion ?? '',
    content: first?.content ?? [],
    finishReason: first
      ? first.finishReason
      : wire.promptFeedback?.blockReason
        ? { unified: 'content-filter', raw: wire.promptFeedback.blockReason, rawFormat: F }
        : { unified: 'other' },
  }
  const usage = decodeUsage(wire.usageMetadata)
  if (usage) response.usage = usage
  let usageExtras: Record<string, unknown> | undefined
  for (const key in wire.usageMetadata) {
    if (usageKeys.has(key)) continue
    usageExtras ??= {}
    usageExtras[key] = wire.usageMetadata[key]
  }
  if (usageExtras) extensions.usageMetadata = usageExtras
  if (choices.length > 1)
    response.extraChoices = choices
      .slice(1)
      .map(({ index, content, finishReason }) => ({ index, content, finishReason }))
  // Per-candidate metadata (safetyRatings, citationMetadata, groundingMetadata, …), indexed like candidates.
  if (choices.some((c) => c.extra)) extensions.candidates = choices.map((c) => c.extra ?? {})
  for (const key in wire) if (!mappedKeys.has(key)) extensions[key] = (wire as Record<string, unknown>)[key]
  if (Object.keys(extensions).length > 0) response.extensions = { [F]: extensions }
  return { value: response, warnings }
}
