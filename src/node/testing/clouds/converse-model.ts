/**
 * The Converse side of the Bedrock stand-in, written from Bedrock's documentation and independent of the library's
 * converse codec: it validates a request as Bedrock does (alternating turns starting with `user`, one member per
 * block, no blank text, images of a known format with base64 bytes, `toolConfig` whenever the conversation holds tool
 * blocks, tool results answering the previous turn's calls, reasoning blocks carrying a signature this stand-in
 * issued, or redacted reasoning it issued) and answers a script turn when given one, else with a built-in model:
 * signed reasoning when Claude's `thinking` is on, a `get_weather`-style tool call when tools are offered and the user
 * asks for weather, a quote of the tool result after one, else an echo.
 */
import { randomBytes } from 'node:crypto'
import type { Json } from '../json.js'
import type { ScriptTurn } from '../strict-upstream.js'

export interface ConverseBlockOut {
  text?: string
  toolUse?: { toolUseId: string; name: string; input: Json }
  reasoningContent?: { reasoningText: { text: string; signature: string } } | { redactedContent: string }
}

export interface ConverseOutcome {
  blocks: ConverseBlockOut[]
  stopReason: string
  usage: { inputTokens: number; outputTokens: number; totalTokens: number }
}

const members = [
  'text',
  'image',
  'document',
  'video',
  'audio',
  'toolUse',
  'toolResult',
  'reasoningContent',
  'cachePoint',
  'guardContent',
  'citationsContent',
  'searchResult',
]

/** Signatures and redacted reasoning this stand-in issued (a reasoning block in history must carry one of them). */
const issued = new Set<string>()
let counter = 0
const imageFormats = new Set(['png', 'jpeg', 'gif', 'webp'])

/** Bedrock's check of an image block, or undefined. */
function imageProblem(image: Json, at: string): string | undefined {
  if (!imageFormats.has(image?.format)) return `${at}.image.format: must be one of png, jpeg, gif, webp`
  const bytes = image.source?.bytes
  if (typeof bytes !== 'string' || bytes === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(bytes))
    return `${at}.image.source.bytes: must be base64-encoded image bytes`
  return undefined
}

function reasoningProblem(reasoning: Json): string | undefined {
  if (typeof reasoning.redactedContent === 'string')
    return issued.has(reasoning.redactedContent) ? undefined : 'The redacted reasoning content is invalid.'
  return issued.has(reasoning.reasoningText?.signature) ? undefined : 'The reasoning block signature is invalid.'
}

function textOf(turn: Json): string {
  return (turn.content as Json[])
    .filter((block) => typeof block.text === 'string')
    .map((block) => block.text)
    .join(' ')
}

/** A script turn as Converse blocks: signed reasoning (or redacted reasoning), text, tool calls. */
function scripted(turn: ScriptTurn): { blocks: ConverseBlockOut[]; stopReason: string } {
  const blocks: ConverseBlockOut[] = []
  if (turn.redactedReasoning) {
    const data = randomBytes(24).toString('base64')
    issued.add(data)
    blocks.push({ reasoningContent: { redactedContent: data } })
  }
  if (turn.reasoning !== undefined) {
    const signature = `sig-converse-${++counter}`
    issued.add(signature)
    blocks.push({ reasoningContent: { reasoningText: { text: turn.reasoning, signature } } })
  }
  if (turn.text !== undefined) blocks.push({ text: turn.text })
  for (const call of turn.toolCalls ?? []) {
    const input = typeof call.arguments === 'string' ? JSON.parse(call.arguments) : (call.arguments ?? {})
    blocks.push({ toolUse: { toolUseId: `tooluse_${++counter}`, name: call.name, input } })
  }
  return { blocks, stopReason: turn.toolCalls?.length ? 'tool_use' : 'end_turn' }
}

