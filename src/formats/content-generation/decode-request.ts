/**
 * content-generation request body → IR. @see wire-formats.md §3.2–3.5, §5.3
 * The model comes from the URL (`route.model`); function calls without an id get a stable generated one, and a
 * `functionResponse` is paired with its call by id, else by name and order in the previous model turn.
 */
import { invalidRequest } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import { jsonText } from '../../shared/json-text.js'
import { restoreEnvelopes } from '../../shared/reasoning-envelope.js'
import { toolCallFromObject } from '../../shared/tool-arguments.js'
import { generateToolCallIdAt } from '../../shared/tool-ids.js'
import { parseWire } from '../../shared/validate.js'
import type { Converted, RouteMatch } from '../format.js'
import { decodeGenerationConfig, decodeToolConfig } from './decode-config.js'
import { providerData } from './decode-response.js'
import { requestSchema, type WireContent, type WirePart, type WireRequest } from './schema.js'
import { fromOpenApiSchema } from './schema-dialect.js'

const F = 'content-generation'
type Warnings = ir.Warning[]

/** Body keys the IR maps; every other top-level key goes to `extensions['content-generation']` verbatim. */
const mappedKeys = new Set(['model', 'contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig'])

/** Keys a part may carry besides its data field without a warning. */
const partMeta = new Set(['thought', 'thoughtSignature'])

export function stripModelPrefix(model: string): string {
  if (model.startsWith('models/')) return model.slice('models/'.length)
  if (model.startsWith('tunedModels/')) return model.slice('tunedModels/'.length)
  return model
}

interface PendingCall {
  id: string
  name: string
  wireId?: string
  used: boolean
}

/** The part with the wire part's provider data (`providerData` of decode-response.ts: the wire id, the signature). */
function withSignature<T extends ir.Part>(part: T, wire: WirePart, wireId?: string): T {
  const data = providerData(wire, wireId)
  if (data) part.providerData = data
  return part
}

function mediaPart(mimeType: string, source: ir.MediaSource): ir.ImagePart | ir.AudioPart | ir.DocumentPart {
  const lower = mimeType.toLowerCase()
  if (lower.startsWith('image/')) return { type: 'image', source }
  if (lower.startsWith('audio/')) return { type: 'audio', source }
  return { type: 'document', source }
}

/** The JSON path of a part, built only when a warning needs it. */
const partPath = (ci: number, pi: number) => `contents[${ci}].parts[${pi}]`

function warnExtraKeys(part: WirePart, dataKey: string, ci: number, pi: number, warnings: Warnings): void {
  for (const key in part) {
    if (key !== dataKey && !partMeta.has(key) && part[key] !== undefined)
      warnings.push({
        type: 'dropped',
        path: `${partPath(ci, pi)}.${key}`,
        message: `Part field ${key} has no IR equivalent`,
      })
  }
}

/** True when `value` has exactly one own enumerable key (what `Object.keys(value).length === 1` says, without the array). */
function oneKey(value: Record<string, unknown>): boolean {
  let count = 0
  for (const key in value) if (Object.hasOwn(value, key) && ++count > 1) return false
  return count === 1
}

/** The text of a function response: its `error`, its sole `output`, or the whole object as JSON. */
function responseText(value: Record<string, unknown>): string {
  if ('error' in value && value.error !== undefined) {
    const error = value.error
    return typeof error === 'string' ? error : jsonText(error)
  }
  if (oneKey(value) && 'output' in value)
    return typeof value.output === 'string' ? value.output : jsonText(value.output)
  return jsonText(value)
}

