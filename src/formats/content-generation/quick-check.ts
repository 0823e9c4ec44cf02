/**
 * A fast accept for request bodies: true only when `requestSchema` (schema.ts) would accept the body unchanged, so
 * the decoder can use the body as it is and skip zod, whose loose objects copy every object they parse. Anything
 * unusual returns false and zod decides (and names the bad field), so errors are exactly zod's. It may reject a
 * valid body (then zod accepts it, only slower); it must never accept one zod rejects.
 */
import { checkContent, checkContents } from './validate-parts.js'

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const optional = (value: unknown, type: 'string' | 'boolean') => value === undefined || typeof value === type
const optionalNumber = (value: unknown) => value === undefined || (typeof value === 'number' && Number.isFinite(value))
const optionalInt = (value: unknown) => value === undefined || Number.isSafeInteger(value)
/** zod's `z.record` wants a plain object; a narrower test is fine here (anything else goes to zod). */
const optionalRecord = (value: unknown) => {
  if (value === undefined) return true
  if (!isObject(value)) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

function stringArray(value: unknown): boolean {
  if (!Array.isArray(value)) return false
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false
  return true
}

function declarationOk(decl: unknown): boolean {
  return (
    isObject(decl) &&
    typeof decl.name === 'string' &&
    optional(decl.description, 'string') &&
    optionalRecord(decl.parameters) &&
    optionalRecord(decl.response) &&
    optional(decl.behavior, 'string')
  )
}

function toolsOk(tools: unknown): boolean {
  if (!Array.isArray(tools)) return false
  for (let i = 0; i < tools.length; i++) {
    const tool: unknown = tools[i]
    if (!isObject(tool)) return false
    const declarations = tool.functionDeclarations
    if (declarations === undefined) continue
    if (!Array.isArray(declarations)) return false
    for (let j = 0; j < declarations.length; j++) if (!declarationOk(declarations[j])) return false
  }
  return true
}

function toolConfigOk(config: unknown): boolean {
  if (!isObject(config)) return false
  const fcc = config.functionCallingConfig
  if (fcc === undefined) return true
  return (
    isObject(fcc) &&
    optional(fcc.mode, 'string') &&
    (fcc.allowedFunctionNames === undefined || stringArray(fcc.allowedFunctionNames))
  )
}

function generationConfigOk(config: unknown): boolean {
  if (!isObject(config)) return false
  for (const key in config) {
    const value = config[key]
    switch (key) {
      case 'temperature':
      case 'topP':
      case 'topK':
      case 'presencePenalty':
      case 'frequencyPenalty':
        if (!optionalNumber(value)) return false
        break
      case 'candidateCount':
      case 'maxOutputTokens':
      case 'seed':
      case 'logprobs':
        if (!optionalInt(value)) return false
        break
      case 'stopSequences':
        if (value !== undefined && !stringArray(value)) return false
        break
      case 'responseLogprobs':
        if (!optional(value, 'boolean')) return false
        break
      case 'responseMimeType':
        if (!optional(value, 'string')) return false
        break
      case 'responseSchema':
        if (!optionalRecord(value)) return false
        break
      case 'thinkingConfig':
        if (
          value !== undefined &&
          !(
            isObject(value) &&
            optionalInt(value.thinkingBudget) &&
            optional(value.includeThoughts, 'boolean') &&
            optional(value.thinkingLevel, 'string')
          )
        )
          return false
        break
    }
  }
  return true
}

/** True when the content-generation `requestSchema` accepts `body` as it is. */
export function quickRequestOk(body: unknown): boolean {
  if (!isObject(body) || body.contents === undefined) return false
  for (const key in body) {
    const value = body[key]
    if (value === undefined) continue
    switch (key) {
      case 'contents':
        if (checkContents(value) !== undefined) return false
        break
      case 'systemInstruction':
        if (checkContent(value, true, true) !== undefined) return false
        break
      case 'tools':
        if (!toolsOk(value)) return false
        break
      case 'toolConfig':
        if (!toolConfigOk(value)) return false
        break
      case 'generationConfig':
        if (!generationConfigOk(value)) return false
        break
    }
  }
  return true
}
