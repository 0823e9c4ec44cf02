/**
 * Responses `tools` and `tool_choice` → IR (responses-api.md §4, §9.5).
 * - `function` and `custom` tools are IR function tools (a custom tool gets one string parameter `input`).
 * - `namespace` tools are flattened: one IR function tool per member, named `namespace__name` (tool-names.ts).
 * - The tools of an `additional_tools` input item (where Codex 0.169+ sends its tools for its default model, with
 *   none in `tools`) are the request's tools too: the IR has one tool list, so they join `tools` wherever the item is.
 * - `web_search*` is the IR `web-search` hosted tool, which every encoder maps to its own (or drops with a warning).
 * - Every other hosted tool (file_search, code_interpreter, computer, image_generation, mcp, local_shell, shell,
 *   apply_patch, tool_search, …) runs on OpenAI's servers only: a `dropped` warning (with `strict`, a 400), never a
 *   refusal by default — Codex always sends some. They are kept verbatim (`@hostedTools`) for this format's encoder.
 */
import { invalidRequest } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import { isContextSize, userLocationOf } from '../../shared/hosted-tools.js'
import { isRecord } from '../../shared/is-record.js'
import type { WireRequest } from './schema.js'
import { flatName, irCallName, NAME_KEY, NAMESPACE_KEY, type NamespacedNames, namespacedKey } from './tool-names.js'

const FORMAT = 'responses'
type Wire = Record<string, unknown>

/** The extension key under which hosted tools with no IR shape are kept for this format's own encoder. */
export const HOSTED_TOOLS_KEY = '@hostedTools'
/** A namespace member's own description and its group's, when the group has one. */
export const DESCRIPTION_KEY = '@description'
export const GROUP_DESCRIPTION_KEY = '@namespaceDescription'

/** Custom tools become a function tool with one required string property (responses-api.md §9.5, item 20). */
export const customParameters = (description?: string): ir.JsonSchema => ({
  type: 'object',
  properties: { input: description === undefined ? { type: 'string' } : { type: 'string', description } },
  required: ['input'],
  additionalProperties: false,
})

/** Every tool type of the Responses API (openai SDK `Tool`); anything else is refused as the service refuses it. */
export const toolTypes = new Set([
  'function',
  'custom',
  'file_search',
  'computer',
  'computer_use_preview',
  'web_search',
  'web_search_2025_08_26',
  'web_search_preview',
  'web_search_preview_2025_03_11',
  'mcp',
  'code_interpreter',
  'programmatic_tool_calling',
  'image_generation',
  'local_shell',
  'shell',
  'namespace',
  'tool_search',
  'apply_patch',
])

const webSearchTypes = new Set([
  'web_search',
  'web_search_2025_08_26',
  'web_search_preview',
  'web_search_preview_2025_03_11',
])

export interface DecodedTools {
  tools: ir.Tool[]
  hostedTools: ir.HostedTool[]
  /** Hosted tools with no IR shape, verbatim. */
  unmapped: Wire[]
  /** The flat IR names of the namespace functions. */
  namespaced: NamespacedNames
}

