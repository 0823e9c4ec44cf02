/**
 * IR → content-generation request body (no `model`: it is in the URL). @see wire-formats.md §3.2–3.5, §5
 * System messages are hoisted into `systemInstruction`; tool messages become `user` contents of
 * `functionResponse` parts (merged with neighbouring user content, so N parallel results are one content).
 */
import type * as ir from '../../ir/index.js'
import { budgetForEffort } from '../../ir/reasoning.js'
import { reportForeignExtensions, reportForeignToolData } from '../../shared/foreign-extensions.js'
import { dropHostedTool, reportWebSearchFields } from '../../shared/hosted-tools.js'
import { applyMessagesFeatures } from '../../shared/messages-features.js'
import type { Converted, EncodeRequestOptions } from '../format.js'
import { CallIndex, encodePart, own } from './encode-parts.js'
import { toOpenApiSchema } from './schema-dialect.js'
import { toGeminiJsonSchema } from './schema-json.js'

const F = 'content-generation'
type Wire = Record<string, unknown>
type Warnings = ir.Warning[]

const maxThinkingBudget = 24576

function encodeContents(request: ir.Request, body: Wire, warnings: Warnings): void {
  const calls = new CallIndex(request.messages)
  const system: Wire[] = []
  const contents: Array<{ role: string; parts: Wire[] }> = []
  let seenOther = false
  const messages = request.messages
  for (let mi = 0; mi < messages.length; mi++) {
    const message = messages[mi] as ir.Message
    if (message.role === 'system') {
      if (seenOther)
        warnings.push({
          type: 'changed',
          path: `messages[${mi}]`,
          message: 'A mid-conversation system message was hoisted into systemInstruction',
        })
      if (message.name !== undefined)
        warnings.push({
          type: 'dropped',
          path: `messages[${mi}].name`,
          message: 'content-generation has no participant names',
        })
      for (const part of message.content) system.push({ text: part.text })
      continue
    }
    seenOther = true
    if ('name' in message && message.name !== undefined)
      warnings.push({
        type: 'dropped',
        path: `messages[${mi}].name`,
        message: 'content-generation has no participant names',
      })
    const role = message.role === 'assistant' ? 'model' : 'user'
    const parts: Wire[] = []
    const source = message.content
    for (let pi = 0; pi < source.length; pi++) {
      const encoded = encodePart(source[pi] as ir.Part, calls, mi, pi, warnings)
      if (encoded) parts.push(encoded)
    }
    if (role === 'model') signFunctionCalls(parts)
    const last = contents[contents.length - 1]
    if (last && last.role === role) for (const part of parts) last.parts.push(part)
    else contents.push({ role, parts })
  }
  body.contents = contents
  if (system.length > 0) body.systemInstruction = { role: 'user', parts: system }
}