/** A validation failure message (Bedrock's `ValidationException`), or the answer (`turn`'s, when given). */
export function answerConverse(modelId: string, body: Json, turn?: ScriptTurn): ConverseOutcome | string {
  if (typeof body !== 'object' || body === null)
    return 'Malformed input request, please reformat your input and try again.'
  for (const key of ['model', 'modelId', 'stream'])
    if (key in body)
      return `Malformed input request: extraneous key [${key}] is not permitted, please reformat your input and try again.`
  const turns = body.messages as Json[]
  if (!Array.isArray(turns) || turns.length === 0) return 'The messages field is required and must not be empty.'
  let expect = 'user'
  let pendingCalls = new Set<string>()
  let toolBlocks = false
  for (const [i, turn] of turns.entries()) {
    if (turn.role !== expect)
      return i === 0
        ? 'A conversation must start with a user message. Try again with a conversation that starts with a user message.'
        : 'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.'
    expect = expect === 'user' ? 'assistant' : 'user'
    if (!Array.isArray(turn.content) || turn.content.length === 0)
      return `The content field in the Message object at messages.${i} is empty. Add a ContentBlock object to the content field and try again.`
    const calls = new Set<string>()
    for (const [j, block] of (turn.content as Json[]).entries()) {
      const keys = Object.keys(block)
      if (keys.length !== 1 || !members.includes(keys[0] as string))
        return `messages.${i}.content.${j}: a ContentBlock must have exactly one member`
      if (typeof block.text === 'string' && block.text.trim() === '')
        return 'The text field in the ContentBlock object is blank. Add text to the text field, and try again.'
      if (block.toolUse) {
        toolBlocks = true
        if (turn.role !== 'assistant') return 'toolUse blocks are only allowed in assistant messages.'
        if (typeof block.toolUse.input !== 'object' || block.toolUse.input === null)
          return 'The toolUse input must be a JSON object.'
        calls.add(block.toolUse.toolUseId)
      }
      if (block.toolResult) {
        toolBlocks = true
        if (!pendingCalls.has(block.toolResult.toolUseId))
          return `The toolResult block at messages.${i}.content.${j} does not match a toolUse block in the previous turn.`
      }
      if (block.image) {
        const problem = imageProblem(block.image, `messages.${i}.content.${j}`)
        if (problem) return problem
      }
      if (block.reasoningContent) {
        if (turn.role !== 'assistant') return 'Reasoning blocks are only allowed in assistant messages.'
        const problem = reasoningProblem(block.reasoningContent)
        if (problem) return problem
      }
    }
    pendingCalls = calls
  }
  if (expect !== 'assistant')
    return 'A conversation must end with a user message. Try again with a conversation that ends with a user message.'
  const tools = (body.toolConfig?.tools ?? []) as Json[]
  if (toolBlocks && tools.length === 0)
    return 'The toolConfig field must be defined when using toolUse and toolResult content blocks.'
  if (turn) {
    const { blocks, stopReason } = scripted(turn)
    const usage = turn.usage ?? { inputTokens: Math.ceil(JSON.stringify(body).length / 4), outputTokens: 10 }
    return { blocks, stopReason, usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens } }
  }
  const thinking = body.additionalModelRequestFields?.thinking
  const blocks: ConverseBlockOut[] = []
  if (thinking?.type === 'enabled') {
    if (!/anthropic\./.test(modelId)) return `The model ${modelId} does not support thinking.`
    const max = body.inferenceConfig?.maxTokens
    if (typeof max !== 'number' || max <= thinking.budget_tokens)
      return 'max_tokens must be greater than thinking.budget_tokens'
    const signature = `sig-converse-${++counter}`
    issued.add(signature)
    blocks.push({
      reasoningContent: { reasoningText: { text: 'The user wants an answer. Thinking it through.', signature } },
    })
  }
  const last = turns.at(-1) as Json
  const result = (last.content as Json[]).find((block) => block.toolResult)?.toolResult
  const choice = body.toolConfig?.toolChoice
  const asked = textOf(last)
  let stopReason = 'end_turn'
  if (result) {
    const said = (result.content as Json[]).map((item) => item.text ?? JSON.stringify(item.json)).join(' ')
    blocks.push({ text: `The tool said: ${said}` })
  } else if (tools.length > 0 && (/weather/i.test(asked) || choice?.any || choice?.tool)) {
    const name = choice?.tool?.name ?? tools[0].toolSpec.name
    blocks.push({ toolUse: { toolUseId: `tooluse_${++counter}`, name, input: { city: 'Paris' } } })
    stopReason = 'tool_use'
  } else blocks.push({ text: `Hello from ${modelId}! You said: ${asked}` })
  const inputTokens = Math.ceil(JSON.stringify(body).length / 4)
  const outputTokens = Math.ceil(JSON.stringify(blocks).length / 4)
  return { blocks, stopReason, usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } }
}

/** The stream's events (`[event type, payload]`) for an outcome, as converse-stream sends them. */
export function converseEvents(outcome: ConverseOutcome): Array<[string, Json]> {
  const events: Array<[string, Json]> = [['messageStart', { role: 'assistant' }]]
  const delta = (index: number, value: Json): [string, Json] => [
    'contentBlockDelta',
    { contentBlockIndex: index, delta: value },
  ]
  outcome.blocks.forEach((block, index) => {
    if (block.reasoningContent && 'redactedContent' in block.reasoningContent)
      events.push(delta(index, { reasoningContent: { redactedContent: block.reasoningContent.redactedContent } }))
    else if (block.reasoningContent) {
      const { text, signature } = block.reasoningContent.reasoningText
      const half = Math.floor(text.length / 2)
      events.push(delta(index, { reasoningContent: { text: text.slice(0, half) } }))
      events.push(delta(index, { reasoningContent: { text: text.slice(half) } }))
      events.push(delta(index, { reasoningContent: { signature } }))
    } else if (block.toolUse) {
      const { toolUseId, name, input } = block.toolUse
      events.push(['contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId, name } } }])
      const json = JSON.stringify(input)
      events.push(delta(index, { toolUse: { input: json.slice(0, 5) } }))
      events.push(delta(index, { toolUse: { input: json.slice(5) } }))
    } else {
      const text = block.text as string
      const half = Math.floor(text.length / 2)
      events.push(delta(index, { text: text.slice(0, half) }))
      events.push(delta(index, { text: text.slice(half) }))
    }
    events.push(['contentBlockStop', { contentBlockIndex: index }])
  })
  events.push(['messageStop', { stopReason: outcome.stopReason }])
  events.push(['metadata', { usage: outcome.usage, metrics: { latencyMs: 42 } }])
  return events
}