function functionTool(tool: Wire, path: string, warnings: ir.Warning[]): ir.FunctionTool {
  if (tool.description !== undefined && tool.description !== null && typeof tool.description !== 'string')
    invalidRequest(`${path}.description`, 'expected string', FORMAT)
  if (tool.strict !== undefined && tool.strict !== null && typeof tool.strict !== 'boolean')
    invalidRequest(`${path}.strict`, 'expected boolean', FORMAT)
  if (typeof tool.name !== 'string')
    invalidRequest(`${path}.name`, 'required field is missing (expected string)', FORMAT)
  if (tool.type === 'custom') {
    const description = typeof tool.description === 'string' ? tool.description : undefined
    const fn: ir.FunctionTool = {
      type: 'function',
      name: tool.name,
      parameters: customParameters(description),
      providerData: { [FORMAT]: { custom: isRecord(tool.format) ? { format: tool.format } : {} } },
    }
    if (description !== undefined) fn.description = description
    const format = tool.format
    if (isRecord(format) && format.type === 'grammar') {
      warnings.push({
        type: 'dropped',
        path: `${path}.format`,
        message: `the ${String(format.syntax)} grammar of custom tool ${tool.name} cannot be enforced off OpenAI; the model gets a string parameter "input"`,
      })
    }
    return fn
  }
  const fn: ir.FunctionTool = { type: 'function', name: tool.name }
  if (typeof tool.description === 'string') fn.description = tool.description
  if (isRecord(tool.parameters)) fn.parameters = tool.parameters
  else if (tool.parameters !== undefined && tool.parameters !== null)
    invalidRequest(`${path}.parameters`, 'expected object or null', FORMAT)
  if (typeof tool.strict === 'boolean') fn.strict = tool.strict
  // Tool fields with no IR slot (defer_loading, …) are reported by other encoders.
  const extra: Wire = {}
  for (const key of Object.keys(tool)) {
    if (!['type', 'name', 'description', 'parameters', 'strict'].includes(key)) extra[key] = tool[key]
  }
  if (Object.keys(extra).length > 0) fn.providerData = { [FORMAT]: extra }
  return fn
}

function namespaceTools(tool: Wire, path: string, out: DecodedTools, taken: Set<string>, warnings: ir.Warning[]) {
  if (typeof tool.name !== 'string')
    invalidRequest(`${path}.name`, 'required field is missing (expected string)', FORMAT)
  if (!Array.isArray(tool.tools)) invalidRequest(`${path}.tools`, 'required field is missing (expected array)', FORMAT)
  if (tool.description !== undefined && tool.description !== null && typeof tool.description !== 'string')
    invalidRequest(`${path}.description`, 'expected string', FORMAT)
  const namespace = tool.name
  const about = typeof tool.description === 'string' && tool.description !== '' ? tool.description : undefined
  for (let j = 0; j < tool.tools.length; j++) {
    const member = tool.tools[j]
    const memberPath = `${path}.tools[${j}]`
    if (!isRecord(member)) invalidRequest(memberPath, 'expected object', FORMAT)
    if (member.type !== 'function' && member.type !== 'custom')
      invalidRequest(`${memberPath}.type`, 'expected "function" or "custom"', FORMAT)
    const fn = functionTool(member, memberPath, warnings)
    const name = fn.name
    fn.name = flatName(namespace, name, taken)
    taken.add(fn.name)
    out.namespaced.set(namespacedKey(namespace, name), fn.name)
    const data: Wire = { ...fn.providerData?.[FORMAT], [NAMESPACE_KEY]: namespace, [NAME_KEY]: name }
    // The group's description has no slot of its own: each member says which group it belongs to (this format's
    // encoder restores both descriptions).
    if (about !== undefined) {
      data[GROUP_DESCRIPTION_KEY] = about
      data[DESCRIPTION_KEY] = fn.description ?? null
      fn.description = `${fn.description ?? ''}${fn.description ? '\n\n' : ''}(${namespace}: ${about})`
    }
    fn.providerData = { [FORMAT]: data }
    out.tools.push(fn)
  }
}

/** A `web_search*` tool → IR; fields with no IR slot (`external_web_access`) ride along. */
function webSearch(tool: Wire): ir.WebSearchTool {
  const out: ir.WebSearchTool = { type: 'web-search' }
  const rest: Wire = { '@type': tool.type }
  for (const key of Object.keys(tool)) {
    const value = tool[key]
    if (key === 'type' || value === null || value === undefined) continue
    if (key === 'filters' && isRecord(value)) {
      const { allowed_domains: allowed, ...others } = value
      if (Array.isArray(allowed) && allowed.every((d) => typeof d === 'string')) out.allowedDomains = allowed
      if (Object.keys(others).length > 0) rest.filters = others
    } else if (key === 'user_location' && userLocationOf(value)) out.userLocation = userLocationOf(value)
    else if (key === 'search_context_size' && isContextSize(value)) out.searchContextSize = value
    else rest[key] = value
  }
  out.providerData = { [FORMAT]: rest }
  return out
}

