/** chat-completions request body → IR. @see wire-formats.md §1.2–1.5 */
import type * as ir from '../../ir/index.js'
import { parseDataUrl } from '../../shared/data-url.js'
import { indexedPath } from '../../shared/indexed-path.js'
import { parseWire } from '../../shared/validate.js'
import type { Converted, RouteMatch } from '../format.js'
import { plainFields } from './fields.js'
import { decodeReasoningCarrier } from './reasoning-carrier.js'
import { requestSchema, type WireAssistantMessage, type WireFunctionDef, type WireUserMessage } from './schema.js'
import { decodeWebSearchOptions } from './web-search.js'

const FORMAT = 'chat-completions'
const messagePath = indexedPath('messages')

/**
 * Top-level keys the IR holds (the schema's); every other key goes to `extensions['chat-completions']` verbatim.
 * `max_tokens` is decided per request (below).
 */
const knownKeys = new Set(Object.keys(requestSchema.shape))

/**
 * Message keys decoded into IR fields (and the reasoning carrier's); the rest ride on `providerData['chat-completions']`
 * (encoder spreads them back). A switch: it runs for every key of every message, and beats two Set lookups.
 */
function decodedMessageKey(key: string): boolean {
  switch (key) {
    case 'role':
    case 'content':
    case 'name':
    case 'refusal':
    case 'tool_calls':
    case 'function_call':
    case 'tool_call_id':
    case 'reasoning_content':
    case 'reasoning_details':
      return true
  }
  return false
}

type Text = { type: 'text'; text: string }

function textParts(content: string | Text[]): ir.TextPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  return content.map((part) => ({ type: 'text', text: part.text }))
}

/** Message-level extras and the "content was an array of one text part" marker, for a lossless round trip. */
function messageProviderData(
  message: Record<string, unknown>,
  content: unknown,
  base?: Record<string, unknown>,
): ir.ProviderData | undefined {
  let own: Record<string, unknown> | undefined = base
  for (const key of Object.keys(message)) {
    if (decodedMessageKey(key)) continue
    own ??= {}
    own[key] = message[key]
  }
  if (Array.isArray(content) && content.length === 1) {
    own ??= {}
    own.contentArray = true
  }
  return own ? { [FORMAT]: own } : undefined
}

/** `path`: the message's (its content's path is built only for a warning). */
function userParts(
  content: WireUserMessage['content'],
  path: string,
  warnings: ir.Warning[],
): ir.UserMessage['content'] {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  const parts: ir.UserMessage['content'] = []
  for (let i = 0; i < content.length; i++) {
    const part = content[i] as (typeof content)[number]
    if (part.type === 'text') parts.push({ type: 'text', text: part.text })
    else if (part.type === 'image_url') {
      const { url, detail } = part.image_url
      const data = parseDataUrl(url)
      const image: ir.ImagePart = {
        type: 'image',
        source: data?.base64 ? { type: 'base64', mediaType: data.mediaType, data: data.data } : { type: 'url', url },
      }
      if (detail) image.detail = detail
      parts.push(image)
    } else if (part.type === 'input_audio') {
      const { data, format } = part.input_audio
      const mediaType = format === 'wav' ? 'audio/wav' : format === 'mp3' ? 'audio/mpeg' : `audio/${format}`
      parts.push({ type: 'audio', source: { type: 'base64', mediaType, data } })
    } else {
      const { file_data, file_id, filename } = part.file
      let source: ir.MediaSource | undefined
      if (file_data !== undefined) {
        const data = parseDataUrl(file_data)
        source = data?.base64
          ? { type: 'base64', mediaType: data.mediaType, data: data.data }
          : { type: 'base64', mediaType: 'application/pdf', data: file_data }
      } else if (file_id !== undefined) source = { type: 'file', fileId: file_id }
      if (!source) {
        warnings.push({
          type: 'dropped',
          path: `${path}.content[${i}]`,
          message: 'file part has neither file_data nor file_id',
        })
        continue
      }
      const document: ir.DocumentPart = { type: 'document', source }
      if (filename !== undefined) document.filename = filename
      parts.push(document)
    }
  }
  return parts
}

/**
 * An assistant message's parts (request history or response choice): content, refusal, tool calls and the legacy
 * `function_call` (its id from `legacyId`), with the reasoning carrier's parts restored in place.
 */
