/**
 * IR → Responses request body. @see responses-api.md §2–§4, §9
 * A translated request is stateless: `store: false`, the whole conversation in `input`, and (with reasoning on)
 * `include: ["reasoning.encrypted_content"]` so reasoning items come back whole (§7).
 */
import type * as ir from '../../ir/index.js'
import { effortForBudget } from '../../ir/reasoning.js'
import { endUserId } from '../../shared/end-user-id.js'
import { reportForeignExtensions, reportForeignToolData } from '../../shared/foreign-extensions.js'
import { reportWebSearchFields } from '../../shared/hosted-tools.js'
import { applyMessagesFeatures } from '../../shared/messages-features.js'
import type { Converted, EncodeRequestOptions } from '../format.js'
import { DESCRIPTION_KEY, GROUP_DESCRIPTION_KEY, HOSTED_TOOLS_KEY } from './decode-tools.js'
import { encodeItems } from './encode-items.js'
import { NAME_KEY, NAMESPACE_KEY } from './tool-names.js'

const FORMAT = 'responses'
type Wire = Record<string, unknown>

function encodeTool(tool: ir.Tool, path: string, warnings: ir.Warning[]): Wire {
  const own = tool.providerData?.[FORMAT]
  const named = typeof own?.[NAMESPACE_KEY] === 'string' ? String(own[NAME_KEY]) : tool.name
  const custom = own?.custom as Wire | undefined
  if (custom) {
    const out: Wire = { type: 'custom', name: named }
    if (tool.description !== undefined) out.description = tool.description
    if (custom.format !== undefined) out.format = custom.format
    return out
  }
  // `parameters` and `strict` are required keys; OpenAI defaults `strict` to true, which rejects loose schemas.
  const out: Wire = { type: 'function', name: named }
  const description = own && DESCRIPTION_KEY in own ? own[DESCRIPTION_KEY] : tool.description
  if (description !== undefined && description !== null) out.description = description
  out.parameters = tool.parameters ?? { type: 'object', properties: {} }
  out.strict = tool.strict ?? false
  if (own) for (const key in own) if (!key.startsWith('@')) out[key] = own[key]
  reportForeignToolData(tool.providerData, FORMAT, path, warnings)
  return out
}

/** The request's tools; the members of a flattened namespace go back into one `namespace` tool, where the first was. */
function encodeTools(request: ir.Request, warnings: ir.Warning[]): Wire[] {
  const out: Wire[] = []
  const groups = new Map<string, Wire[]>()
  const tools = request.tools ?? []
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i] as ir.Tool
    const encoded = encodeTool(tool, `tools[${i}]`, warnings)
    const namespace = tool.providerData?.[FORMAT]?.[NAMESPACE_KEY]
    if (typeof namespace !== 'string') {
      out.push(encoded)
      continue
    }
    let members = groups.get(namespace)
    if (!members) {
      members = []
      groups.set(namespace, members)
      const about = tool.providerData?.[FORMAT]?.[GROUP_DESCRIPTION_KEY]
      out.push({
        type: 'namespace',
        name: namespace,
        description: typeof about === 'string' ? about : '',
        tools: members,
      })
    }
    members.push(encoded)
  }
  for (const tool of request.hostedTools ?? []) out.push(encodeWebSearch(tool, warnings))
  const unmapped = request.extensions?.[FORMAT]?.[HOSTED_TOOLS_KEY]
  if (Array.isArray(unmapped)) out.push(...(unmapped as Wire[]))
  return out
}

/** The IR web search as a Responses `web_search` tool (the source's own type and fields when it came from here). */
function encodeWebSearch(tool: ir.WebSearchTool, warnings: ir.Warning[]): Wire {
  const own = tool.providerData?.[FORMAT]
  const out: Wire = { type: own?.['@type'] ?? 'web_search' }
  if (own) for (const key in own) if (!key.startsWith('@')) out[key] = own[key]
  if (tool.allowedDomains) out.filters = { ...(out.filters as Wire | undefined), allowed_domains: tool.allowedDomains }
  if (tool.userLocation) out.user_location = { type: 'approximate', ...tool.userLocation }
  if (tool.searchContextSize) out.search_context_size = tool.searchContextSize
  reportWebSearchFields(tool, FORMAT, ['allowedDomains', 'userLocation', 'searchContextSize'], warnings)
  return out
}