function encodeTools(
  request: ir.Request,
  options: EncodeRequestOptions,
  ext: Wire | undefined,
  body: Wire,
  warnings: Warnings,
): void {
  const openapi = options.schemaDialect === 'openapi'
  const declarations: Wire[] = []
  request.tools?.forEach((tool, ti) => {
    const decl: Wire = { name: tool.name }
    if (tool.description !== undefined) decl.description = tool.description
    reportForeignToolData(tool.providerData, 'content-generation', `tools[${ti}]`, warnings)
    const data = own(tool)
    const path = `tools[${ti}].parameters`
    if (data?.parameters !== undefined) decl.parameters = data.parameters
    else if (tool.parameters !== undefined) {
      const converted = openapi ? toOpenApiSchema(tool.parameters, path) : toGeminiJsonSchema(tool.parameters, path)
      decl[openapi ? 'parameters' : 'parametersJsonSchema'] = converted.schema
      warnings.push(...converted.warnings)
    }
    if (data) for (const key in data) if (key !== 'parameters') decl[key] = data[key]
    if (tool.strict !== undefined)
      warnings.push({ type: 'dropped', path: `tools[${ti}].strict`, message: 'content-generation has no strict mode' })
    declarations.push(decl)
  })
  const tools: unknown[] = declarations.length > 0 ? [{ functionDeclarations: declarations }] : []
  for (const tool of request.hostedTools ?? []) {
    // Gemini 2.x refuses a built-in tool beside function declarations (400 "Tool use with function calling is
    // unsupported"), and Gemini 3 takes the pair only with server-side tool invocations, whose parts the conversation
    // must then carry back: search is sent only without function tools.
    // A Gemini client's own search is sent as it asked (it knows its model).
    const own = tool.providerData?.['content-generation']
    if (declarations.length > 0 && own?.['@googleSearch'] !== true) {
      dropHostedTool(warnings, 'Gemini cannot combine googleSearch with function declarations in one request')
      continue
    }
    const search: Wire = {}
    if (own) for (const key in own) if (!key.startsWith('@')) search[key] = own[key]
    if (tool.blockedDomains) search.excludeDomains = tool.blockedDomains
    reportWebSearchFields(tool, 'content-generation', ['blockedDomains'], warnings)
    tools.push({ googleSearch: search })
  }
  if (Array.isArray(ext?.tools)) tools.push(...ext.tools)
  if (tools.length > 0) body.tools = tools

  const fcc: Wire = {}
  switch (request.toolChoice?.type) {
    case 'auto':
      fcc.mode = 'AUTO'
      break
    case 'none':
      fcc.mode = 'NONE'
      break
    case 'required':
      fcc.mode = 'ANY'
      break
    case 'tool':
      fcc.mode = 'ANY'
      fcc.allowedFunctionNames = [request.toolChoice.name]
      break
  }
  if (request.allowedTools && request.toolChoice?.type !== 'tool') {
    fcc.mode ??= 'ANY'
    fcc.allowedFunctionNames = request.allowedTools
  }
  const extra = ext?.toolConfig as Wire | undefined
  if (Object.keys(fcc).length > 0 || extra)
    body.toolConfig = Object.keys(fcc).length > 0 ? { ...extra, functionCallingConfig: fcc } : { ...extra }
  if (request.parallelToolCalls === false)
    warnings.push({
      type: 'dropped',
      path: 'parallelToolCalls',
      message: 'content-generation cannot limit parallel calls',
    })
}

function clamp(value: number, min: number, max: number, path: string, warnings: Warnings): number {
  const clamped = Math.min(max, Math.max(min, value))
  if (clamped !== value) warnings.push({ type: 'changed', path, message: `${value} clamped to ${clamped}` })
  return clamped
}

/** Gemini 3 and later (`gemini-3…`, `models/gemini-3.5-pro`): they take `thinkingLevel` rather than a budget. */
function hasThinkingLevels(model: string): boolean {
  const major = /(?:^|\/)gemini-(\d+)/.exec(model)?.[1]
  return major !== undefined && Number(major) >= 3
}

/**
 * An effort as a Gemini 3 `thinkingLevel`: Flash models have minimal, low, medium and high; Pro models low and high.
 * Thinking cannot be turned off there, so `none` is the lowest level. Every level that is not the effort itself is a
 * `changed` warning.
 */
function thinkingLevel(model: string, effort: ir.ReasoningEffort, warnings: Warnings): string {
  const flash = /flash/.test(model)
  let level: string
  if (effort === 'none' || effort === 'minimal') level = flash ? 'minimal' : 'low'
  else if (effort === 'low' || effort === 'high') level = effort
  else if (effort === 'medium') level = flash ? 'medium' : 'high'
  else level = 'high'
  if (level !== effort)
    warnings.push({
      type: 'changed',
      path: 'reasoning.effort',
      message: `effort ${effort} sent as thinkingLevel ${level}, the nearest level ${model} has`,
    })
  // The enum's names, as @google/genai sends them (`ThinkingLevel.MEDIUM`).
  return level.toUpperCase()
}

function encodeThinking(request: ir.Request, reasoning: ir.ReasoningConfig, warnings: Warnings): Wire | undefined {
  const data = own(reasoning)
  const config: Wire = {}
  if (data) for (const key in data) config[key] = data[key]
  const levels = config.thinkingLevel === undefined && hasThinkingLevels(request.model)
  if (levels && reasoning.budgetTokens === undefined && (reasoning.enabled === false || reasoning.effort)) {
    config.thinkingLevel = thinkingLevel(
      request.model,
      reasoning.enabled === false ? 'none' : (reasoning.effort as ir.ReasoningEffort),
      warnings,
    )
  } else if (reasoning.enabled === false) config.thinkingBudget = 0
  else if (reasoning.budgetTokens !== undefined)
    config.thinkingBudget =
      reasoning.budgetTokens === -1
        ? -1
        : clamp(reasoning.budgetTokens, 0, maxThinkingBudget, 'reasoning.budgetTokens', warnings)
  else if (reasoning.effort && config.thinkingLevel === undefined)
    config.thinkingBudget = clamp(budgetForEffort(reasoning.effort), 0, maxThinkingBudget, 'reasoning.effort', warnings)
  if (reasoning.includeThoughts !== undefined) config.includeThoughts = reasoning.includeThoughts
  return Object.keys(config).length > 0 ? config : undefined
}

