/**
 * Responses `input` items → IR messages (responses-api.md §3, §9.2, §9.3). Items are flat; turns are rebuilt:
 * a run of assistant `message`, `reasoning`, `function_call` and `custom_tool_call` items is one assistant turn
 * (N parallel calls → one turn), a run of `*_call_output` items one tool turn, `call_id` is the join key.
 * Item ids and statuses are informational (responses-api.md §3.5) and are not kept: a Responses → Responses
 * conversion is the identity and never decodes.
 */
import { invalidRequest } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import type { Requirement } from '../../shared/foreign-extensions.js'
import { indexedPath } from '../../shared/indexed-path.js'
import { isRecord } from '../../shared/is-record.js'
import { decodeInputPart, optStr, str } from './content.js'
import { type Carried, mergeData, readEnvelope } from './reasoning.js'
import { irCallName, NAME_KEY, NAMESPACE_KEY, type NamespacedNames } from './tool-names.js'

const FORMAT = 'responses'
type Wire = Record<string, unknown>
const inputPath = indexedPath('input')

/**
 * Part `j` of `list` (`content` or `output`) of the item at `path`. A text part — most parts of a conversation — is
 * made here without its path, which is built only for the other kinds (and their errors).
 */
function contentPart(list: unknown[], j: number, path: string, key: 'content' | 'output', warnings: ir.Warning[]) {
  const part = list[j]
  if (isRecord(part) && typeof part.text === 'string') {
    const type = part.type
    if (type === 'input_text' || type === 'output_text' || type === 'text')
      return { type: 'text' as const, text: part.text }
  }
  return decodeInputPart(part, `${path}.${key}[${j}]`, warnings)
}

/** Server-side items that only OpenAI can resolve or that record hosted execution. */
const hostedItems = new Set([
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'tool_search_call',
  'tool_search_output',
  'program',
  'program_output',
  'compaction',
  'compaction_trigger',
])

/** The provider data of an OpenAI reasoning item: the item as sent (id, summary, encrypted content). */
export function reasoningData(item: Wire): ir.ProviderData {
  const kept: Wire = { type: 'reasoning' }
  if (typeof item.id === 'string') kept.id = item.id
  kept.summary = Array.isArray(item.summary) ? item.summary : []
  kept.encrypted_content = item.encrypted_content
  return { [FORMAT]: { item: kept } }
}

function own(data: Wire): ir.ProviderData {
  return { [FORMAT]: data }
}

export interface DecodedItems {
  messages: ir.Message[]
  requires: Requirement[]
}

