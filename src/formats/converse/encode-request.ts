/**
 * IR → Converse request (wire), for Bedrock's `/model/{modelId}/converse` and `/converse-stream` (the model id and
 * the stream flag are in the path, not the body). @see ./schema.ts
 *
 * Decisions:
 * - System messages go to `system`; a mid-conversation one is hoisted there with a warning (Converse has no system
 *   role in `messages`). Tool results open a `user` turn; consecutive turns of one role are merged (Converse requires
 *   alternation).
 * - `maxTokens`, `temperature`, `topP`, `stopSequences` → `inferenceConfig`; `metadata` → `requestMetadata`.
 *   Fields with no Converse form (seed, penalties, logprobs, n > 1, top_k, user) are dropped with a warning.
 * - Reasoning is model-specific on Converse (`additionalModelRequestFields`): Anthropic models get `thinking`
 *   (as on the messages API, with the same constraints: a budget ≥ 1024 below `maxTokens`, no forced tool, no
 *   unsigned tool-use turn in the history), Amazon Nova gets `reasoningConfig`; other models: dropped with a warning.
 * - `toolChoice: none` has no Converse form: tools are kept (a history with tool calls needs them), with a warning.
 * - A JSON-schema response format → `outputConfig.textFormat`; plain JSON mode → a permissive object schema.
 */
import type * as ir from '../../ir/index.js'
import { budgetForEffort } from '../../ir/reasoning.js'
import { allowedToolsOnly } from '../../shared/allowed-tools.js'
import { reportForeignExtensions } from '../../shared/foreign-extensions.js'
import { dropHostedTool } from '../../shared/hosted-tools.js'
import type { Converted, EncodeRequestOptions } from '../format.js'
import {
  encodeAudio,
  encodeDocument,
  encodeImage,
  encodeReasoning,
  encodeToolResult,
  encodeToolUse,
} from './content.js'
import { isAnthropicModel } from './models.js'
import type { ConverseBlock, ConverseMessage, ConverseRequest, Json } from './schema.js'

const dropWithoutEquivalent: Array<[keyof ir.Request, string]> = [
  ['seed', 'seed'],
  ['presencePenalty', 'presence_penalty'],
  ['frequencyPenalty', 'frequency_penalty'],
  ['logprobs', 'logprobs'],
  ['topLogprobs', 'top_logprobs'],
  ['topK', 'top_k'],
  ['user', 'user'],
]

function encodeMessages(messages: ir.Message[], warnings: ir.Warning[]): { system: Json[]; turns: ConverseMessage[] } {
  const system: Json[] = []
  const turns: ConverseMessage[] = []
  const warn = (path: string, message: string) => warnings.push({ type: 'dropped', path, message })
  const push = (role: 'user' | 'assistant', blocks: ConverseBlock[]) => {
    if (blocks.length === 0) return
    const last = turns[turns.length - 1]
    if (last?.role === role) last.content.push(...blocks)
    else turns.push({ role, content: blocks })
  }
  messages.forEach((message, m) => {
    const path = `messages[${m}]`
    if (message.role === 'system') {
      if (turns.length > 0)
        warnings.push({ type: 'changed', path, message: 'converse has no mid-conversation system message; hoisted' })
      for (const part of message.content) if (part.text !== '') system.push({ text: part.text })
      return
    }
    const blocks: ConverseBlock[] = []
    message.content.forEach((part, p) => {
      const at = `${path}.content[${p}]`
      let block: ConverseBlock | undefined
      switch (part.type) {
        case 'text':
          // Converse rejects blank text blocks.
          if (part.text.trim() !== '') block = { text: part.text }
          break
        case 'image':
          block = encodeImage(part, at, warn)
          break
        case 'document':
          block = encodeDocument(part, at, warn)
          break
        case 'audio':
          block = encodeAudio(part, at, warn)
          break
        case 'tool-call':
          block = encodeToolUse(part, at, warn)
          break
        case 'tool-result':
          block = encodeToolResult(part, at, warn)
          break
        case 'reasoning':
        case 'redacted-reasoning':
          block = encodeReasoning(part, at, warn)
          break
        case 'refusal':
          block = { text: part.text }
          break
        default:
          warn(at, `converse has no ${(part as ir.Part).type} part`)
      }
      if (block) blocks.push(block)
    })
    push(message.role === 'assistant' ? 'assistant' : 'user', blocks)
  })
  return { system, turns }
}

