/** chat-completions response body → IR. @see wire-formats.md §1.6–1.7 */
import type * as ir from '../../ir/index.js'
import { parseWire } from '../../shared/validate.js'
import type { Converted } from '../format.js'
import { toFinishReason } from './finish-reason.js'

/**
 * OpenAI ends a refusal with `finish_reason: "stop"` and the text in `message.refusal`; every other format calls that
 * turn a content-filter stop (Anthropic `stop_reason: "refusal"`). The raw `stop` is kept for a same-format round trip.
 */
function refusalAware(reason: ir.FinishReason, parts: readonly ir.AssistantPart[]): ir.FinishReason {
  if (reason.unified !== 'stop' || !parts.some((part) => part.type === 'refusal')) return reason
  if (parts.some((part) => part.type === 'text' && part.text !== '')) return reason
  return { ...reason, unified: 'content-filter' }
}

import { assistantParts } from './decode-request.js'
import { responseSchema, type WireResponseMessage } from './schema.js'
import { decodeUsage } from './usage.js'

const FORMAT = 'chat-completions'
/** The top-level keys the IR holds (the schema's); the rest go to `extensions['chat-completions']`. */
const responseKeys = new Set(Object.keys(responseSchema.shape))
const messageKeys = new Set(['role', 'content', 'refusal', 'tool_calls', 'reasoning_content', 'reasoning_details'])

function decodeMessage(message: WireResponseMessage, path: string, warnings: ir.Warning[]): ir.AssistantPart[] {
  const parts = assistantParts(message, path, warnings, (name) => `call_legacy_${name}`)
  const raw = message as Record<string, unknown>
  // annotations, audio and other message extras ride on the first part (or a carrier-free empty text part).
  let extras: Record<string, unknown> | undefined
  for (const key of Object.keys(raw)) {
    if (messageKeys.has(key) || (key === 'function_call' && raw[key] !== null)) continue
    extras ??= {}
    extras[key] = raw[key]
  }
  if (extras) {
    const target = parts.find((part) => part.type === 'text') ?? parts[0]
    if (target)
      target.providerData = { ...target.providerData, [FORMAT]: { ...target.providerData?.[FORMAT], ...extras } }
    else warnings.push({ type: 'dropped', path, message: `message fields ${Object.keys(extras).join(', ')} dropped` })
  }
  return parts
}

export function decodeResponse(body: unknown): Converted<ir.Response> {
  const wire = parseWire(responseSchema, body, FORMAT, 'response')
  const warnings: ir.Warning[] = []
  const first = wire.choices[0]
  for (let i = 0; i < wire.choices.length; i++) {
    if ((wire.choices[i] as Record<string, unknown>).logprobs != null) {
      warnings.push({ type: 'dropped', path: `choices[${i}].logprobs`, message: 'logprobs are not carried' })
    }
  }
  const content = first ? decodeMessage(first.message, 'choices[0].message', warnings) : []
  const hasCall = (parts: ir.AssistantPart[]) => parts.some((part) => part.type === 'tool-call')
  const response: ir.Response = {
    id: wire.id ?? '',
    model: wire.model ?? '',
    content,
    finishReason: refusalAware(toFinishReason(first?.finish_reason, hasCall(content)), content),
  }
  if (wire.created !== undefined) response.created = wire.created
  const usage = decodeUsage(wire.usage)
  if (usage) response.usage = usage
  if (wire.choices.length > 1) {
    response.extraChoices = wire.choices.slice(1).map((choice, i) => {
      const parts = decodeMessage(choice.message, `choices[${i + 1}].message`, warnings)
      return {
        index: choice.index ?? i + 1,
        content: parts,
        finishReason: refusalAware(toFinishReason(choice.finish_reason, hasCall(parts)), parts),
      }
    })
  }
  let extensions: Record<string, unknown> | undefined
  const raw = wire as Record<string, unknown>
  for (const key of Object.keys(raw)) {
    if (responseKeys.has(key)) continue
    extensions ??= {}
    extensions[key] = raw[key]
  }
  if (extensions) response.extensions = { [FORMAT]: extensions }
  return { value: response, warnings }
}