/** `namespaced`: the flat IR names the request's namespace functions got (a replayed call is mapped to its own). */
export function decodeItems(
  input: unknown[],
  warnings: ir.Warning[],
  namespaced: NamespacedNames = new Map(),
): DecodedItems {
  const messages: ir.Message[] = []
  const requires: Requirement[] = []
  const calls = new Map<string, ir.ToolCallPart>()
  /** A Gemini signature carried by a reasoning item, for the function call or text part that follows it. */
  let pending: ir.ProviderData | undefined

  const last = () => messages[messages.length - 1]
  const assistant = (): ir.AssistantMessage => {
    const current = last()
    if (current?.role === 'assistant') return current
    const created: ir.AssistantMessage = { role: 'assistant', content: [] }
    messages.push(created)
    return created
  }
  const toolTurn = (): ir.ToolMessage => {
    const current = last()
    if (current?.role === 'tool') return current
    const created: ir.ToolMessage = { role: 'tool', content: [] }
    messages.push(created)
    return created
  }

  for (let i = 0; i < input.length; i++) {
    const item = input[i]
    const path = inputPath(i)
    if (!isRecord(item)) invalidRequest(path, 'expected object', FORMAT)
    const type = item.type ?? (item.role !== undefined ? 'message' : undefined)
    switch (type) {
      case 'message': {
        const role = item.role
        if (role === 'assistant') {
          const parts = assistantParts(item, path, warnings)
          const text = pending ? parts.find((part) => part.type === 'text') : undefined
          if (text) {
            text.providerData = mergeData(text.providerData, pending)
            pending = undefined
          }
          const content = assistant().content
          for (const part of parts) content.push(part)
        } else if (role === 'user' || role === 'system' || role === 'developer') {
          messages.push(inputMessage(item, role, path, warnings))
        } else invalidRequest(`${path}.role`, 'expected "user", "assistant", "system" or "developer"', FORMAT)
        break
      }
      case 'function_call':
      case 'custom_tool_call': {
        const callId = str(item.call_id, path, '.call_id')
        const name = str(item.name, path, '.name')
        const custom = type === 'custom_tool_call'
        const args = custom
          ? JSON.stringify({ input: str(item.input, path, '.input') })
          : str(item.arguments, path, '.arguments')
        const namespace = optStr(item.namespace, path, '.namespace')
        const irName = namespace ? irCallName(namespaced, namespace, name) : name
        const part: ir.ToolCallPart = { type: 'tool-call', id: callId, name: irName, arguments: args }
        const data: Wire = {}
        if (custom) data.custom = true
        if (namespace) {
          data[NAMESPACE_KEY] = namespace
          data[NAME_KEY] = name
        }
        if (custom || namespace) part.providerData = own(data)
        if (pending) {
          part.providerData = mergeData(part.providerData, pending)
          pending = undefined
        }
        calls.set(callId, part)
        assistant().content.push(part)
        break
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const callId = str(item.call_id, path, '.call_id')
        const output = item.output
        let content: ir.ToolResultContent[]
        if (typeof output === 'string') content = [{ type: 'text', text: output }]
        else if (Array.isArray(output)) {
          content = []
          for (let j = 0; j < output.length; j++) {
            const part = contentPart(output, j, path, 'output', warnings)
            if (part) content.push(part)
          }
        } else return invalidRequest(`${path}.output`, 'expected string or array', FORMAT)
        const result: ir.ToolResultPart = { type: 'tool-result', toolCallId: callId, content }
        if (type === 'custom_tool_call_output') result.providerData = own({ custom: true })
        const name = typeof item.name === 'string' ? item.name : calls.get(callId)?.name
        if (name !== undefined) result.toolName = name
        toolTurn().content.push(result)
        break
      }
      case 'reasoning': {
        const carried = readEnvelope(item)
        if (carried?.kind === 'attach') pending = carried.providerData
        else assistant().content.push(reasoningPart(item, path, carried))
        break
      }
      case 'web_search_call': {
        // No other format can replay a search (Anthropic's result blocks need its encrypted content, which this item
        // never has; Gemini and Chat Completions have no such block): what was searched stays as context text.
        const text = webSearchText(item)
        if (text) assistant().content.push({ type: 'text', text })
        warnings.push({
          type: 'changed',
          path,
          message: text
            ? 'web_search_call has no equivalent outside Responses; kept as context text in the assistant turn'
            : 'web_search_call without an action; left out',
        })
        break
      }
      case 'additional_tools':
        // Its tools are the request's tools (decode-tools.ts `requestTools`): nothing for the conversation.
        break
      case 'item_reference':
        requires.push({
          path,
          message: `item_reference ${JSON.stringify(item.id)} names an item stored by an earlier response, and this gateway stores none: send the whole conversation with store: false (AI SDK: providerOptions.openai.store = false)`,
        })
        break
      default:
        if (typeof type === 'string' && hostedItems.has(type)) {
          warnings.push({ type: 'dropped', path, message: `${type} items record hosted tool execution; left out` })
          break
        }
        invalidRequest(`${path}.type`, `unknown input item type ${JSON.stringify(type)}`, FORMAT)
    }
  }
  return { messages, requires }
}

function inputMessage(
  item: Wire,
  role: 'user' | 'system' | 'developer',
  path: string,
  warnings: ir.Warning[],
): ir.Message {
  const content = item.content
  let parts: Array<ir.TextPart | ir.ImagePart | ir.DocumentPart>
  if (typeof content === 'string') {
    parts = [{ type: 'text', text: content }]
  } else if (Array.isArray(content)) {
    parts = []
    for (let j = 0; j < content.length; j++) {
      const part = contentPart(content, j, path, 'content', warnings)
      if (part) parts.push(part)
    }
  } else return invalidRequest(`${path}.content`, 'expected string or array', FORMAT)
  if (role === 'user') return { role: 'user', content: parts }
  const texts: ir.TextPart[] = []
  for (let j = 0; j < parts.length; j++) {
    const part = parts[j] as ir.TextPart | ir.ImagePart | ir.DocumentPart
    if (part.type === 'text') texts.push(part)
    else warnings.push({ type: 'dropped', path: `${path}.content[${j}]`, message: `${role} messages hold text only` })
  }
  const system: ir.SystemMessage = { role: 'system', content: texts }
  // The chat-completions convention for `developer` (its encoder writes the role back).
  if (role === 'developer') system.providerData = { 'chat-completions': { role: 'developer' } }
  return system
}

