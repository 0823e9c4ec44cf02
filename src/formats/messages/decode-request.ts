/**
 * messages request (wire) → IR. @see wire-formats.md §2.2–2.4
 *
 * - `system` (string or text blocks) → leading IR system message; `role: "system"` entries inside `messages` →
 *   IR system messages kept in place with `providerData.messages.inPlace = true`.
 * - A user turn holding `tool_result` blocks → one IR `tool` message (all results, in order) followed by an IR
 *   `user` message with the remaining blocks, if any (wire-formats.md §5.2 #7).
 * - Content given as an array whose only block is plain text is marked `providerData.messages.contentArray` so
 *   the encoder (which writes such content as a string) can restore the array form exactly.
 */
import { invalidRequest } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import { restoreEnvelopes } from '../../shared/reasoning-envelope.js'
import { parseWire } from '../../shared/validate.js'
import type { Converted, RouteMatch } from '../format.js'
import {
  checkSource,
  decodeAssistantBlock,
  decodeDocument,
  decodeImage,
  decodeText,
  extrasOf,
  type Json,
} from './blocks.js'
import { requestSchema, type WireBlock, type WireContent, type WireRequest, type WireSource } from './schema.js'
import { decodeWebSearchTool } from './web-search.js'

/** Top-level keys the IR holds (the schema's): every other key goes to `extensions.messages` verbatim. */
const known = new Set(Object.keys(requestSchema.shape))

interface Context {
  warnings: ir.Warning[]
  /** tool_use id → tool name, filled as assistant turns are read (policy 4). */
  toolNames: Map<string, string>
}

/** True when `content` is an array holding exactly one plain text block (which the encoder would write as a string). */
function isSinglePlainTextArray(content: WireContent): boolean {
  if (typeof content === 'string' || content.length !== 1) return false
  const block = content[0] as WireBlock
  if (block.type !== 'text') return false
  for (const key in block) if (key !== 'type' && key !== 'text') return false
  return true
}

/** The JSON path of message `i`'s content (`-1`: the top-level `system`), built only when a path is needed. */
const contentPath = (i: number) => (i < 0 ? 'system' : `messages[${i}].content`)

function dropped(ctx: Context, path: string, block: WireBlock): void {
  ctx.warnings.push({ type: 'dropped', path, message: `${block.type} blocks are not supported here` })
}

function decodeToolResult(block: WireBlock, i: number, j: number, ctx: Context): ir.ToolResultPart {
  const id = block.tool_use_id as string
  const part: ir.ToolResultPart = { type: 'tool-result', toolCallId: id, content: [] }
  const name = ctx.toolNames.get(id)
  if (name !== undefined) part.toolName = name
  if (typeof block.is_error === 'boolean') part.isError = block.is_error
  const data = extrasOf(block, toolResultKeys) ?? {}
  const content = block.content as WireContent | undefined
  if (typeof content === 'string') part.content.push({ type: 'text', text: content })
  else if (content !== undefined) {
    if (isSinglePlainTextArray(content)) data.contentArray = true
    else if (content.length === 0) data.contentArray = true
    for (let k = 0; k < content.length; k++) {
      const inner = content[k] as WireBlock
      if (inner.type === 'text') part.content.push(decodeText(inner))
      else if (inner.type === 'image') part.content.push(decodeImage(inner, `${contentPath(i)}[${j}].content[${k}]`))
      else if (inner.type === 'document')
        part.content.push(decodeDocument(inner, `${contentPath(i)}[${j}].content[${k}]`))
      else dropped(ctx, `${contentPath(i)}[${j}].content[${k}]`, inner)
    }
  }
  for (const _ in data) {
    part.providerData = { messages: data }
    break
  }
  return part
}

const toolResultKeys = new Set(['type', 'tool_use_id', 'content', 'is_error'])

function decodeUser(content: WireContent, i: number, ctx: Context, out: ir.Message[]): void {
  if (typeof content === 'string') {
    out.push({ role: 'user', content: [{ type: 'text', text: content }] })
    return
  }
  const results: ir.ToolResultPart[] = []
  const parts: ir.UserMessage['content'] = []
  for (let j = 0; j < content.length; j++) {
    const block = content[j] as WireBlock
    switch (block.type) {
      case 'text':
        parts.push(decodeText(block))
        break
      case 'image':
        parts.push(decodeImage(block, `${contentPath(i)}[${j}]`))
        break
      case 'document':
        parts.push(decodeDocument(block, `${contentPath(i)}[${j}]`))
        break
      case 'tool_result':
        results.push(decodeToolResult(block, i, j, ctx))
        break
      default:
        dropped(ctx, `${contentPath(i)}[${j}]`, block)
    }
  }
  if (results.length > 0) out.push({ role: 'tool', content: results })
  if (parts.length > 0 || results.length === 0) {
    const message: ir.UserMessage = { role: 'user', content: parts }
    if (results.length === 0 && isSinglePlainTextArray(content))
      message.providerData = { messages: { contentArray: true } }
    out.push(message)
  }
}