function decodeContents(body: WireRequest, warnings: Warnings): ir.Message[] {
  const messages: ir.Message[] = []
  let calls: PendingCall[] = []
  const contents = body.contents
  for (let ci = 0; ci < contents.length; ci++) {
    const content = contents[ci] as WireContent
    const wireParts = content.parts
    if (content.role === 'model') {
      const parts: ir.AssistantPart[] = []
      const turnCalls: PendingCall[] = []
      for (let pi = 0; pi < wireParts.length; pi++) {
        const part = wireParts[pi] as WirePart
        if (part.functionCall) {
          const fc = part.functionCall
          const id = fc.id ?? generateToolCallIdAt('call_', ci, pi, fc.name)
          const call = toolCallFromObject(id, fc.name, fc.args)
          parts.push(withSignature(call, part, fc.id))
          turnCalls.push(
            fc.id === undefined
              ? { id, name: fc.name, used: false }
              : { id, name: fc.name, wireId: fc.id, used: false },
          )
          warnExtraKeys(part, 'functionCall', ci, pi, warnings)
        } else if (part.text !== undefined) {
          parts.push(withSignature({ type: part.thought ? 'reasoning' : 'text', text: part.text }, part))
          warnExtraKeys(part, 'text', ci, pi, warnings)
        } else if (part.inlineData) {
          const media = mediaPart(part.inlineData.mimeType, {
            type: 'base64',
            mediaType: part.inlineData.mimeType,
            data: part.inlineData.data,
          })
          if (media.type === 'document')
            warnings.push({
              type: 'dropped',
              path: partPath(ci, pi),
              message: 'A model turn cannot hold a document part',
            })
          else parts.push(withSignature(media, part))
        } else {
          warnings.push({ type: 'dropped', path: partPath(ci, pi), message: 'Part kind not supported in a model turn' })
        }
      }
      calls = turnCalls
      // Another provider's signatures come back in envelopes (policy 3): restored onto the parts they belong to.
      messages.push({ role: 'assistant', content: restoreEnvelopes(parts, F) })
      continue
    }
    if (content.role !== undefined && content.role !== 'user')
      warnings.push({ type: 'changed', path: `contents[${ci}].role`, message: `Role ${content.role} treated as user` })
    const results: ir.ToolResultPart[] = []
    const userParts: ir.UserMessage['content'] = []
    for (let pi = 0; pi < wireParts.length; pi++) {
      const part = wireParts[pi] as WirePart
      if (part.functionResponse) {
        results.push(decodeFunctionResponse(part, ci, pi, calls, warnings))
      } else if (part.text !== undefined) {
        if (part.thought)
          warnings.push({
            type: 'changed',
            path: `${partPath(ci, pi)}.thought`,
            message: 'A user thought part became text',
          })
        userParts.push(withSignature({ type: 'text', text: part.text }, part))
        warnExtraKeys(part, 'text', ci, pi, warnings)
      } else if (part.inlineData) {
        const { mimeType, data } = part.inlineData
        userParts.push(withSignature(mediaPart(mimeType, { type: 'base64', mediaType: mimeType, data }), part))
        warnExtraKeys(part, 'inlineData', ci, pi, warnings)
      } else if (part.fileData) {
        const { mimeType, fileUri } = part.fileData
        const source: ir.MediaSource =
          mimeType === undefined
            ? { type: 'file', fileId: fileUri }
            : { type: 'file', fileId: fileUri, mediaType: mimeType }
        userParts.push(withSignature(mediaPart(mimeType ?? '', source), part))
        warnExtraKeys(part, 'fileData', ci, pi, warnings)
      } else {
        warnings.push({
          type: 'dropped',
          path: partPath(ci, pi),
          message: 'Part kind not supported (executableCode, codeExecutionResult, …)',
        })
      }
    }
    if (results.length > 0) messages.push({ role: 'tool', content: results })
    if (userParts.length > 0 || results.length === 0) messages.push({ role: 'user', content: userParts })
  }
  return messages
}

/**
 * The call a function response answers: the first unused call of the previous model turn with its id (when the
 * response has one), else the first unused call of its name (an id-less response, or an id-less call).
 */
function pairedCall(id: string | undefined, name: string, calls: PendingCall[]): PendingCall | undefined {
  if (id !== undefined) for (const c of calls) if (!c.used && (c.wireId === id || c.id === id)) return c
  for (const c of calls) if (!c.used && c.name === name && (id === undefined || c.wireId === undefined)) return c
  return undefined
}

function decodeFunctionResponse(
  part: WirePart,
  ci: number,
  pi: number,
  calls: PendingCall[],
  warnings: Warnings,
): ir.ToolResultPart {
  const fr = part.functionResponse as NonNullable<WirePart['functionResponse']>
  const call = pairedCall(fr.id, fr.name, calls)
  if (call) call.used = true
  const toolCallId = call?.id ?? fr.id ?? generateToolCallIdAt('call_', ci, pi, fr.name)
  const response = fr.response ?? {}
  const isError = 'error' in response && response.error !== undefined
  const content: ir.ToolResultContent[] = [{ type: 'text', text: responseText(response) }]
  fr.parts?.forEach((inner, i) => {
    if (inner.inlineData?.mimeType.startsWith('image/'))
      content.push({
        type: 'image',
        source: { type: 'base64', mediaType: inner.inlineData.mimeType, data: inner.inlineData.data },
      })
    else if (inner.inlineData)
      content.push({
        type: 'document',
        source: { type: 'base64', mediaType: inner.inlineData.mimeType, data: inner.inlineData.data },
      })
    else if (inner.fileData) {
      const source: ir.MediaSource = { type: 'file', fileId: inner.fileData.fileUri }
      if (inner.fileData.mimeType) source.mediaType = inner.fileData.mimeType
      content.push(
        inner.fileData.mimeType?.startsWith('image/') ? { type: 'image', source } : { type: 'document', source },
      )
    } else
      warnings.push({
        type: 'dropped',
        path: `${partPath(ci, pi)}.functionResponse.parts[${i}]`,
        message: 'Unsupported part',
      })
  })
  const data: Record<string, unknown> = { response }
  if (fr.id !== undefined) data.id = fr.id
  if (part.thoughtSignature !== undefined) data.thoughtSignature = part.thoughtSignature
  if (fr.willContinue !== undefined) data.willContinue = fr.willContinue
  if (fr.scheduling !== undefined) data.scheduling = fr.scheduling
  const result: ir.ToolResultPart = {
    type: 'tool-result',
    toolCallId,
    toolName: fr.name,
    content,
    providerData: { [F]: data },
  }
  if (isError) result.isError = true
  return result
}

