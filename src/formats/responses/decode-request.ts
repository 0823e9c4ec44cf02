/** Responses request body → IR. @see responses-api.md §2–§4, §7 */
import { invalidRequest } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import { REQUIRES_KEY, type Requirement } from '../../shared/foreign-extensions.js'
import { parseWire } from '../../shared/validate.js'
import type { Converted, RouteMatch } from '../format.js'
import { decodeItems } from './decode-items.js'
import { type DecodedTools, decodeToolChoice, decodeTools, HOSTED_TOOLS_KEY, requestTools } from './decode-tools.js'
import { requestSchema } from './schema.js'

const FORMAT = 'responses'
type Wire = Record<string, unknown>

/** Top-level keys the IR holds (or that are decoded below); every other key goes to `extensions.responses` verbatim. */
const knownKeys = new Set([
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_output_tokens',
  'temperature',
  'top_p',
  'top_logprobs',
  'user',
  'metadata',
  'reasoning',
  'text',
  'stream',
])

/** Keys kept for a lossless Responses round trip whose absence elsewhere loses nothing (never reported). */
const quietKeys = new Set(['include', 'stream_options'])

/** Server-side state only OpenAI can serve (responses-api.md §7). */
const stateKeys: Record<string, string> = {
  conversation: 'conversation objects live on OpenAI; send the whole conversation in input instead',
  prompt: 'stored prompt templates live on OpenAI; send instructions and input instead',
  background: 'background responses need server-side storage',
}

/**
 * Validates a request body exactly as `decodeRequest` does (same errors). Input items and tools are checked as they
 * are decoded (decode-items.ts, content.ts), so this decodes and drops the result: no cheaper than `decodeRequest`.
 */
export function validateRequest(body: unknown, route?: Partial<RouteMatch>): void {
  decodeRequest(body, route)
}

export function decodeRequest(body: unknown, _route?: Partial<RouteMatch>): Converted<ir.Request> {
  const wire = parseWire(requestSchema, body, FORMAT)
  const warnings: ir.Warning[] = []
  const requires: Requirement[] = []
  const messages: ir.Message[] = []
  if (typeof wire.instructions === 'string') {
    messages.push({ role: 'system', content: [{ type: 'text', text: wire.instructions }] })
  }
  // Tools first: a replayed call of a namespace function needs the flat name its tool got.
  const offered = requestTools(wire)
  const tools: DecodedTools | undefined = offered ? decodeTools(offered.tools, warnings, offered.paths) : undefined
  if (typeof wire.input === 'string') {
    messages.push({ role: 'user', content: [{ type: 'text', text: wire.input }] })
  } else if (Array.isArray(wire.input)) {
    const decoded = decodeItems(wire.input, warnings, tools?.namespaced)
    messages.push(...decoded.messages)
    requires.push(...decoded.requires)
  } else if (wire.previous_response_id == null && wire.conversation == null && wire.prompt == null) {
    invalidRequest('input', 'required field is missing (expected string or array)', FORMAT)
  }
  if (typeof wire.previous_response_id === 'string') {
    requires.unshift({
      path: 'previous_response_id',
      message: `Previous response with id '${wire.previous_response_id}' not found: this gateway stores no responses, send the whole conversation in input (with store: false)`,
    })
  }
  for (const key of Object.keys(stateKeys)) {
    const value = (wire as Wire)[key]
    if (value !== undefined && value !== null && value !== false)
      requires.push({ path: key, message: stateKeys[key] as string })
  }

  const request: ir.Request = { model: wire.model, messages }
  if (tools) {
    // A list of hosted tools only gives no function tools (an empty `tools` is refused by OpenAI upstreams).
    if (tools.tools.length > 0 || wire.tools?.length === 0) request.tools = tools.tools
    if (tools.hostedTools.length > 0) request.hostedTools = tools.hostedTools
  }
  if (wire.tool_choice) decodeToolChoice(wire.tool_choice, request, tools?.namespaced ?? new Map(), warnings)
  if (typeof wire.parallel_tool_calls === 'boolean') request.parallelToolCalls = wire.parallel_tool_calls
  if (typeof wire.max_output_tokens === 'number') request.maxTokens = wire.max_output_tokens
  if (typeof wire.temperature === 'number') request.temperature = wire.temperature
  if (typeof wire.top_p === 'number') request.topP = wire.top_p
  if (typeof wire.top_logprobs === 'number') {
    request.logprobs = true
    request.topLogprobs = wire.top_logprobs
  }
  if (wire.user !== undefined) request.user = wire.user
  else if (wire.safety_identifier !== undefined) request.user = wire.safety_identifier
  if (wire.metadata) request.metadata = wire.metadata
  if (wire.reasoning) {
    const { effort, summary, ...rest } = wire.reasoning
    const reasoning: ir.ReasoningConfig = {}
    if (effort) {
      reasoning.enabled = effort !== 'none'
      reasoning.effort = effort
    }
    if (summary) reasoning.includeThoughts = true
    const data: Wire = { ...rest }
    if (summary !== undefined) data.summary = summary
    if (Object.keys(data).length > 0) reasoning.providerData = { [FORMAT]: data }
    request.reasoning = reasoning
  }
  const format = wire.text?.format
  if (format?.type === 'text') request.responseFormat = { type: 'text' }
  else if (format?.type === 'json_object') request.responseFormat = { type: 'json' }
  else if (format?.type === 'json_schema') {
    const out: ir.ResponseFormat = { type: 'json-schema', schema: format.schema }
    if (format.name !== undefined) out.name = format.name
    if (format.description !== undefined) out.description = format.description
    if (typeof format.strict === 'boolean') out.strict = format.strict
    request.responseFormat = out
  }
  if (typeof wire.stream === 'boolean') request.stream = wire.stream

  // Every other key is kept verbatim (reported when another format is the target), except the ones that change
  // nothing off OpenAI: `include`, `stream_options`, `store: false` (stateless by default; `store: true` is reported).
  const extensions: Wire = {}
  for (const key of Object.keys(wire)) {
    const value = (wire as Wire)[key]
    if (knownKeys.has(key) || quietKeys.has(key) || Object.hasOwn(stateKeys, key) || key === 'previous_response_id')
      continue
    if (key === 'store' && value !== true) continue
    if (key === 'safety_identifier' && wire.user === undefined) continue
    extensions[key] = value
  }
  const text = wire.text
  if (text) for (const key of Object.keys(text)) if (key !== 'format') extensions[`text.${key}`] = (text as Wire)[key]
  if (requires.length > 0) extensions[REQUIRES_KEY] = requires
  if (tools && tools.unmapped.length > 0) extensions[HOSTED_TOOLS_KEY] = tools.unmapped
  if (Object.keys(extensions).length > 0) request.extensions = { [FORMAT]: extensions }
  return { value: request, warnings }
}
