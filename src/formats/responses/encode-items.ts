/**
 * IR messages → Responses `input` items (responses-api.md §3, §9.1–§9.4). Leading system messages become
 * `instructions`; an assistant turn becomes its items in order (reasoning, message, function_call); a tool turn one
 * `function_call_output` per result. OpenAI's own reasoning items (decoded from a Responses body) go back verbatim;
 * another provider's reasoning never reaches a Responses upstream (dropped with a warning). The item builders here are
 * shared with the response encoders, where other providers' signatures do travel, in envelopes, to the client.
 */
import type * as ir from '../../ir/index.js'
import { encodeInputPart } from './content.js'
import { reasoningEnvelope } from './reasoning.js'
import { partNamespace } from './tool-names.js'

const FORMAT = 'responses'
type Wire = Record<string, unknown>

function own(providerData: ir.ProviderData | undefined): Wire | undefined {
  return providerData?.[FORMAT]
}

function textContent(parts: ir.TextPart[]): string | Wire[] {
  if (parts.length === 1) return (parts[0] as ir.TextPart).text
  return parts.map((part) => ({ type: 'input_text', text: part.text }))
}

/** One reasoning item for a reasoning / redacted part; OpenAI's own reasoning item goes back as it came. */
export function reasoningItem(part: ir.ReasoningPart | ir.RedactedReasoningPart, id?: string): Wire {
  const verbatim = own(part.providerData)?.item as Wire | undefined
  if (verbatim) return id === undefined ? { ...verbatim } : { id, ...verbatim }
  const item: Wire = { type: 'reasoning' }
  if (id !== undefined) item.id = id
  item.summary = part.type === 'reasoning' && part.text !== '' ? [{ type: 'summary_text', text: part.text }] : []
  item.encrypted_content = reasoningEnvelope(part)
  return item
}

/** A reasoning item carrying a Gemini signature for the part that follows it (a function call or text). */
export function attachItem(envelope: string, id?: string): Wire {
  const item: Wire = { type: 'reasoning' }
  if (id !== undefined) item.id = id
  item.summary = []
  item.encrypted_content = envelope
  return item
}

/** A `function_call` (or `custom_tool_call`) item; a call decoded with a `namespace` gets its wire name back. */
export function callItem(part: ir.ToolCallPart, id?: string, status?: string): Wire {
  const named = partNamespace(part)
  const custom = own(part.providerData)?.custom === true
  const out: Wire = { type: custom ? 'custom_tool_call' : 'function_call' }
  if (id !== undefined) out.id = id
  if (status !== undefined) out.status = status
  if (custom) {
    let input: unknown
    try {
      input = (JSON.parse(part.arguments) as Wire).input
    } catch {}
    out.call_id = part.id
    out.name = named?.name ?? part.name
    out.input = typeof input === 'string' ? input : part.arguments
  } else {
    out.arguments = part.arguments === '' ? '{}' : part.arguments
    out.call_id = part.id
    out.name = named?.name ?? part.name
  }
  if (named) out.namespace = named.namespace
  return out
}

function outputText(part: ir.TextPart | ir.RefusalPart): Wire {
  if (part.type === 'refusal') return { type: 'refusal', refusal: part.text }
  const annotations = own(part.providerData)?.annotations
  return annotations ? { type: 'output_text', text: part.text, annotations } : { type: 'output_text', text: part.text }
}

/** The IR path of message `m`, built only when a warning needs it. */
const messagePath = (m: number) => `messages[${m}]`

