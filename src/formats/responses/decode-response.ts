/** Responses response body → IR. @see responses-api.md §5 */
import { invalidRequest } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import { isRecord } from '../../shared/is-record.js'
import type { Converted } from '../format.js'
import { str } from './content.js'
import { reasoningPart } from './decode-items.js'
import { toFinishReason } from './finish-reason.js'
import { mergeData, readEnvelope } from './reasoning.js'
import { decodeUsage } from './usage.js'

const FORMAT = 'responses'
type Wire = Record<string, unknown>

/**
 * Top-level keys decoded into the IR, and the ones that carry nothing about the answer (the echo of the request, the
 * lifecycle fields). Every other key goes to `extensions.responses` (reported when another format is the target).
 */
const decodedKeys = new Set([
  'id',
  'model',
  'output',
  'usage',
  'created_at',
  'status',
  'incomplete_details',
  'object',
  'error',
  'completed_at',
  'output_text',
  'instructions',
  'max_output_tokens',
  'max_tool_calls',
  'parallel_tool_calls',
  'previous_response_id',
  'reasoning',
  'store',
  'temperature',
  'text',
  'tool_choice',
  'tools',
  'top_p',
  'top_logprobs',
  'truncation',
  'user',
  'metadata',
  'safety_identifier',
  'prompt_cache_key',
  'prompt_cache_retention',
  'service_tier',
  'background',
  'conversation',
  'prompt',
  'billing',
  'include',
  'stream_options',
])

/** Output items → IR parts (shared with the input decoder's rules for reasoning envelopes). */
export function decodeOutput(output: unknown[], warnings: ir.Warning[]): ir.AssistantPart[] {
  const parts: ir.AssistantPart[] = []
  /** A Gemini signature carried by a reasoning item, for the function call or text part that follows it. */
  let pending: ir.ProviderData | undefined
  for (let i = 0; i < output.length; i++) {
    const item = output[i]
    const path = `output[${i}]`
    if (!isRecord(item)) invalidRequest(path, 'expected object', FORMAT)
    if (item.type === 'message') {
      const content = Array.isArray(item.content)
        ? item.content
        : invalidRequest(`${path}.content`, 'expected array', FORMAT)
      for (let j = 0; j < content.length; j++) {
        const part = content[j]
        if (!isRecord(part)) invalidRequest(`${path}.content[${j}]`, 'expected object', FORMAT)
        if (part.type === 'refusal')
          parts.push({ type: 'refusal', text: str(part.refusal, `${path}.content[${j}].refusal`) })
        else if (part.type === 'output_text') {
          const text: ir.TextPart = { type: 'text', text: str(part.text, `${path}.content[${j}].text`) }
          if (Array.isArray(part.annotations) && part.annotations.length > 0) {
            text.providerData = { [FORMAT]: { annotations: part.annotations } }
          }
          if (pending) {
            text.providerData = mergeData(text.providerData, pending)
            pending = undefined
          }
          if (Array.isArray(part.logprobs) && part.logprobs.length > 0)
            warnings.push({
              type: 'dropped',
              path: `${path}.content[${j}].logprobs`,
              message: 'logprobs are not carried',
            })
          parts.push(text)
        } else
          warnings.push({
            type: 'dropped',
            path: `${path}.content[${j}]`,
            message: `unknown content part ${String(part.type)}`,
          })
      }
    } else if (item.type === 'function_call' || item.type === 'custom_tool_call') {
      const custom = item.type === 'custom_tool_call'
      const callId = str(item.call_id, path, '.call_id')
      const args = custom
        ? JSON.stringify({ input: str(item.input, path, '.input') })
        : str(item.arguments, path, '.arguments')
      const part: ir.ToolCallPart = {
        type: 'tool-call',
        id: callId,
        name: str(item.name, path, '.name'),
        arguments: args,
      }
      if (custom) part.providerData = { [FORMAT]: { custom: true } }
      if (pending) {
        part.providerData = mergeData(part.providerData, pending)
        pending = undefined
      }
      parts.push(part)
    } else if (item.type === 'reasoning') {
      const carried = readEnvelope(item)
      if (carried?.kind === 'attach') pending = carried.providerData
      else parts.push(reasoningPart(item, path, carried))
    } else {
      warnings.push({ type: 'dropped', path, message: `${String(item.type)} output items have no counterpart` })
    }
  }
  return parts
}

export function decodeResponse(body: unknown): Converted<ir.Response> {
  if (!isRecord(body)) return invalidRequest('', 'The response body must be a JSON object', FORMAT)
  const warnings: ir.Warning[] = []
  if (!Array.isArray(body.output)) invalidRequest('output', 'required field is missing (expected array)', FORMAT)
  const content = decodeOutput(body.output, warnings)
  const reason = isRecord(body.incomplete_details) ? body.incomplete_details.reason : undefined
  const response: ir.Response = {
    id: typeof body.id === 'string' ? body.id : '',
    model: typeof body.model === 'string' ? body.model : '',
    content,
    finishReason: toFinishReason(
      body.status,
      reason,
      content.some((part) => part.type === 'tool-call'),
    ),
  }
  // A refusal-only answer is a content-filter stop, as every other format calls it (the raw status is kept).
  const refused =
    content.some((part) => part.type === 'refusal') && !content.some((part) => part.type === 'text' && part.text !== '')
  if (refused && response.finishReason.unified === 'stop') response.finishReason.unified = 'content-filter'
  if (typeof body.created_at === 'number') response.created = body.created_at
  const usage = decodeUsage(body.usage)
  if (usage) response.usage = usage
  let extensions: Wire | undefined
  for (const key of Object.keys(body)) {
    if (decodedKeys.has(key)) continue
    extensions ??= {}
    extensions[key] = body[key]
  }
  if (extensions) response.extensions = { [FORMAT]: extensions }
  return { value: response, warnings }
}
