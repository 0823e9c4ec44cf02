/** IR → content-generation response body. @see wire-formats.md §3.6, §3.7 */
import type * as ir from '../../ir/index.js'
import { reportForeignExtensions } from '../../shared/foreign-extensions.js'
import { envelopeFor } from '../../shared/reasoning-envelope.js'
import type { Converted } from '../format.js'
import { functionCallPart, own } from './encode-parts.js'
import { fromFinishReason } from './finish-reason.js'
import { encodeUsage } from './usage.js'

const F = 'content-generation'
type Wire = Record<string, unknown>

/** Our own thoughtSignature, or another provider's signature in an envelope (policy 3). */
function signed(wire: Wire, part: { providerData?: ir.ProviderData }): Wire {
  const signature = own(part)?.thoughtSignature
  if (typeof signature === 'string') wire.thoughtSignature = signature
  else {
    const envelope = envelopeFor(part.providerData, F)
    if (envelope) wire.thoughtSignature = envelope
  }
  return wire
}

/**
 * One assistant part → a wire part (a call's `functionCall.id` only when it came from Gemini with one: the SDK ignores
 * any other).
 */
export function encodeAssistantPart(part: ir.AssistantPart, path: string, warnings: ir.Warning[]): Wire | undefined {
  switch (part.type) {
    case 'text':
      return signed({ text: part.text }, part)
    case 'reasoning': {
      const wire: Wire = { text: part.text, thought: true }
      return signed(wire, part)
    }
    case 'refusal':
      warnings.push({ type: 'changed', path, message: 'A refusal became text' })
      return { text: part.text }
    case 'redacted-reasoning':
      // An empty thought whose signature envelope holds the redacted data: a Gemini client replays it (policy 3).
      return { text: '', thought: true, thoughtSignature: envelopeFor(part.providerData, F, part.data) }
    case 'tool-call':
      return signed(
        functionCallPart(part, () => path, warnings),
        part,
      )
    case 'web-search':
      // Gemini's own search is its candidate's groundingMetadata, which goes back with the candidate's other keys.
      if (part.providerData?.[F]?.['@grounding'] !== true)
        warnings.push({
          type: 'dropped',
          path,
          message: "another provider's web search has no content-generation part",
        })
      return undefined
    case 'image':
    case 'audio':
      if (part.source.type === 'base64')
        return signed({ inlineData: { mimeType: part.source.mediaType, data: part.source.data } }, part)
      warnings.push({ type: 'dropped', path, message: `A non-inline ${part.type} cannot be returned` })
      return undefined
  }
}

function candidate(
  content: ir.AssistantPart[],
  finishReason: ir.FinishReason,
  index: number,
  prefix: string,
  warnings: ir.Warning[],
  extra?: unknown,
): Wire {
  const parts: Wire[] = []
  content.forEach((part, pi) => {
    const encoded = encodeAssistantPart(part, `${prefix}[${pi}]`, warnings)
    if (encoded) parts.push(encoded)
  })
  const out: Wire = { content: { parts, role: 'model' }, finishReason: fromFinishReason(finishReason), index }
  if (extra && typeof extra === 'object') Object.assign(out, extra)
  return out
}

export function encodeResponse(response: ir.Response): Converted<unknown> {
  const warnings: ir.Warning[] = []
  const ext = response.extensions?.[F]
  const extraCandidates = Array.isArray(ext?.candidates) ? (ext.candidates as unknown[]) : []
  const body: Wire = {}
  const blocked =
    response.content.length === 0 && !response.extraChoices?.length && typeof ext?.promptFeedback === 'object'
  if (!blocked) {
    const candidates = [candidate(response.content, response.finishReason, 0, 'content', warnings, extraCandidates[0])]
    response.extraChoices?.forEach((choice, i) => {
      candidates.push(
        candidate(
          choice.content,
          choice.finishReason,
          choice.index,
          `extraChoices[${i}].content`,
          warnings,
          extraCandidates[i + 1],
        ),
      )
    })
    body.candidates = candidates
  }
  if (response.usage) {
    const usage = encodeUsage(response.usage)
    // The service writes proto3 JSON, which omits zero counts (a blocked prompt has no candidatesTokenCount).
    if (usage.candidatesTokenCount === 0) delete usage.candidatesTokenCount
    const extras = ext?.usageMetadata
    if (extras && typeof extras === 'object') {
      Object.assign(usage, extras)
      // decodeUsage counted tool-use prompt tokens as input: take them out of promptTokenCount again.
      const toolUse = (extras as Record<string, unknown>).toolUsePromptTokenCount
      if (typeof toolUse === 'number') usage.promptTokenCount = Math.max(0, (usage.promptTokenCount ?? 0) - toolUse)
    }
    body.usageMetadata = usage
  }
  body.modelVersion = response.model
  body.responseId = response.id
  if (ext) for (const key in ext) if (key !== 'candidates' && key !== 'usageMetadata') body[key] = ext[key]
  reportForeignExtensions(response.extensions, F, warnings)
  if (response.stopSequence !== undefined)
    warnings.push({
      type: 'dropped',
      path: 'stopSequence',
      message: 'content-generation does not report the stop sequence',
    })
  return { value: body, warnings }
}