function encodeToolChoice(request: ir.Request): unknown {
  const choice = request.toolChoice
  if (request.allowedTools) {
    return {
      type: 'allowed_tools',
      mode: choice?.type === 'required' ? 'required' : 'auto',
      tools: request.allowedTools.map((name) => ({ type: 'function', name })),
    }
  }
  if (!choice) return undefined
  if (choice.type !== 'tool') return choice.type
  const tool = request.tools?.find((entry) => entry.name === choice.name)
  return { type: tool?.providerData?.[FORMAT]?.custom ? 'custom' : 'function', name: choice.name }
}

function encodeReasoning(reasoning: ir.ReasoningConfig): Wire {
  const out: Wire = {}
  if (reasoning.enabled === false) out.effort = 'none'
  else if (reasoning.effort !== undefined) out.effort = reasoning.effort
  else if (reasoning.budgetTokens !== undefined && reasoning.budgetTokens >= 0)
    out.effort = effortForBudget(reasoning.budgetTokens)
  else if (reasoning.budgetTokens !== undefined) out.effort = 'medium'
  const summary = reasoning.providerData?.[FORMAT]?.summary
  if (summary !== undefined) out.summary = summary
  else if (reasoning.includeThoughts) out.summary = 'auto'
  return out
}

export function encodeRequest(source: ir.Request, _options?: EncodeRequestOptions): Converted<unknown> {
  const warnings: ir.Warning[] = []
  const request = applyMessagesFeatures(source, FORMAT, warnings)
  const { instructions, input } = encodeItems(request.messages, warnings)
  const body: Wire = { model: request.model }
  if (instructions !== undefined) body.instructions = instructions
  body.input = input
  const tools = encodeTools(request, warnings)
  if (request.tools || tools.length > 0) body.tools = tools
  const toolChoice = encodeToolChoice(request)
  if (toolChoice !== undefined) body.tool_choice = toolChoice
  if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens
  if (request.temperature !== undefined) body.temperature = request.temperature
  if (request.topP !== undefined) body.top_p = request.topP
  if (request.topLogprobs !== undefined) body.top_logprobs = request.topLogprobs
  else if (request.logprobs)
    warnings.push({
      type: 'dropped',
      path: 'logprobs',
      message: 'logprobs without top_logprobs have no Responses field',
    })
  const dropped: Array<[unknown, string, string]> = [
    [request.topK, 'topK', 'top_k'],
    [request.stopSequences, 'stopSequences', 'stop sequences'],
    [request.seed, 'seed', 'seed'],
    [request.presencePenalty, 'presencePenalty', 'presence_penalty'],
    [request.frequencyPenalty, 'frequencyPenalty', 'frequency_penalty'],
  ]
  for (const [value, path, name] of dropped) {
    if (value !== undefined) warnings.push({ type: 'dropped', path, message: `${name} has no Responses field` })
  }
  if (request.n !== undefined && request.n !== 1) {
    warnings.push({ type: 'dropped', path: 'n', message: 'Responses returns one answer (n > 1 dropped)' })
  }
  if (request.user !== undefined) body.safety_identifier = endUserId(request.user, 'user', warnings)
  if (request.metadata !== undefined) body.metadata = request.metadata
  if (request.reasoning) body.reasoning = encodeReasoning(request.reasoning)
  const format = request.responseFormat
  if (format?.type === 'text') body.text = { format: { type: 'text' } }
  else if (format?.type === 'json') body.text = { format: { type: 'json_object' } }
  else if (format?.type === 'json-schema') {
    const out: Wire = { type: 'json_schema', name: format.name ?? 'response' }
    if (format.description !== undefined) out.description = format.description
    out.schema = format.schema
    if (format.strict !== undefined) out.strict = format.strict
    body.text = { format: out }
  }
  if (request.stream !== undefined) body.stream = request.stream
  body.store = false
  if (request.reasoning && request.reasoning.enabled !== false) body.include = ['reasoning.encrypted_content']
  reportForeignExtensions(request.extensions, FORMAT, warnings)
  return { value: body, warnings }
}