function encodeTools(request: ir.Request, body: ConverseRequest, warnings: ir.Warning[]): void {
  if (request.hostedTools?.length) dropHostedTool(warnings, 'converse has no hosted web search')
  if (!request.tools || request.tools.length === 0) return
  const tools = allowedToolsOnly(request, 'converse', warnings) ?? []
  const config: NonNullable<ConverseRequest['toolConfig']> = {
    tools: tools.map((tool) => {
      const spec: Json = {
        name: tool.name,
        inputSchema: { json: tool.parameters ?? { type: 'object', properties: {} } },
      }
      if (tool.description !== undefined && tool.description !== '') spec.description = tool.description
      if (tool.strict !== undefined) spec.strict = tool.strict
      return { toolSpec: spec as unknown as NonNullable<ConverseRequest['toolConfig']>['tools'][number]['toolSpec'] }
    }),
  }
  const choice = request.toolChoice
  if (choice?.type === 'auto') config.toolChoice = { auto: {} }
  else if (choice?.type === 'required') config.toolChoice = { any: {} }
  else if (choice?.type === 'tool') config.toolChoice = { tool: { name: choice.name } }
  else if (choice?.type === 'none')
    warnings.push({ type: 'changed', path: 'toolChoice', message: 'converse has no tool choice "none"; sent as auto' })
  if (request.parallelToolCalls === false)
    warnings.push({
      type: 'dropped',
      path: 'parallelToolCalls',
      message: 'converse cannot limit a turn to one tool call',
    })
  body.toolConfig = config
}

function encodeReasoningConfig(request: ir.Request, body: ConverseRequest, warnings: ir.Warning[]): void {
  const reasoning = request.reasoning
  if (!reasoning) return
  const off = reasoning.enabled === false || reasoning.effort === 'none' || reasoning.budgetTokens === 0
  const fields: Json = { ...body.additionalModelRequestFields }
  if (isAnthropicModel(request.model)) {
    const raw = reasoning.providerData?.messages?.thinking
    if (raw !== undefined) fields.thinking = raw
    else if (off) fields.thinking = { type: 'disabled' }
    else {
      let budget =
        reasoning.budgetTokens !== undefined && reasoning.budgetTokens > 0
          ? reasoning.budgetTokens
          : budgetForEffort(reasoning.effort ?? 'medium')
      if (budget < 1024) {
        warnings.push({
          type: 'changed',
          path: 'reasoning',
          message: `thinking budget ${budget} raised to the minimum 1024`,
        })
        budget = 1024
      }
      body.inferenceConfig ??= {}
      const inference = body.inferenceConfig
      const maxTokens = inference.maxTokens ?? 4096
      if (budget >= maxTokens) {
        inference.maxTokens = budget + maxTokens
        warnings.push({
          type: 'changed',
          path: 'maxTokens',
          message: `maxTokens raised from ${maxTokens} to ${budget + maxTokens} to fit the thinking budget`,
        })
      } else inference.maxTokens = maxTokens
      fields.thinking = { type: 'enabled', budget_tokens: budget }
    }
  } else if (/(^|[.:/])amazon\.nova/.test(request.model)) {
    const effort =
      reasoning.effort === 'minimal' || reasoning.effort === 'low'
        ? 'low'
        : reasoning.effort === 'medium' || reasoning.effort === undefined
          ? 'medium'
          : 'high'
    fields.reasoningConfig = off ? { type: 'disabled' } : { type: 'enabled', maxReasoningEffort: effort }
  } else {
    warnings.push({
      type: 'dropped',
      path: 'reasoning',
      message: `converse has no portable reasoning setting for ${request.model}`,
    })
    return
  }
  body.additionalModelRequestFields = fields
}