export function assistantParts(
  message: Pick<WireAssistantMessage, 'content' | 'refusal' | 'tool_calls' | 'function_call'>,
  path: string,
  warnings: ir.Warning[],
  legacyId: (name: string) => string,
): ir.AssistantPart[] {
  const visible: ir.AssistantPart[] = []
  const { content } = message
  if (typeof content === 'string') {
    if (content !== '') visible.push({ type: 'text', text: content })
  } else if (content) {
    for (const part of content) {
      visible.push(part.type === 'text' ? { type: 'text', text: part.text } : { type: 'refusal', text: part.refusal })
    }
  }
  if (typeof message.refusal === 'string') visible.push({ type: 'refusal', text: message.refusal })
  const calls = message.tool_calls ?? []
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i] as (typeof calls)[number]
    if (call.type === 'function') {
      visible.push({ type: 'tool-call', id: call.id, name: call.function.name, arguments: call.function.arguments })
    } else {
      warnings.push({
        type: 'dropped',
        path: `${path}.tool_calls[${i}]`,
        message: 'custom tool calls are not supported',
      })
    }
  }
  if (message.function_call) {
    const { name, arguments: args } = message.function_call
    visible.push({ type: 'tool-call', id: legacyId(name), name, arguments: args })
  }
  const raw = message as Record<string, unknown>
  const { parts, skipped } = decodeReasoningCarrier(visible, raw.reasoning_details, raw.reasoning_content)
  if (skipped > 0) {
    warnings.push({
      type: 'dropped',
      path: `${path}.reasoning_details`,
      message: `${skipped} malformed entries skipped`,
    })
  }
  return parts
}

/** Never called: `assistantParts` asks for a legacy id only for a message with a `function_call`. */
const noLegacyCall = (name: string) => `call_legacy_${name}`

function assistantMessage(
  message: WireAssistantMessage,
  path: string,
  warnings: ir.Warning[],
  legacyIds: Map<string, string[]>,
): ir.AssistantMessage {
  // The legacy id maker is only made for a message that has a `function_call` (no closure per message).
  const legacyId = message.function_call
    ? (name: string) => {
        const id = `call_legacy_${legacyIds.size}_${name}`
        const queue = legacyIds.get(name) ?? []
        queue.push(id)
        legacyIds.set(name, queue)
        warnings.push({
          type: 'changed',
          path: `${path}.function_call`,
          message: 'legacy function_call decoded as a tool call',
        })
        return id
      }
    : noLegacyCall
  const parts = assistantParts(message, path, warnings, legacyId)
  const { content } = message
  const raw = message as Record<string, unknown>
  const out: ir.AssistantMessage = { role: 'assistant', content: parts }
  if (typeof message.name === 'string') out.name = message.name
  const content0 = Array.isArray(content) && content.length === 1 && content[0]?.type === 'text' ? content : undefined
  const providerData = messageProviderData(raw, content0, content === null ? { contentNull: true } : undefined)
  if (providerData) out.providerData = providerData
  return out
}

function functionTool(def: WireFunctionDef): ir.FunctionTool {
  const tool: ir.FunctionTool = { type: 'function', name: def.name }
  if (def.description !== undefined) tool.description = def.description
  if (def.parameters !== undefined) tool.parameters = def.parameters
  if (typeof def.strict === 'boolean') tool.strict = def.strict
  return tool
}

/** Validates a request body exactly as `decodeRequest` does (same errors): the schema is every check it makes. */
export function validateRequest(body: unknown, _route?: Partial<RouteMatch>): void {
  parseWire(requestSchema, body, FORMAT)
}