function encodeGeneration(
  request: ir.Request,
  options: EncodeRequestOptions,
  ext: Wire | undefined,
  warnings: Warnings,
): Wire {
  const config: Wire = {}
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens
  if (request.temperature !== undefined) config.temperature = clamp(request.temperature, 0, 2, 'temperature', warnings)
  if (request.topP !== undefined) config.topP = request.topP
  if (request.topK !== undefined) config.topK = request.topK
  if (request.n !== undefined) config.candidateCount = request.n
  if (request.stopSequences !== undefined) config.stopSequences = request.stopSequences
  if (request.presencePenalty !== undefined) config.presencePenalty = request.presencePenalty
  if (request.frequencyPenalty !== undefined) config.frequencyPenalty = request.frequencyPenalty
  if (request.seed !== undefined) config.seed = request.seed
  if (request.logprobs !== undefined) config.responseLogprobs = request.logprobs
  if (request.topLogprobs !== undefined) config.logprobs = request.topLogprobs
  const format = request.responseFormat
  if (format?.type === 'text') config.responseMimeType = 'text/plain'
  else if (format) {
    config.responseMimeType = 'application/json'
    if (format.type === 'json-schema') {
      const openapi = options.schemaDialect === 'openapi'
      const path = 'responseFormat.schema'
      const converted = openapi ? toOpenApiSchema(format.schema, path) : toGeminiJsonSchema(format.schema, path)
      config[openapi ? 'responseSchema' : 'responseJsonSchema'] = converted.schema
      warnings.push(...converted.warnings)
      for (const key of ['name', 'description', 'strict'] as const)
        if (format[key] !== undefined)
          warnings.push({
            type: 'dropped',
            path: `responseFormat.${key}`,
            message: `content-generation has no schema ${key}`,
          })
    }
  }
  if (request.reasoning) {
    const thinking = encodeThinking(request, request.reasoning, warnings)
    if (thinking) config.thinkingConfig = thinking
  }
  const extra = ext?.generationConfig
  if (extra && typeof extra === 'object') Object.assign(config, extra)
  return config
}

/**
 * Gemini's documented stand-in signature for function calls that did not come from Gemini (or whose signature a
 * client dropped): Gemini 3 rejects a model turn whose first function call has no `thoughtSignature`. Not a warning:
 * nothing is lost, and Gemini documents the stand-in for exactly this case.
 */
export const foreignCallSignature = 'skip_thought_signature_validator'

/** A model turn's calls with no signature of Gemini's own get the stand-in on the first call (policy 3). */
export function signFunctionCalls(parts: Wire[]): void {
  let first: Wire | undefined
  for (const part of parts) {
    if (part.functionCall === undefined) continue
    if (part.thoughtSignature !== undefined) return
    first ??= part
  }
  if (first) first.thoughtSignature = foreignCallSignature
}

export function encodeRequest(source: ir.Request, options: EncodeRequestOptions = {}): Converted<unknown> {
  const warnings: Warnings = []
  const request = applyMessagesFeatures(source, F, warnings)
  const body: Wire = {}
  const ext = request.extensions?.[F]
  encodeContents(request, body, warnings)
  encodeTools(request, options, ext, body, warnings)
  const config = encodeGeneration(request, options, ext, warnings)
  if (Object.keys(config).length > 0) body.generationConfig = config
  if (request.user !== undefined)
    warnings.push({ type: 'dropped', path: 'user', message: 'content-generation has no end-user id' })
  if (request.metadata !== undefined)
    warnings.push({ type: 'dropped', path: 'metadata', message: 'content-generation has no request metadata' })
  if (ext) for (const key in ext) if (!['tools', 'toolConfig', 'generationConfig'].includes(key)) body[key] = ext[key]
  reportForeignExtensions(request.extensions, F, warnings)
  return { value: body, warnings }
}