/** Policy 3 and the messages API's rules, for Claude's `thinking` on Converse (see messages/encode-request.ts). */
function reconcileThinking(body: ConverseRequest, warnings: ir.Warning[]): void {
  const thinking = body.additionalModelRequestFields?.thinking as Json | undefined
  if (!thinking || thinking.type === 'disabled') return
  const disable = (reason: string) => {
    ;(body.additionalModelRequestFields as Json).thinking = { type: 'disabled' }
    warnings.push({ type: 'changed', path: 'reasoning', message: `thinking disabled: ${reason}` })
  }
  const unsigned = body.messages.some(
    (turn) =>
      turn.role === 'assistant' && turn.content.some((block) => block.toolUse) && !turn.content[0]?.reasoningContent,
  )
  if (unsigned) {
    disable('an assistant tool-use turn has no signed reasoning block from converse')
    return
  }
  const choice = body.toolConfig?.toolChoice
  if (choice?.any || choice?.tool) {
    disable('a forced tool choice is not allowed with thinking')
    return
  }
  const inference = body.inferenceConfig
  if (inference?.temperature !== undefined && inference.temperature !== 1) {
    warnings.push({ type: 'dropped', path: 'temperature', message: 'temperature must stay at 1 with thinking' })
    delete inference.temperature
  }
  if (inference?.topP !== undefined && inference.topP < 0.95) {
    warnings.push({ type: 'changed', path: 'top_p', message: `top_p ${inference.topP} raised to 0.95 for thinking` })
    inference.topP = 0.95
  }
}

function encodeResponseFormat(
  format: ir.ResponseFormat | undefined,
  body: ConverseRequest,
  warnings: ir.Warning[],
): void {
  if (!format || format.type === 'text') return
  const definition: Json = { schema: JSON.stringify(format.type === 'json' ? { type: 'object' } : format.schema) }
  if (format.type === 'json')
    warnings.push({ type: 'changed', path: 'responseFormat', message: 'JSON mode sent as a permissive object schema' })
  else {
    if (format.name !== undefined) definition.name = format.name
    if (format.description !== undefined) definition.description = format.description
  }
  body.outputConfig = { textFormat: { type: 'json_schema', structure: { jsonSchema: definition } } }
}

export function encodeRequest(request: ir.Request, _options: EncodeRequestOptions = {}): Converted<unknown> {
  const warnings: ir.Warning[] = []
  const { system, turns } = encodeMessages(request.messages, warnings)
  const body: ConverseRequest = { messages: turns }
  if (system.length > 0) body.system = system as ConverseRequest['system']
  const inference: NonNullable<ConverseRequest['inferenceConfig']> = {}
  if (request.maxTokens !== undefined) inference.maxTokens = request.maxTokens
  if (request.temperature !== undefined) inference.temperature = request.temperature
  if (request.topP !== undefined) inference.topP = request.topP
  if (request.stopSequences !== undefined) inference.stopSequences = request.stopSequences
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference
  if (request.n !== undefined && request.n > 1)
    warnings.push({ type: 'dropped', path: 'n', message: 'converse returns one choice; n > 1 ignored' })
  for (const [field, name] of dropWithoutEquivalent)
    if (request[field] !== undefined) warnings.push({ type: 'dropped', path: name, message: `converse has no ${name}` })
  if (request.metadata !== undefined) body.requestMetadata = request.metadata
  encodeTools(request, body, warnings)
  encodeReasoningConfig(request, body, warnings)
  encodeResponseFormat(request.responseFormat, body, warnings)
  const extensions = request.extensions
  if (extensions) {
    reportForeignExtensions(extensions, 'converse', warnings)
    const own = extensions.converse
    if (own)
      for (const key in own)
        body[key] =
          key === 'additionalModelRequestFields'
            ? { ...(own[key] as Json), ...body.additionalModelRequestFields }
            : own[key]
  }
  reconcileThinking(body, warnings)
  return { value: body, warnings }
}