export function decodeRequest(body: unknown, _route?: Partial<RouteMatch>): Converted<ir.Request> {
  const wire = parseWire(requestSchema, body, FORMAT)
  const warnings: ir.Warning[] = []
  const messages: ir.Message[] = []
  const toolNames = new Map<string, string>()
  const legacyIds = new Map<string, string[]>()
  for (let m = 0; m < wire.messages.length; m++) {
    const message = wire.messages[m] as (typeof wire.messages)[number]
    const path = messagePath(m)
    const raw = message as Record<string, unknown>
    switch (message.role) {
      case 'system':
      case 'developer': {
        const out: ir.SystemMessage = { role: 'system', content: textParts(message.content) }
        if (typeof message.name === 'string') out.name = message.name
        const pd = messageProviderData(
          raw,
          message.content,
          message.role === 'developer' ? { role: 'developer' } : undefined,
        )
        if (pd) out.providerData = pd
        messages.push(out)
        break
      }
      case 'user': {
        const out: ir.UserMessage = { role: 'user', content: userParts(message.content, path, warnings) }
        if (typeof message.name === 'string') out.name = message.name
        const single =
          Array.isArray(message.content) && message.content[0]?.type === 'text' ? message.content : undefined
        const pd = messageProviderData(raw, single)
        if (pd) out.providerData = pd
        messages.push(out)
        break
      }
      case 'assistant': {
        const out = assistantMessage(message, path, warnings, legacyIds)
        for (const part of out.content) if (part.type === 'tool-call') toolNames.set(part.id, part.name)
        messages.push(out)
        break
      }
      case 'tool': {
        const result: ir.ToolResultPart = {
          type: 'tool-result',
          toolCallId: message.tool_call_id,
          content: textParts(message.content),
        }
        const name = toolNames.get(message.tool_call_id)
        if (name !== undefined) result.toolName = name
        const out: ir.ToolMessage = { role: 'tool', content: [result] }
        const pd = messageProviderData(raw, message.content)
        if (pd) out.providerData = pd
        messages.push(out)
        break
      }
      case 'function': {
        const queue = legacyIds.get(message.name)
        const toolCallId = queue?.shift() ?? `call_legacy_${message.name}`
        const content: ir.TextPart[] = [{ type: 'text', text: message.content ?? '' }]
        messages.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName: message.name, content }] })
        warnings.push({ type: 'changed', path, message: 'legacy function message decoded as a tool result' })
        break
      }
    }
  }

  const request: ir.Request = { model: wire.model, messages }
  if (wire.tools) {
    const tools: ir.Tool[] = []
    for (let i = 0; i < wire.tools.length; i++) {
      const tool = wire.tools[i] as (typeof wire.tools)[number]
      if (tool.type === 'function') tools.push(functionTool(tool.function))
      else warnings.push({ type: 'dropped', path: `tools[${i}]`, message: 'custom tools are not supported' })
    }
    request.tools = tools
  } else if (wire.functions) {
    request.tools = wire.functions.map(functionTool)
    warnings.push({ type: 'changed', path: 'functions', message: 'legacy functions decoded as tools' })
  }
  const choice = wire.tool_choice
  if (typeof choice === 'string') request.toolChoice = { type: choice }
  else if (choice?.type === 'function') request.toolChoice = { type: 'tool', name: choice.function.name }
  else if (choice?.type === 'allowed_tools') {
    request.toolChoice = { type: choice.allowed_tools.mode }
    request.allowedTools = choice.allowed_tools.tools.flatMap((tool) => (tool.function ? [tool.function.name] : []))
  } else if (choice?.type === 'custom') {
    warnings.push({ type: 'dropped', path: 'tool_choice', message: 'custom tool choice is not supported' })
  } else if (wire.function_call !== undefined) {
    const legacy = wire.function_call
    request.toolChoice = typeof legacy === 'string' ? { type: legacy } : { type: 'tool', name: legacy.name }
  }
  if (wire.web_search_options) request.hostedTools = [decodeWebSearchOptions(wire.web_search_options)]
  if (wire.parallel_tool_calls !== undefined) request.parallelToolCalls = wire.parallel_tool_calls
  if (typeof wire.max_completion_tokens === 'number') request.maxTokens = wire.max_completion_tokens
  else if (typeof wire.max_tokens === 'number') request.maxTokens = wire.max_tokens
  const raw = wire as Record<string, unknown>
  const into = request as unknown as Record<string, unknown>
  for (let i = 0; i < plainFields.length; i += 2) {
    const value = raw[plainFields[i] as string]
    if (value != null) into[plainFields[i + 1] as string] = value
  }
  if (typeof wire.stop === 'string') request.stopSequences = [wire.stop]
  if (wire.reasoning_effort) {
    const enabled = wire.reasoning_effort !== 'none'
    request.reasoning = { enabled, effort: wire.reasoning_effort }
    // The client asked for reasoning: it reads it back as `reasoning_content` (a Gemini upstream needs `includeThoughts`).
    if (enabled) request.reasoning.includeThoughts = true
  }
  const format = wire.response_format
  if (format?.type === 'text') request.responseFormat = { type: 'text' }
  else if (format?.type === 'json_object') request.responseFormat = { type: 'json' }
  else if (format?.type === 'json_schema') {
    const { name, description, schema, strict } = format.json_schema
    const out: ir.ResponseFormat = { type: 'json-schema', schema: schema ?? {}, name }
    if (description !== undefined) out.description = description
    if (typeof strict === 'boolean') out.strict = strict
    request.responseFormat = out
  }
  if (typeof wire.stream === 'boolean') request.stream = wire.stream
  if (typeof wire.stream_options?.include_usage === 'boolean') {
    request.streamIncludeUsage = wire.stream_options.include_usage
  }
  if (typeof wire.max_tokens === 'number' && typeof wire.max_completion_tokens === 'number') {
    warnings.push({ type: 'dropped', path: 'max_tokens', message: 'max_tokens ignored: max_completion_tokens is set' })
  }

  let extensions: Record<string, unknown> | undefined
  for (const key of Object.keys(wire)) {
    // stream_options with keys beyond include_usage is kept whole (the encoder then writes it back verbatim).
    if (
      key === 'stream_options' &&
      wire.stream_options &&
      Object.keys(wire.stream_options).some((k) => k !== 'include_usage')
    ) {
      extensions ??= {}
      extensions[key] = wire.stream_options
      continue
    }
    // `max_tokens` is kept too (alongside maxTokens) so a same-format round trip writes the same spelling back.
    if (key === 'max_tokens' ? typeof wire.max_completion_tokens === 'number' : knownKeys.has(key)) continue
    extensions ??= {}
    extensions[key] = (wire as Record<string, unknown>)[key]
  }
  if (extensions) request.extensions = { [FORMAT]: extensions }
  return { value: request, warnings }
}