/** `googleSearch` → the IR web search (`excludeDomains` are its blocked domains; the rest kept for this format). */
function webSearch(search: Record<string, unknown>): ir.WebSearchTool {
  const { excludeDomains, ...rest } = search
  const out: ir.WebSearchTool = { type: 'web-search', providerData: { [F]: { '@googleSearch': true, ...rest } } }
  if (Array.isArray(excludeDomains) && excludeDomains.every((d) => typeof d === 'string'))
    out.blockedDomains = excludeDomains
  else if (excludeDomains !== undefined)
    (out.providerData?.[F] as Record<string, unknown>).excludeDomains = excludeDomains
  return out
}

function decodeTools(
  body: WireRequest,
  extensions: Record<string, unknown>,
  warnings: Warnings,
  hosted: ir.HostedTool[],
): ir.Tool[] {
  const tools: ir.Tool[] = []
  const others: unknown[] = []
  body.tools?.forEach((tool, ti) => {
    const { functionDeclarations, ...rest } = tool
    const search = rest.googleSearch
    if (search !== null && typeof search === 'object' && !Array.isArray(search)) {
      hosted.push(webSearch(search as Record<string, unknown>))
      delete rest.googleSearch
    }
    functionDeclarations?.forEach((decl) => {
      const out: ir.FunctionTool = { type: 'function', name: decl.name }
      if (decl.description !== undefined) out.description = decl.description
      const data: Record<string, unknown> = {}
      if (decl.parametersJsonSchema !== undefined && decl.parametersJsonSchema !== null)
        out.parameters = decl.parametersJsonSchema as ir.JsonSchema
      else if (decl.parameters) {
        out.parameters = fromOpenApiSchema(decl.parameters)
        data.parameters = decl.parameters
      }
      for (const key in decl)
        if (!['name', 'description', 'parameters', 'parametersJsonSchema'].includes(key)) data[key] = decl[key]
      if (Object.keys(data).length > 0) out.providerData = { [F]: data }
      tools.push(out)
    })
    if (Object.keys(rest).length > 0) {
      others.push(rest)
      warnings.push({
        type: 'changed',
        path: `tools[${ti}]`,
        message: 'Built-in tools kept as content-generation extensions',
      })
    }
  })
  if (others.length > 0) extensions.tools = others
  return tools
}

/** A countTokens body may wrap the whole request: `{generateContentRequest: {model, contents, …}}` (§3.10). */
function unwrapCountTokens(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body
  const record = body as Record<string, unknown>
  const inner = record.generateContentRequest
  return record.contents === undefined && typeof inner === 'object' && inner !== null ? inner : body
}

/** The validated wire body and its model (without the `models/` prefix); throws what `decodeRequest` throws. */
function validWire(body: unknown, route: Partial<RouteMatch> | undefined): { wire: WireRequest; model: string } {
  const input = route?.kind === 'count-tokens' ? unwrapCountTokens(body) : body
  const wire = parseWire(requestSchema, input, F)
  const rawModel = route?.model ?? (typeof wire.model === 'string' ? wire.model : undefined)
  if (rawModel === undefined) invalidRequest('model', 'the model is required (in the URL path or the body)', F)
  // Gemini answers generateContent with empty contents 400 "contents is not specified"; a served request does too.
  if (route?.kind === 'generate' && wire.contents.length === 0)
    invalidRequest('contents', 'contents is not specified', F)
  return { wire, model: rawModel }
}

/** Validates a request body exactly as `decodeRequest` does (same errors), without decoding it. */
export function validateRequest(body: unknown, route?: Partial<RouteMatch>): void {
  validWire(body, route)
}

export function decodeRequest(body: unknown, route?: Partial<RouteMatch>): Converted<ir.Request> {
  const { wire, model: rawModel } = validWire(body, route)
  const warnings: Warnings = []
  const messages = decodeContents(wire, warnings)
  if (wire.systemInstruction) {
    const text: ir.TextPart[] = []
    wire.systemInstruction.parts.forEach((part, pi) => {
      if (part.text !== undefined) text.push({ type: 'text', text: part.text })
      else warnings.push({ type: 'dropped', path: `systemInstruction.parts[${pi}]`, message: 'Only text is kept' })
    })
    messages.unshift({ role: 'system', content: text })
  }
  const request: ir.Request = { model: stripModelPrefix(rawModel), messages }
  const extensions: Record<string, unknown> = {}
  const hosted: ir.HostedTool[] = []
  const tools = decodeTools(wire, extensions, warnings, hosted)
  if (tools.length > 0) request.tools = tools
  if (hosted.length > 0) request.hostedTools = hosted
  if (wire.toolConfig) decodeToolConfig(wire.toolConfig, request, extensions, warnings)
  if (wire.generationConfig) decodeGenerationConfig(wire.generationConfig, request, extensions)
  if (route?.stream) request.stream = true
  for (const key in wire) if (!mappedKeys.has(key)) extensions[key] = (wire as Record<string, unknown>)[key]
  if (Object.keys(extensions).length > 0) request.extensions = { [F]: extensions }
  return { value: request, warnings }
}