function decodeAssistant(content: WireContent, i: number, ctx: Context): ir.AssistantMessage {
  if (typeof content === 'string') return { role: 'assistant', content: [{ type: 'text', text: content }] }
  const parts: ir.AssistantPart[] = []
  for (let j = 0; j < content.length; j++) {
    const block = content[j] as WireBlock
    const part = decodeAssistantBlock(block)
    if (!part) dropped(ctx, `${contentPath(i)}[${j}]`, block)
    else {
      if (part.type === 'tool-call') ctx.toolNames.set(part.id, part.name)
      parts.push(part)
    }
  }
  // Another provider's signatures come back in envelopes (policy 3): restored onto the parts they belong to.
  const message: ir.AssistantMessage = { role: 'assistant', content: restoreEnvelopes(parts, 'messages') }
  if (isSinglePlainTextArray(content)) message.providerData = { messages: { contentArray: true } }
  return message
}

/** A system prompt: the top-level `system` or a `role: "system"` entry, text only (both validated as such). */
function decodeSystem(content: WireContent, data: Json | undefined): ir.SystemMessage {
  const message: ir.SystemMessage = { role: 'system', content: [] }
  if (typeof content === 'string') message.content.push({ type: 'text', text: content })
  else {
    for (const block of content) message.content.push(decodeText(block))
    if (isSinglePlainTextArray(content) || content.length === 0) data = { ...data, contentArray: true }
  }
  if (data !== undefined) message.providerData = { messages: data }
  return message
}

function decodeTools(wire: NonNullable<WireRequest['tools']>, request: ir.Request): void {
  const tools: ir.Tool[] = []
  const server: unknown[] = []
  const hosted: ir.HostedTool[] = []
  wire.forEach((tool, i) => {
    if (tool.type !== undefined && tool.type !== 'custom') {
      // Web search has an equivalent in every other format but chat-completions; other server tools stay as sent.
      if (tool.type.startsWith('web_search_')) hosted.push(decodeWebSearchTool(tool))
      else server.push(tool)
      return
    }
    checkTool(tool, i)
    const out: ir.FunctionTool = {
      type: 'function',
      name: tool.name,
      parameters: tool.input_schema as NonNullable<typeof tool.input_schema>,
    }
    if (tool.description !== undefined) out.description = tool.description
    if (tool.strict !== undefined) out.strict = tool.strict
    const extras = extrasOf(tool, toolKeys)
    if (extras) out.providerData = { messages: extras }
    tools.push(out)
  })
  if (tools.length > 0 || server.length + hosted.length === 0) request.tools = tools
  if (hosted.length > 0) request.hostedTools = hosted
  if (server.length > 0) extension(request).tools = server
}

const toolKeys = new Set(['name', 'description', 'input_schema', 'strict'])

function extension(request: ir.Request): Json {
  request.extensions ??= {}
  request.extensions.messages ??= {}
  return request.extensions.messages
}

function decodeThinkingConfig(body: WireRequest, request: ir.Request): void {
  const thinking = body.thinking
  const effort = body.output_config?.effort
  if (!thinking && !effort) return
  const reasoning: ir.ReasoningConfig = {}
  if (thinking) {
    if (thinking.type === 'disabled') reasoning.enabled = false
    else if (thinking.type === 'enabled' || thinking.type === 'adaptive' || thinking.type === 'between_tools') {
      reasoning.enabled = true
    }
    if (thinking.type === 'enabled' && thinking.budget_tokens !== undefined)
      reasoning.budgetTokens = thinking.budget_tokens
    // Anthropic returns the thinking unless `display: "omitted"`: a client that turned thinking on expects to see it
    // (a Gemini upstream needs `includeThoughts: true` for that, issue 10 §2).
    if (thinking.display === 'omitted') reasoning.includeThoughts = false
    else if (reasoning.enabled === true) reasoning.includeThoughts = true
  }
  if (effort) reasoning.effort = effort
  // The raw thinking object comes back verbatim on a same-format encode; `effort` marks output_config.effort.
  const data: Json = {}
  if (thinking) data.thinking = thinking
  if (effort) data.effort = effort
  reasoning.providerData = { messages: data }
  request.reasoning = reasoning
}

/** The schema and `max_tokens` (required unless counting tokens): what `decodeRequest` checks before decoding. */
function validWire(body: unknown, route: Partial<RouteMatch> | undefined): WireRequest {
  const wire = parseWire(requestSchema, body, 'messages')
  if (wire.max_tokens === undefined && route?.kind !== 'count-tokens') {
    invalidRequest('max_tokens', 'required field is missing (expected number)', 'messages')
  }
  return wire
}

/** `tools[i].input_schema` of a function tool: checked by `decodeTools` (server tools have none). */
function checkTool(tool: NonNullable<WireRequest['tools']>[number], i: number): void {
  if ((tool.type === undefined || tool.type === 'custom') && tool.input_schema === undefined)
    invalidRequest(`tools[${i}].input_schema`, 'required field is missing (expected object)', 'messages')
}