function assistantItems(message: ir.AssistantMessage, m: number, out: Wire[], warnings: ir.Warning[]): void {
  // The current run of text and refusal parts, encoded (empty texts left out): one message item.
  let current: Wire[] | undefined
  const content = message.content
  for (let i = 0; i < content.length; i++) {
    const part = content[i] as ir.AssistantPart
    if (part.type === 'text' || part.type === 'refusal') {
      current ??= []
      if (part.type === 'refusal' || part.text !== '') current.push(outputText(part))
      continue
    }
    if (current) {
      if (current.length > 0) out.push({ type: 'message', role: 'assistant', content: current })
      current = undefined
    }
    // Upstreams only get their own reasoning (policy 3): OpenAI's encrypted items go back whole; another provider's
    // reasoning or signature is left out, as OpenAI itself withholds reasoning of another model.
    if (part.type === 'reasoning' || part.type === 'redacted-reasoning') {
      if (part.providerData?.[FORMAT]?.item) out.push(reasoningItem(part))
      else {
        warnings.push({
          type: 'dropped',
          path: `${messagePath(m)}.content[${i}]`,
          message: 'reasoning of another provider cannot be replayed to a Responses upstream',
        })
      }
    } else if (part.type === 'tool-call') out.push(callItem(part))
    else
      warnings.push({
        type: 'dropped',
        path: `${messagePath(m)}.content[${i}]`,
        message: `assistant ${part.type} cannot be sent`,
      })
  }
  if (current && current.length > 0) out.push({ type: 'message', role: 'assistant', content: current })
}

/** True when every part is text. */
function allText(parts: readonly ir.Part[]): parts is ir.TextPart[] {
  for (const part of parts) if (part.type !== 'text') return false
  return true
}

/** The texts joined with no separator (what `map(text).join('')` gives). */
function joinedText(parts: readonly ir.TextPart[]): string {
  if (parts.length === 1) return (parts[0] as ir.TextPart).text
  let text = ''
  for (const part of parts) text += part.text
  return text
}

function toolItems(message: ir.ToolMessage, m: number, out: Wire[], warnings: ir.Warning[]): void {
  for (let i = 0; i < message.content.length; i++) {
    const result = message.content[i] as ir.ToolResultPart
    const custom = own(result.providerData)?.custom === true
    let output: string | Wire[]
    if (allText(result.content)) output = joinedText(result.content)
    else {
      output = []
      for (let j = 0; j < result.content.length; j++) {
        const path = `${messagePath(m)}.content[${i}].content[${j}]`
        const part = encodeInputPart(result.content[j] as ir.Part, path, warnings)
        if (part) output.push(part)
      }
    }
    if (result.isError) {
      const prefix = 'Error: '
      if (typeof output === 'string') output = prefix + output
      else output.unshift({ type: 'input_text', text: prefix })
      warnings.push({
        type: 'changed',
        path: `${messagePath(m)}.content[${i}]`,
        message: 'isError has no field: output prefixed with "Error: "',
      })
    }
    out.push({ type: custom ? 'custom_tool_call_output' : 'function_call_output', call_id: result.toolCallId, output })
  }
}

/** `instructions` (leading system prompts) and the `input` items. */
export function encodeItems(messages: ir.Message[], warnings: ir.Warning[]): { instructions?: string; input: Wire[] } {
  const input: Wire[] = []
  let instructions: string | undefined
  let leading = true
  for (let m = 0; m < messages.length; m++) {
    const message = messages[m] as ir.Message
    if (message.role === 'system') {
      const text = message.content.map((part) => part.text).join('\n\n')
      // Leading system prompts become `instructions` (joined); later ones stay in place, which Responses allows.
      if (leading) {
        instructions = instructions === undefined ? text : `${instructions}\n\n${text}`
        continue
      }
      const developer = message.providerData?.['chat-completions']?.role === 'developer'
      input.push({ role: developer ? 'developer' : 'system', content: textContent(message.content) })
      continue
    }
    leading = false
    if (message.role === 'user') {
      let content: string | Wire[]
      content = []
      const parts = message.content
      if (allText(parts)) for (const part of parts) content.push({ type: 'input_text', text: part.text })
      else
        for (let i = 0; i < parts.length; i++) {
          const part = encodeInputPart(parts[i] as ir.Part, `${messagePath(m)}.content[${i}]`, warnings)
          if (part) content.push(part)
        }
      input.push({ role: 'user', content })
    } else if (message.role === 'assistant') assistantItems(message, m, input, warnings)
    else toolItems(message, m, input, warnings)
  }
  const result: { instructions?: string; input: Wire[] } = { input }
  if (instructions !== undefined) result.instructions = instructions
  return result
}
