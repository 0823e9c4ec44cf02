/** IR → chat-completions request body. @see wire-formats.md §1.2–1.5 */
import type * as ir from '../../ir/index.js'
import { effortForBudget } from '../../ir/reasoning.js'
import { toDataUrl } from '../../shared/data-url.js'
import { endUserId } from '../../shared/end-user-id.js'
import { reportForeignExtensions, reportForeignToolData } from '../../shared/foreign-extensions.js'
import { applyMessagesFeatures } from '../../shared/messages-features.js'
import type { Converted, EncodeRequestOptions } from '../format.js'
import { plainFields } from './fields.js'
import { encodeReasoningCarrier } from './reasoning-carrier.js'
import { encodeWebSearchOptions } from './web-search.js'

const FORMAT = 'chat-completions'
/** Markers the decoder leaves on a message's own provider data; everything else there is a wire field. */
const markers = new Set(['role', 'contentArray', 'contentNull'])

type Wire = Record<string, unknown>

function own(providerData: ir.ProviderData | undefined): Record<string, unknown> | undefined {
  return providerData?.[FORMAT]
}

/** Copies message-level wire extras (decoded into providerData) back onto the message. */
function spreadExtras(out: Wire, providerData: ir.ProviderData | undefined): void {
  const data = own(providerData)
  if (!data) return
  for (const key of Object.keys(data)) if (!markers.has(key)) out[key] = data[key]
}

/** A single plain text part is written as a string unless the source used an array. */
function textContent(parts: ir.TextPart[], providerData: ir.ProviderData | undefined): string | Wire[] {
  if (parts.length === 1 && own(providerData)?.contentArray !== true) return (parts[0] as ir.TextPart).text
  return parts.map((part) => ({ type: 'text', text: part.text }))
}

function audioFormat(mediaType: string): string | undefined {
  const type = mediaType.toLowerCase()
  if (type === 'audio/wav' || type === 'audio/x-wav' || type === 'audio/wave') return 'wav'
  if (type === 'audio/mpeg' || type === 'audio/mp3') return 'mp3'
  return undefined
}

function userPart(part: ir.UserMessage['content'][number], path: string, warnings: ir.Warning[]): Wire | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text }
    case 'image': {
      const { source } = part
      let url: string
      if (source.type === 'url') url = source.url
      else if (source.type === 'base64') url = toDataUrl(source.mediaType, source.data)
      else {
        warnings.push({ type: 'dropped', path, message: `image with a ${source.type} source cannot be sent` })
        return undefined
      }
      const image: Wire = { url }
      if (part.detail) image.detail = part.detail
      return { type: 'image_url', image_url: image }
    }
    case 'audio': {
      const { source } = part
      const format = source.type === 'base64' ? audioFormat(source.mediaType) : undefined
      if (source.type !== 'base64' || !format) {
        const what = source.type === 'base64' ? source.mediaType : `a ${source.type} source`
        warnings.push({ type: 'dropped', path, message: `audio (${what}) is not supported: only base64 wav/mp3` })
        return undefined
      }
      return { type: 'input_audio', input_audio: { data: source.data, format } }
    }
    case 'document': {
      const { source } = part
      if (source.type === 'text') return { type: 'text', text: source.text }
      let file: Wire
      if (source.type === 'base64') file = { file_data: toDataUrl(source.mediaType, source.data) }
      else if (source.type === 'file') file = { file_id: source.fileId }
      else {
        warnings.push({ type: 'dropped', path, message: 'documents by URL are not supported; inline them first' })
        return undefined
      }
      if (part.filename !== undefined) file.filename = part.filename
      return { type: 'file', file }
    }
  }
}

function assistantMessage(message: ir.AssistantMessage, m: number, warnings: ir.Warning[]): Wire {
  const out: Wire = { role: 'assistant' }
  const texts: ir.TextPart[] = []
  const calls: Wire[] = []
  let refusal: string | undefined
  for (let i = 0; i < message.content.length; i++) {
    const part = message.content[i] as ir.AssistantPart
    if (part.type === 'text') texts.push(part)
    else if (part.type === 'refusal') refusal = refusal === undefined ? part.text : refusal + part.text
    else if (part.type === 'tool-call') {
      calls.push({
        id: part.id,
        type: 'function',
        function: { name: part.name, arguments: part.arguments === '' ? '{}' : part.arguments },
      })
    } else if (part.type === 'image' || part.type === 'audio') {
      warnings.push({
        type: 'dropped',
        path: `messages[${m}].content[${i}]`,
        message: `assistant ${part.type} is not supported`,
      })
    }
  }
  const data = own(message.providerData)
  if (texts.length > 0) out.content = textContent(texts, message.providerData)
  else if (data?.contentNull === true || calls.length > 0 || refusal !== undefined) out.content = null
  else out.content = ''
  if (refusal !== undefined) out.refusal = refusal
  if (message.name !== undefined) out.name = message.name
  if (calls.length > 0) out.tool_calls = calls
  const carrier = encodeReasoningCarrier(message.content)
  if (carrier.reasoningContent !== undefined) out.reasoning_content = carrier.reasoningContent
  if (carrier.details) out.reasoning_details = carrier.details
  spreadExtras(out, message.providerData)
  return out
}