function checkToolChoice(choice: WireRequest['tool_choice']): void {
  if (choice?.type === 'tool' && choice.name === undefined)
    invalidRequest('tool_choice.name', 'required field is missing (expected string)', 'messages')
}

/** The media sources of a user turn's blocks (and of its tool results' blocks), in the order `decodeUser` reads them. */
function checkUserSources(content: WireContent, i: number): void {
  if (typeof content === 'string') return
  for (let j = 0; j < content.length; j++) {
    const block = content[j] as WireBlock
    if (block.type === 'image' || block.type === 'document') {
      checkSource(block.source as WireSource, `${contentPath(i)}[${j}].source`)
    } else if (block.type === 'tool_result' && Array.isArray(block.content)) {
      const inner = block.content as WireBlock[]
      for (let k = 0; k < inner.length; k++) {
        const part = inner[k] as WireBlock
        if (part.type === 'image' || part.type === 'document')
          checkSource(part.source as WireSource, `${contentPath(i)}[${j}].content[${k}].source`)
      }
    }
  }
}

/**
 * Validates a request body exactly as `decodeRequest` does (the same errors, in the same order) without decoding it:
 * the schema, `max_tokens`, the media sources of user turns, function tools' `input_schema`, `tool_choice.name`.
 */
export function validateRequest(body: unknown, route?: Partial<RouteMatch>): void {
  const wire = validWire(body, route)
  wire.messages.forEach((message, i) => {
    if (message.role === 'user') checkUserSources(message.content, i)
  })
  wire.tools?.forEach(checkTool)
  checkToolChoice(wire.tool_choice)
}

/** Decodes a messages request body. `route.kind === 'count-tokens'` makes `max_tokens` optional. */
export function decodeRequest(body: unknown, route?: Partial<RouteMatch>): Converted<ir.Request> {
  const wire = validWire(body, route)
  const ctx: Context = { warnings: [], toolNames: new Map() }
  const messages: ir.Message[] = []
  if (wire.system !== undefined) {
    messages.push(decodeSystem(wire.system, undefined))
  }
  wire.messages.forEach((message, i) => {
    const system = message.role === 'system'
    if (message.role === 'user') decodeUser(message.content, i, ctx, messages)
    else if (message.role === 'assistant') messages.push(decodeAssistant(message.content, i, ctx))
    else {
      // A system entry stays in place; its per-turn `output_config` ({effort}) rides along for the messages encoder
      // (other targets apply it: shared/messages-features.ts).
      const data: Json = { inPlace: true }
      if (message.output_config !== undefined) data.output_config = message.output_config
      messages.push(decodeSystem(message.content, data))
    }
    for (const key in message) {
      if (key !== 'role' && key !== 'content' && !(system && key === 'output_config')) {
        ctx.warnings.push({ type: 'dropped', path: `messages[${i}].${key}`, message: `unknown message field ${key}` })
      }
    }
  })
  const request: ir.Request = { model: wire.model, messages }
  if (wire.max_tokens !== undefined) request.maxTokens = wire.max_tokens
  if (wire.temperature !== undefined) request.temperature = wire.temperature
  if (wire.top_p !== undefined) request.topP = wire.top_p
  if (wire.top_k !== undefined) request.topK = wire.top_k
  if (wire.stop_sequences !== undefined) request.stopSequences = wire.stop_sequences
  if (wire.stream !== undefined) request.stream = wire.stream
  if (wire.tools !== undefined) decodeTools(wire.tools, request)
  const choice = wire.tool_choice
  if (choice) {
    checkToolChoice(choice)
    if (choice.type === 'tool') {
      request.toolChoice = { type: 'tool', name: choice.name as string }
    } else request.toolChoice = { type: choice.type === 'any' ? 'required' : choice.type }
    if (choice.disable_parallel_tool_use !== undefined) request.parallelToolCalls = !choice.disable_parallel_tool_use
  }
  decodeThinkingConfig(wire, request)
  const output = wire.output_config
  if (output) {
    const format = output.format
    if (format?.type === 'json_schema' && format.schema !== undefined) {
      request.responseFormat = { type: 'json-schema', schema: format.schema }
    }
    const rest = extrasOf(output, new Set(['effort', ...(request.responseFormat ? ['format'] : [])]))
    if (rest) extension(request).output_config = rest
  }
  const metadata = wire.metadata
  if (metadata !== undefined) {
    const onlyUser = metadata !== null && typeof metadata.user_id === 'string' && Object.keys(metadata).length === 1
    if (onlyUser) request.user = metadata.user_id as string
    else extension(request).metadata = metadata
  }
  for (const key in wire) if (!known.has(key)) extension(request)[key] = (wire as Json)[key]
  return { value: request, warnings: ctx.warnings }
}
