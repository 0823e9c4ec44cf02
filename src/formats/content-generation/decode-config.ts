/** `toolConfig` and `generationConfig` → IR request fields. @see wire-formats.md §3.4, §3.5 */
import type * as ir from '../../ir/index.js'
import type { WireGenerationConfig, WireRequest } from './schema.js'
import { fromOpenApiSchema } from './schema-dialect.js'

type Warnings = ir.Warning[]

const efforts: Record<string, ir.ReasoningEffort> = {
  MINIMAL: 'minimal',
  LOW: 'low',
  MEDIUM: 'medium',
  HIGH: 'high',
}

export function decodeToolConfig(
  config: NonNullable<WireRequest['toolConfig']>,
  request: ir.Request,
  extensions: Record<string, unknown>,
  warnings: Warnings,
): void {
  const { functionCallingConfig, ...rest } = config
  if (Object.keys(rest).length > 0) extensions.toolConfig = rest
  if (!functionCallingConfig) return
  const { mode, allowedFunctionNames: names, ...fccRest } = functionCallingConfig
  if (Object.keys(fccRest).length > 0)
    warnings.push({
      type: 'dropped',
      path: 'toolConfig.functionCallingConfig',
      message: `Unsupported keys: ${Object.keys(fccRest).join(', ')}`,
    })
  switch (mode) {
    case 'AUTO':
      request.toolChoice = { type: 'auto' }
      break
    case 'NONE':
      request.toolChoice = { type: 'none' }
      break
    case 'ANY':
      if (names?.length === 1 && names[0] !== undefined) {
        request.toolChoice = { type: 'tool', name: names[0] }
        return
      }
      request.toolChoice = { type: 'required' }
      break
    case 'VALIDATED':
      request.toolChoice = { type: 'auto' }
      warnings.push({
        type: 'changed',
        path: 'toolConfig.functionCallingConfig.mode',
        message: 'VALIDATED became auto',
      })
      break
    case undefined:
    case 'MODE_UNSPECIFIED':
      break
    default:
      warnings.push({ type: 'dropped', path: 'toolConfig.functionCallingConfig.mode', message: `Unknown mode ${mode}` })
  }
  if (names !== undefined) request.allowedTools = names
}

function decodeThinking(thinking: NonNullable<WireGenerationConfig['thinkingConfig']>): ir.ReasoningConfig {
  const reasoning: ir.ReasoningConfig = {}
  const { thinkingBudget: budget, includeThoughts, thinkingLevel, ...rest } = thinking
  if (budget !== undefined) {
    reasoning.budgetTokens = budget
    reasoning.enabled = budget !== 0
  }
  if (includeThoughts !== undefined) reasoning.includeThoughts = includeThoughts
  const data: Record<string, unknown> = { ...rest }
  if (thinkingLevel !== undefined) {
    const effort = efforts[thinkingLevel.toUpperCase()]
    if (effort) reasoning.effort = effort
    data.thinkingLevel = thinkingLevel
  }
  if (Object.keys(data).length > 0) reasoning.providerData = { 'content-generation': data }
  return reasoning
}

/**
 * A generationConfig field the IR has as a plain request field: sets it and returns true. A switch with direct stores:
 * a lookup table (`key in table`) also matched inherited names (`toString`, `constructor`), and its keyed stores on the
 * request were the decoder's slowest line.
 */
function setSimple(request: ir.Request, key: string, value: unknown): boolean {
  const set = request as { [K in keyof ir.Request]: unknown }
  switch (key) {
    case 'temperature':
      set.temperature = value
      return true
    case 'topP':
      set.topP = value
      return true
    case 'topK':
      set.topK = value
      return true
    case 'candidateCount':
      set.n = value
      return true
    case 'maxOutputTokens':
      set.maxTokens = value
      return true
    case 'stopSequences':
      set.stopSequences = value
      return true
    case 'presencePenalty':
      set.presencePenalty = value
      return true
    case 'frequencyPenalty':
      set.frequencyPenalty = value
      return true
    case 'seed':
      set.seed = value
      return true
    case 'responseLogprobs':
      set.logprobs = value
      return true
    case 'logprobs':
      set.topLogprobs = value
      return true
  }
  return false
}

export function decodeGenerationConfig(
  config: WireGenerationConfig,
  request: ir.Request,
  extensions: Record<string, unknown>,
): void {
  const extras: Record<string, unknown> = {}
  const mime = config.responseMimeType
  const json = mime === 'application/json'
  for (const key in config) {
    const value = (config as Record<string, unknown>)[key]
    if (value === undefined) continue
    if (setSimple(request, key, value)) continue
    if (key === 'thinkingConfig' && config.thinkingConfig) request.reasoning = decodeThinking(config.thinkingConfig)
    else if (key === 'responseMimeType' && (json || mime === 'text/plain')) continue
    else if ((key === 'responseJsonSchema' || key === 'responseSchema') && json) continue
    else extras[key] = value
  }
  if (json) {
    if (config.responseJsonSchema !== undefined && config.responseJsonSchema !== null)
      request.responseFormat = { type: 'json-schema', schema: config.responseJsonSchema as ir.JsonSchema }
    else if (config.responseSchema)
      request.responseFormat = { type: 'json-schema', schema: fromOpenApiSchema(config.responseSchema) }
    else request.responseFormat = { type: 'json' }
  } else if (mime === 'text/plain') request.responseFormat = { type: 'text' }
  if (Object.keys(extras).length > 0) extensions.generationConfig = extras
}
