/**
 * IR → messages request (wire), for the real service. @see wire-formats.md §2.2–2.4, §5
 *
 * Decisions:
 * - `max_tokens` is always present: `request.maxTokens ?? options.defaultMaxTokens ?? 4096` (policy 7).
 * - Reasoning: the raw `thinking` object of a messages source is reused as-is; otherwise `enabled: false` →
 *   `{type:'disabled'}`, a budget or an effort → `{type:'enabled', budget_tokens}` with the budget clamped to
 *   ≥ 1024 and `max_tokens` raised above it (each with a `changed` warning).
 * - Policy 3: with thinking on, a history whose assistant tool-use turn does not open with its own signed thinking
 *   block (it came from another format) would be rejected, so thinking is sent disabled, with a warning.
 * - `json` response format without a schema → `output_config.format` with the permissive `{type:'object'}`.
 */
import type * as ir from '../../ir/index.js'
import { budgetForEffort } from '../../ir/reasoning.js'
import { allowedToolsOnly } from '../../shared/allowed-tools.js'
import { reportForeignExtensions } from '../../shared/foreign-extensions.js'
import { dropHostedTool, reportWebSearchFields } from '../../shared/hosted-tools.js'
import type { Converted, EncodeRequestOptions } from '../format.js'
import type { Json } from './blocks.js'
import { encodeMessages, hasUnsignedToolTurn } from './encode-messages.js'

const dropWithoutEquivalent: Array<[keyof ir.Request, string]> = [
  ['seed', 'seed'],
  ['presencePenalty', 'presence_penalty'],
  ['frequencyPenalty', 'frequency_penalty'],
  ['logprobs', 'logprobs'],
  ['topLogprobs', 'top_logprobs'],
  ['metadata', 'metadata'],
]

/** The IR web search as Anthropic's `web_search` server tool (its own type and fields when it came from here). */
function encodeWebSearch(tool: ir.WebSearchTool, taken: ReadonlySet<string>, warnings: ir.Warning[]): Json | undefined {
  const own = tool.providerData?.messages
  const out: Json = { type: own?.['@type'] ?? 'web_search_20250305', name: own?.['@name'] ?? 'web_search' }
  if (own) for (const key in own) if (!key.startsWith('@')) out[key] = own[key]
  if (taken.has(out.name as string)) {
    dropHostedTool(warnings, `a function tool is already named ${out.name}`)
    return undefined
  }
  if (tool.maxUses !== undefined) out.max_uses = tool.maxUses
  // The service takes either list, not both.
  if (tool.allowedDomains) out.allowed_domains = tool.allowedDomains
  else if (tool.blockedDomains) out.blocked_domains = tool.blockedDomains
  if (tool.userLocation) out.user_location = { type: 'approximate', ...tool.userLocation }
  const supported = ['maxUses', 'allowedDomains', 'userLocation'] as const
  reportWebSearchFields(tool, 'messages', tool.allowedDomains ? supported : [...supported, 'blockedDomains'], warnings)
  return out
}

function encodeTools(request: ir.Request, warnings: ir.Warning[]): Json[] | undefined {
  const functions = encodeFunctionTools(request, warnings)
  if (!request.hostedTools) return functions
  const out = functions ?? []
  const taken = new Set(request.tools?.map((tool) => tool.name))
  for (const tool of request.hostedTools) {
    const encoded = encodeWebSearch(tool, taken, warnings)
    if (encoded) out.push(encoded)
  }
  return out
}

function encodeFunctionTools(request: ir.Request, warnings: ir.Warning[]): Json[] | undefined {
  const tools = allowedToolsOnly(request, 'messages', warnings)
  if (!tools) return undefined
  return tools.map((tool, i) => {
    let schema = tool.parameters ?? { type: 'object', properties: {} }
    if (schema.type !== 'object') {
      warnings.push({
        type: 'changed',
        path: `tools[${i}].parameters.type`,
        message: 'input_schema root set to type object',
      })
      schema = { ...schema, type: 'object' }
    }
    const out: Json = { name: tool.name, input_schema: schema }
    if (tool.description !== undefined) out.description = tool.description
    if (tool.strict !== undefined) out.strict = tool.strict
    const extras = tool.providerData?.messages
    if (extras) for (const key in extras) out[key] = extras[key]
    return out
  })
}

function encodeToolChoice(request: ir.Request): Json | undefined {
  const choice = request.toolChoice
  let out: Json | undefined
  if (choice) {
    if (choice.type === 'tool') out = { type: 'tool', name: choice.name }
    else out = { type: choice.type === 'required' ? 'any' : choice.type }
  }
  if (request.parallelToolCalls === false) {
    out ??= { type: 'auto' }
    if (out.type !== 'none') out.disable_parallel_tool_use = true
  } else if (request.parallelToolCalls === true && out && out.type !== 'none') out.disable_parallel_tool_use = false
  return out
}