function toolMessages(message: ir.ToolMessage, m: number, out: Wire[], warnings: ir.Warning[]): void {
  for (let i = 0; i < message.content.length; i++) {
    const result = message.content[i] as ir.ToolResultPart
    const texts: ir.TextPart[] = []
    for (let j = 0; j < result.content.length; j++) {
      const part = result.content[j] as ir.ToolResultContent
      if (part.type === 'text') texts.push(part)
      else {
        const partPath = `messages[${m}].content[${i}].content[${j}]`
        warnings.push({ type: 'dropped', path: partPath, message: `tool results hold text only; ${part.type} dropped` })
      }
    }
    let content: string | Wire[] = textContent(texts, message.providerData)
    if (texts.length === 0) content = ''
    if (result.isError) {
      const text = typeof content === 'string' ? content : texts.map((part) => part.text).join('')
      content = `Error: ${text}`
      warnings.push({
        type: 'changed',
        path: `messages[${m}].content[${i}]`,
        message: 'isError has no field: content prefixed with "Error: "',
      })
    }
    const wire: Wire = { role: 'tool', tool_call_id: result.toolCallId, content }
    spreadExtras(wire, message.providerData)
    out.push(wire)
  }
}

function encodeMessages(messages: ir.Message[], warnings: ir.Warning[]): Wire[] {
  const out: Wire[] = []
  for (let m = 0; m < messages.length; m++) {
    const message = messages[m] as ir.Message
    if (message.role === 'system') {
      const role = own(message.providerData)?.role === 'developer' ? 'developer' : 'system'
      const wire: Wire = { role, content: textContent(message.content, message.providerData) }
      if (message.name !== undefined) wire.name = message.name
      spreadExtras(wire, message.providerData)
      out.push(wire)
    } else if (message.role === 'user') {
      let content: string | Wire[]
      if (message.content.every((part) => part.type === 'text')) {
        content = textContent(message.content as ir.TextPart[], message.providerData)
      } else {
        content = []
        for (let i = 0; i < message.content.length; i++) {
          const part = userPart(
            message.content[i] as ir.UserMessage['content'][number],
            `messages[${m}].content[${i}]`,
            warnings,
          )
          if (part) content.push(part)
        }
      }
      const wire: Wire = { role: 'user', content }
      if (message.name !== undefined) wire.name = message.name
      spreadExtras(wire, message.providerData)
      out.push(wire)
    } else if (message.role === 'assistant') out.push(assistantMessage(message, m, warnings))
    else toolMessages(message, m, out, warnings)
  }
  return out
}

function encodeToolChoice(request: ir.Request): unknown {
  const choice = request.toolChoice
  if (request.allowedTools) {
    return {
      type: 'allowed_tools',
      allowed_tools: {
        mode: choice?.type === 'required' ? 'required' : 'auto',
        tools: request.allowedTools.map((name) => ({ type: 'function', function: { name } })),
      },
    }
  }
  if (!choice) return undefined
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type
}

export function encodeRequest(source: ir.Request, _options?: EncodeRequestOptions): Converted<unknown> {
  const warnings: ir.Warning[] = []
  const request = applyMessagesFeatures(source, FORMAT, warnings)
  const body: Wire = { model: request.model, messages: encodeMessages(request.messages, warnings) }
  const extensions = request.extensions?.[FORMAT]
  if (request.tools) {
    body.tools = request.tools.map((tool, i) => {
      reportForeignToolData(tool.providerData, FORMAT, `tools[${i}]`, warnings)
      const fn: Wire = { name: tool.name }
      if (tool.description !== undefined) fn.description = tool.description
      if (tool.parameters !== undefined) fn.parameters = tool.parameters
      if (tool.strict !== undefined) fn.strict = tool.strict
      return { type: 'function', function: fn }
    })
  }
  const webSearch = request.hostedTools && encodeWebSearchOptions(request.hostedTools, warnings)
  if (webSearch) body.web_search_options = webSearch
  const toolChoice = encodeToolChoice(request)
  if (toolChoice !== undefined) body.tool_choice = toolChoice
  if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls
  if (request.maxTokens !== undefined) {
    if (extensions && 'max_tokens' in extensions) body.max_tokens = request.maxTokens
    else body.max_completion_tokens = request.maxTokens
  }
  const from = request as unknown as Record<string, unknown>
  for (let i = 0; i < plainFields.length; i += 2) {
    const value = from[plainFields[i + 1] as string]
    if (value !== undefined) body[plainFields[i] as string] = value
  }
  if (request.user !== undefined) body.user = endUserId(request.user, 'user', warnings)
  if (request.topK !== undefined) warnings.push({ type: 'dropped', path: 'topK', message: 'top_k is not supported' })
  const reasoning = request.reasoning
  if (reasoning) {
    if (reasoning.enabled === false) body.reasoning_effort = 'none'
    else if (reasoning.effort !== undefined) body.reasoning_effort = reasoning.effort
    else if (reasoning.budgetTokens !== undefined) body.reasoning_effort = effortForBudget(reasoning.budgetTokens)
  }
  const format = request.responseFormat
  if (format?.type === 'text') body.response_format = { type: 'text' }
  else if (format?.type === 'json') body.response_format = { type: 'json_object' }
  else if (format?.type === 'json-schema') {
    const schema: Wire = { name: format.name ?? 'response' }
    if (format.description !== undefined) schema.description = format.description
    schema.schema = format.schema
    if (format.strict !== undefined) schema.strict = format.strict
    body.response_format = { type: 'json_schema', json_schema: schema }
  }
  if (request.stream !== undefined) body.stream = request.stream
  if (request.streamIncludeUsage !== undefined && !extensions?.stream_options)
    body.stream_options = { include_usage: request.streamIncludeUsage }
  if (extensions) {
    for (const key of Object.keys(extensions)) {
      if (key === 'max_tokens' && request.maxTokens !== undefined) continue
      body[key] = extensions[key]
    }
  }
  reportForeignExtensions(request.extensions, FORMAT, warnings)
  return { value: body, warnings }
}