function assistantParts(item: Wire, path: string, warnings: ir.Warning[]): ir.AssistantPart[] {
  const content = item.content
  const parts: ir.AssistantPart[] = []
  if (typeof content === 'string') {
    parts.push({ type: 'text', text: content })
  } else if (Array.isArray(content)) {
    for (let j = 0; j < content.length; j++) {
      const part = content[j]
      if (isRecord(part) && part.type === 'refusal') {
        parts.push({ type: 'refusal', text: str(part.refusal, `${path}.content[${j}]`, '.refusal') })
        continue
      }
      const decoded = contentPart(content, j, path, 'content', warnings)
      if (!decoded) continue
      if (decoded.type !== 'text') {
        const partPath = `${path}.content[${j}]`
        warnings.push({ type: 'dropped', path: partPath, message: 'assistant messages hold text and refusals only' })
        continue
      }
      const annotations = (part as Wire).annotations
      if (Array.isArray(annotations) && annotations.length > 0) decoded.providerData = own({ annotations })
      parts.push(decoded)
    }
  } else invalidRequest(`${path}.content`, 'expected string or array', FORMAT)
  return parts
}

export function reasoningPart(item: Wire, path: string, carried: Carried | undefined): ir.AssistantPart {
  const summary = item.summary ?? []
  if (!Array.isArray(summary)) invalidRequest(`${path}.summary`, 'expected array', FORMAT)
  const texts: string[] = []
  for (let j = 0; j < summary.length; j++) {
    const entry = summary[j]
    if (!isRecord(entry)) invalidRequest(`${path}.summary[${j}]`, 'expected object', FORMAT)
    texts.push(str(entry.text, `${path}.summary[${j}].text`))
  }
  optStr(item.encrypted_content, path, '.encrypted_content')
  if (carried?.kind === 'redacted') {
    const redacted: ir.RedactedReasoningPart = { type: 'redacted-reasoning', data: carried.data }
    if (carried.providerData) redacted.providerData = carried.providerData
    return redacted
  }
  const part: ir.ReasoningPart = { type: 'reasoning', text: texts.join('\n\n') }
  // Our envelope's signatures (none in the envelope of nothing), or OpenAI's own encrypted reasoning, which goes
  // back untouched, and only to a Responses upstream.
  if (carried?.kind === 'reasoning') {
    if (carried.providerData) part.providerData = carried.providerData
  } else if (typeof item.encrypted_content === 'string') part.providerData = reasoningData(item)
  return part
}

/** A `web_search_call` item as a line of context: what was searched or opened, and the sources, if listed. */
function webSearchText(item: Wire): string | undefined {
  const action = isRecord(item.action) ? item.action : undefined
  if (!action) return undefined
  const quote = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : undefined)
  let text: string | undefined
  if (action.type === 'search') {
    const queries = Array.isArray(action.queries) ? action.queries.map(quote).filter(Boolean) : []
    if (queries.length === 0 && quote(action.query)) queries.push(quote(action.query))
    text = `[web search${queries.length > 0 ? `: ${queries.join(', ')}` : ''}`
    const sources = Array.isArray(action.sources)
      ? action.sources.flatMap((source) => (isRecord(source) && typeof source.url === 'string' ? [source.url] : []))
      : []
    if (sources.length > 0) text += ` — sources: ${sources.join(', ')}`
  } else if (action.type === 'open_page' && typeof action.url === 'string') text = `[web page opened: ${action.url}`
  else if (action.type === 'find_in_page' && typeof action.url === 'string')
    text = `[searched ${action.url} for ${quote(action.pattern) ?? 'text'}`
  if (text === undefined) return undefined
  return `${text}${item.status === 'failed' ? ' (failed)' : ''}]`
}