function encodeThinking(request: ir.Request, body: Json, warnings: ir.Warning[]): void {
  const reasoning = request.reasoning
  if (!reasoning) return
  const raw = reasoning.providerData?.messages
  if (raw?.effort !== undefined && reasoning.effort !== undefined) {
    body.output_config = { ...(body.output_config as Json | undefined), effort: reasoning.effort }
  }
  if (raw?.thinking !== undefined) {
    body.thinking = raw.thinking
    return
  }
  if (raw?.effort !== undefined && reasoning.enabled === undefined) return
  let budget: number | undefined
  if (reasoning.enabled === false || reasoning.effort === 'none' || reasoning.budgetTokens === 0) {
    body.thinking = { type: 'disabled' }
    return
  }
  if (reasoning.budgetTokens !== undefined && reasoning.budgetTokens > 0) budget = reasoning.budgetTokens
  else if (reasoning.effort !== undefined) budget = budgetForEffort(reasoning.effort)
  else if (reasoning.enabled === true || reasoning.budgetTokens !== undefined) budget = budgetForEffort('medium')
  if (budget === undefined) return
  if (budget < 1024) {
    warnings.push({
      type: 'changed',
      path: 'reasoning',
      message: `thinking budget ${budget} raised to the minimum 1024`,
    })
    budget = 1024
  }
  const maxTokens = body.max_tokens as number
  if (budget >= maxTokens) {
    body.max_tokens = budget + maxTokens
    warnings.push({
      type: 'changed',
      path: 'maxTokens',
      message: `max_tokens raised from ${maxTokens} to ${budget + maxTokens} to fit the thinking budget`,
    })
  }
  const thinking: Json = { type: 'enabled', budget_tokens: budget }
  if (reasoning.includeThoughts === false) thinking.display = 'omitted'
  body.thinking = thinking
}

function encodeResponseFormat(format: ir.ResponseFormat | undefined, body: Json, warnings: ir.Warning[]): void {
  if (!format || format.type === 'text') return
  let schema: ir.JsonSchema
  if (format.type === 'json') {
    schema = { type: 'object' }
    warnings.push({ type: 'changed', path: 'responseFormat', message: 'JSON mode sent as a permissive object schema' })
  } else {
    schema = format.schema
    if (format.description !== undefined) {
      warnings.push({
        type: 'dropped',
        path: 'responseFormat.description',
        message: 'messages has no schema description',
      })
    }
  }
  body.output_config = { ...(body.output_config as Json | undefined), format: { type: 'json_schema', schema } }
}

function spreadExtensions(request: ir.Request, body: Json, warnings: ir.Warning[]): void {
  const extensions = request.extensions
  if (!extensions) return
  reportForeignExtensions(extensions, 'messages', warnings)
  const values = extensions.messages
  if (values) {
    for (const key in values) {
      const value = values[key]
      if (key === 'output_config') body.output_config = { ...(value as Json), ...(body.output_config as Json) }
      else if (key === 'tools' && Array.isArray(value))
        body.tools = [...((body.tools as Json[] | undefined) ?? []), ...value]
      else body[key] = value
    }
  }
}

export function encodeRequest(request: ir.Request, options: EncodeRequestOptions = {}): Converted<unknown> {
  const warnings: ir.Warning[] = []
  const { system, messages } = encodeMessages(request.messages, warnings)
  const body: Json = { model: request.model, max_tokens: request.maxTokens ?? options.defaultMaxTokens ?? 4096 }
  if (system !== undefined) body.system = system
  body.messages = messages
  if (request.temperature !== undefined) {
    const t = Math.min(1, Math.max(0, request.temperature))
    if (t !== request.temperature) {
      warnings.push({
        type: 'changed',
        path: 'temperature',
        message: `temperature ${request.temperature} clamped to ${t}`,
      })
    }
    body.temperature = t
  }
  if (request.topP !== undefined) body.top_p = request.topP
  if (request.topK !== undefined) body.top_k = request.topK
  if (request.stopSequences !== undefined) body.stop_sequences = request.stopSequences
  if (request.stream !== undefined) body.stream = request.stream
  if (request.n !== undefined && request.n > 1) {
    warnings.push({ type: 'dropped', path: 'n', message: 'messages returns one choice; n > 1 ignored' })
  }
  for (const [field, name] of dropWithoutEquivalent) {
    if (request[field] !== undefined) warnings.push({ type: 'dropped', path: name, message: `messages has no ${name}` })
  }
  if (request.user !== undefined) body.metadata = { user_id: request.user }
  const tools = encodeTools(request, warnings)
  if (tools) body.tools = tools
  const choice = encodeToolChoice(request)
  if (choice) body.tool_choice = choice
  encodeThinking(request, body, warnings)
  encodeResponseFormat(request.responseFormat, body, warnings)
  spreadExtensions(request, body, warnings)
  reconcileThinking(body, messages, warnings)
  return { value: body, warnings }
}

function disableThinking(body: Json, warnings: ir.Warning[], reason: string): void {
  body.thinking = { type: 'disabled' }
  warnings.push({ type: 'changed', path: 'reasoning', message: `thinking disabled: ${reason}` })
}

/**
 * With thinking on, the service rejects (wire-formats.md §5.5): a history whose tool-use turn lacks its own
 * signed thinking block (policy 3), a forced tool choice, `temperature` ≠ 1, `top_k`, and `top_p` < 0.95.
 */
function reconcileThinking(body: Json, messages: Json[], warnings: ir.Warning[]): void {
  const thinking = body.thinking as Json | undefined
  if (!thinking || thinking.type === 'disabled') return
  if (hasUnsignedToolTurn(messages)) {
    disableThinking(body, warnings, 'an assistant tool-use turn has no signed thinking block from messages')
    return
  }
  const choice = body.tool_choice as Json | undefined
  if (choice && (choice.type === 'any' || choice.type === 'tool')) {
    disableThinking(body, warnings, 'a forced tool choice is not allowed with thinking')
    return
  }
  if (body.temperature !== undefined && body.temperature !== 1) {
    warnings.push({ type: 'dropped', path: 'temperature', message: 'temperature must stay at 1 with thinking' })
    delete body.temperature
  }
  if (body.top_k !== undefined) {
    warnings.push({ type: 'dropped', path: 'top_k', message: 'top_k is not allowed with thinking' })
    delete body.top_k
  }
  if (typeof body.top_p === 'number' && body.top_p < 0.95) {
    warnings.push({ type: 'changed', path: 'top_p', message: `top_p ${body.top_p} raised to 0.95 for thinking` })
    body.top_p = 0.95
  }
}
