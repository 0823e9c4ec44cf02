/**
 * Converse request (wire) → IR. Converse is an upstream-only format, so this serves same-format conversions and
 * tests: the model comes from the route (the path's `{modelId}`) or a `modelId` member (the SDK's input shape).
 * Fields without an IR slot (`guardrailConfig`, `performanceConfig`, other `additionalModelRequestFields`, …) are
 * kept in `extensions.converse`; Claude's `thinking` in `additionalModelRequestFields` becomes the IR's reasoning.
 */
import { invalidRequest } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import { isRecord } from '../../shared/is-record.js'
import type { Converted, RouteMatch } from '../format.js'
import { decodeBlock, memberOf } from './content.js'
import type { ConverseBlock, Json } from './schema.js'

const known = new Set(['modelId', 'messages', 'system', 'inferenceConfig', 'toolConfig', 'requestMetadata'])

function fail(path: string, message: string): never {
  return invalidRequest(path, message)
}

function decodeTurn(turn: unknown, m: number, warnings: ir.Warning[]): ir.Message[] {
  const path = `messages[${m}]`
  if (!isRecord(turn)) fail(path, 'expected an object')
  if (turn.role !== 'user' && turn.role !== 'assistant') fail(`${path}.role`, 'expected "user" or "assistant"')
  if (!Array.isArray(turn.content)) fail(`${path}.content`, 'expected an array')
  const parts: ir.Part[] = []
  turn.content.forEach((block: unknown, b: number) => {
    if (!isRecord(block)) fail(`${path}.content[${b}]`, 'expected an object')
    const part = decodeBlock(block as ConverseBlock)
    if (part) parts.push(part)
    else if (!isRecord(block.cachePoint))
      warnings.push({
        type: 'dropped',
        path: `${path}.content[${b}]`,
        message: `${memberOf(block)} has no IR equivalent`,
      })
  })
  if (turn.role === 'assistant') return [{ role: 'assistant', content: parts as ir.AssistantPart[] }]
  const results = parts.filter((part): part is ir.ToolResultPart => part.type === 'tool-result')
  const rest = parts.filter((part) => part.type !== 'tool-result') as ir.UserMessage['content']
  const out: ir.Message[] = []
  if (results.length > 0) out.push({ role: 'tool', content: results })
  if (rest.length > 0 || results.length === 0) out.push({ role: 'user', content: rest })
  return out
}

function decodeTools(config: Json, request: ir.Request): void {
  if (Array.isArray(config.tools)) {
    const tools: ir.Tool[] = []
    config.tools.forEach((tool: unknown, i: number) => {
      const spec = isRecord(tool) ? tool.toolSpec : undefined
      if (!isRecord(spec)) return
      if (typeof spec.name !== 'string') fail(`toolConfig.tools[${i}].toolSpec.name`, 'expected string')
      const out: ir.FunctionTool = { type: 'function', name: spec.name }
      if (typeof spec.description === 'string') out.description = spec.description
      const schema = isRecord(spec.inputSchema) ? spec.inputSchema.json : undefined
      if (isRecord(schema)) out.parameters = schema
      if (typeof spec.strict === 'boolean') out.strict = spec.strict
      tools.push(out)
    })
    if (tools.length > 0) request.tools = tools
  }
  const choice = config.toolChoice
  if (isRecord(choice)) {
    if (isRecord(choice.auto)) request.toolChoice = { type: 'auto' }
    else if (isRecord(choice.any)) request.toolChoice = { type: 'required' }
    else if (isRecord(choice.tool) && typeof choice.tool.name === 'string')
      request.toolChoice = { type: 'tool', name: choice.tool.name }
  }
}

export function decodeRequest(body: unknown, route?: Partial<RouteMatch>): Converted<ir.Request> {
  if (!isRecord(body)) fail('', 'expected a JSON object')
  if (!Array.isArray(body.messages)) fail('messages', 'expected an array')
  const warnings: ir.Warning[] = []
  const messages: ir.Message[] = []
  if (Array.isArray(body.system)) {
    const texts = body.system.filter((block: unknown) => isRecord(block) && typeof block.text === 'string')
    if (texts.length > 0)
      messages.push({
        role: 'system',
        content: texts.map((block: Json) => ({ type: 'text', text: block.text as string })),
      })
  }
  body.messages.forEach((turn: unknown, m: number) => {
    messages.push(...decodeTurn(turn, m, warnings))
  })
  const model = route?.model ?? (typeof body.modelId === 'string' ? body.modelId : '')
  const request: ir.Request = { model, messages }
  if (route?.stream) request.stream = true
  const inference = isRecord(body.inferenceConfig) ? body.inferenceConfig : {}
  if (typeof inference.maxTokens === 'number') request.maxTokens = inference.maxTokens
  if (typeof inference.temperature === 'number') request.temperature = inference.temperature
  if (typeof inference.topP === 'number') request.topP = inference.topP
  if (Array.isArray(inference.stopSequences)) request.stopSequences = inference.stopSequences as string[]
  if (isRecord(body.toolConfig)) decodeTools(body.toolConfig, request)
  if (isRecord(body.requestMetadata)) request.metadata = body.requestMetadata as Record<string, string>
  const extensions: Json = {}
  for (const key in body) if (!known.has(key)) extensions[key] = body[key]
  const fields = isRecord(body.additionalModelRequestFields) ? { ...body.additionalModelRequestFields } : undefined
  const thinking = fields?.thinking
  if (isRecord(thinking) && fields) {
    request.reasoning =
      thinking.type === 'disabled'
        ? { enabled: false }
        : typeof thinking.budget_tokens === 'number'
          ? { enabled: true, budgetTokens: thinking.budget_tokens }
          : { enabled: true }
    delete fields.thinking
    if (Object.keys(fields).length > 0) extensions.additionalModelRequestFields = fields
    else delete extensions.additionalModelRequestFields
  }
  if (Object.keys(extensions).length > 0) request.extensions = { converse: extensions }
  return { value: request, warnings }
}