/** `tools` and the tools of the request's `additional_tools` input items, each with its JSON path. */
export function requestTools(
  wire: Pick<WireRequest, 'tools' | 'input'>,
): { tools: Wire[]; paths: string[] } | undefined {
  const tools: Wire[] = [...((wire.tools ?? []) as Wire[])]
  const paths = tools.map((_, i) => `tools[${i}]`)
  if (Array.isArray(wire.input)) {
    wire.input.forEach((item, i) => {
      if (!isRecord(item) || item.type !== 'additional_tools') return
      if (!Array.isArray(item.tools))
        invalidRequest(`input[${i}].tools`, 'required field is missing (expected array)', FORMAT)
      item.tools.forEach((tool, j) => {
        if (!isRecord(tool)) invalidRequest(`input[${i}].tools[${j}]`, 'expected object', FORMAT)
        tools.push(tool)
        paths.push(`input[${i}].tools[${j}]`)
      })
    })
  }
  return wire.tools || tools.length > 0 ? { tools, paths } : undefined
}

/** Decodes tools; `paths` names each one (`tools[i]` by default). */
export function decodeTools(tools: readonly Wire[], warnings: ir.Warning[], paths?: readonly string[]): DecodedTools {
  const out: DecodedTools = { tools: [], hostedTools: [], unmapped: [], namespaced: new Map() }
  // Plain tools keep their names; namespace members are flattened around them.
  const taken = new Set<string>()
  for (const tool of tools) if (tool.type !== 'namespace' && typeof tool.name === 'string') taken.add(tool.name)
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i] as Wire
    const path = paths?.[i] ?? `tools[${i}]`
    const type = tool.type as string
    if (!toolTypes.has(type))
      invalidRequest(`${path}.type`, `unknown tool type ${JSON.stringify(String(type).slice(0, 40))}`, FORMAT)
    if (type === 'function' || type === 'custom') out.tools.push(functionTool(tool, path, warnings))
    else if (type === 'namespace') namespaceTools(tool, path, out, taken, warnings)
    else if (webSearchTypes.has(type)) out.hostedTools.push(webSearch(tool))
    else {
      out.unmapped.push(tool)
      warnings.push({
        type: 'dropped',
        path,
        message: `hosted tool ${JSON.stringify(type)} runs on OpenAI's servers and has no equivalent here; left out`,
      })
    }
  }
  return out
}

export function decodeToolChoice(
  choice: NonNullable<WireRequest['tool_choice']>,
  request: ir.Request,
  namespaced: NamespacedNames,
  warnings: ir.Warning[],
): void {
  if (typeof choice === 'string') {
    request.toolChoice = { type: choice }
    return
  }
  const type = choice.type as string
  if (type !== 'allowed_tools' && !toolTypes.has(type))
    invalidRequest('tool_choice.type', `unknown tool choice ${JSON.stringify(String(type).slice(0, 40))}`, FORMAT)
  const irName = (entry: { name?: string; namespace?: unknown }) =>
    typeof entry.namespace === 'string' && typeof entry.name === 'string'
      ? irCallName(namespaced, entry.namespace, entry.name)
      : entry.name
  if ((type === 'function' || type === 'custom') && typeof choice.name === 'string') {
    request.toolChoice = { type: 'tool', name: irName(choice) as string }
  } else if (type === 'allowed_tools') {
    request.toolChoice = { type: choice.mode ?? 'auto' }
    const names: string[] = []
    for (const tool of choice.tools ?? []) {
      if (tool.type === 'namespace') {
        for (const [key, flat] of namespaced) if (key.startsWith(`${tool.name}\u0000`)) names.push(flat)
      } else if (typeof tool.name === 'string') names.push(irName(tool) as string)
    }
    request.allowedTools = names
  } else {
    warnings.push({
      type: 'dropped',
      path: 'tool_choice',
      message: `tool_choice ${JSON.stringify(type)} names a hosted tool; the model chooses its tools (auto)`,
    })
  }
}
