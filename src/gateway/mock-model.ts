/**
 * The embedded mock model: works on the IR, needs no key and no network, and is deterministic (the same request
 * gives the same answer, ids included). It:
 * - calls a tool like a cooperative model (see `chooseTool`): the one `toolChoice` names, one the user's text names,
 *   or the first when a tool is required or the prompt is a plain test prompt; never a deferred tool, never right
 *   after a tool result; arguments come from the tool's JSON Schema (its required properties);
 * - answers a structured-output request (`json-schema` or `json`) with a JSON value valid against the schema;
 * - after a tool result, answers with text that quotes the result;
 * - describes the images (and other media) it received in its text: "I see 1 image (image/png)";
 * - emits a reasoning block first when reasoning is requested (`enabled`, an effort other than `none`, or a
 *   positive budget), with a fake signature in `providerData.messages.signature`;
 * - reports usage (about four characters per token);
 * - streams: several text deltas, reasoning deltas, tool-call arguments in fragments.
 *
 * @example
 * const mock = createMockModel()
 * mock.generate({ model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })
 */
import type * as ir from '../ir/index.js'
import { estimateInputTokens, estimateTextTokens } from './count-tokens.js'
import { sampleObject, sampleValue } from './mock-schema.js'

export interface MockModel {
  generate(request: ir.Request): ir.Response
  stream(request: ir.Request): ReadableStream<ir.StreamEvent>
  /** The events `stream` yields, as a list. */
  events(request: ir.Request): ir.StreamEvent[]
}

/** A fixed timestamp, so answers are deterministic (2026-01-01T00:00:00Z). */
const created = 1_767_225_600

/** FNV-1a, as 8 hex digits. */
function hash(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0).toString(16).padStart(8, '0')
}

function fingerprint(request: ir.Request): string {
  return hash(JSON.stringify([request.model, request.messages, request.tools ?? null, request.reasoning ?? null]))
}

function wantsReasoning(reasoning: ir.ReasoningConfig | undefined): boolean {
  if (!reasoning || reasoning.enabled === false) return false
  if (reasoning.enabled === true) return true
  if (reasoning.effort !== undefined && reasoning.effort !== 'none') return true
  return reasoning.budgetTokens !== undefined && reasoning.budgetTokens !== 0
}

function textOf(parts: readonly ir.Part[]): string {
  return parts
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter(Boolean)
    .join(' ')
}

function describeMedia(message: ir.Message | undefined): string {
  if (message?.role !== 'user') return ''
  const kinds: Record<string, string[]> = {}
  for (const part of message.content) {
    if (part.type === 'text') continue
    const source = part.source
    const mediaType = source.type === 'base64' ? source.mediaType : (source.mediaType ?? source.type)
    const list = kinds[part.type] ?? []
    list.push(mediaType)
    kinds[part.type] = list
  }
  return Object.entries(kinds)
    .map(([kind, types]) => ` I see ${types.length} ${kind}${types.length > 1 ? 's' : ''} (${types.join(', ')}).`)
    .join('')
}

function quoteResults(message: ir.ToolMessage): string {
  const quoted = message.content.map((result) => {
    const text = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join(' ')
    return `${result.toolName ?? result.toolCallId} returned ${text}`
  })
  return `The tool results are in: ${quoted.join('; ')}.`
}

/** A tool Claude Code's tool search loads on demand: not callable until loaded. */
function isDeferred(tool: ir.FunctionTool): boolean {
  return tool.providerData?.messages?.defer_loading === true
}

/** Words of a tool's name worth matching in a prompt (`get_weather` → weather; `readFile` → read, file). */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 4 && !genericWords.has(word))
}

const genericWords = new Set(['tool', 'tools', 'function', 'call', 'with', 'from', 'data', 'info', 'list'])

/**
 * The tool to call, if any, like a cooperative model: the one `toolChoice` names; else one the user's last text names
 * (its full name, or a distinctive word of it: "Weather in Paris?" → `get_weather`); else, when the tool is required or
 * the prompt is a plain test prompt (no system prompt, at most three tools), the first one. Deferred tools are never
 * called. An agent's long prompt with many tools and nothing named gets a text answer, not a tool loop.
 */
function chooseTool(request: ir.Request, prompt: string): ir.FunctionTool | undefined {
  const choice = request.toolChoice
  if (choice?.type === 'none') return undefined
  const allowed = request.allowedTools
  const tools = (request.tools ?? []).filter((tool) => !isDeferred(tool) && (!allowed || allowed.includes(tool.name)))
  if (tools.length === 0) return undefined
  if (choice?.type === 'tool') return tools.find((tool) => tool.name === choice.name) ?? tools[0]
  const text = prompt.toLowerCase()
  const named =
    tools.find((tool) => text.includes(tool.name.toLowerCase())) ??
    tools.find((tool) => nameWords(tool.name).some((word) => new RegExp(`\\b${word}`).test(text)))
  if (named) return named
  const plain = !request.messages.some((message) => message.role === 'system') && tools.length <= 3
  return choice?.type === 'required' || plain ? tools[0] : undefined
}

/** The schema of a structured-output request (`response_format`, `responseJsonSchema`, `output_config.format`). */
function outputSchema(request: ir.Request): ir.JsonSchema | undefined {
  const format = request.responseFormat
  if (format?.type === 'json-schema') return format.schema
  return format?.type === 'json' ? { type: 'object' } : undefined
}

function answer(request: ir.Request): { parts: ir.AssistantPart[]; finishReason: ir.FinishReason } {
  const id = fingerprint(request)
  const last = request.messages[request.messages.length - 1]
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user')
  const prompt = lastUser ? textOf(lastUser.content).slice(0, 120) : ''
  const parts: ir.AssistantPart[] = []
  if (wantsReasoning(request.reasoning)) {
    parts.push({
      type: 'reasoning',
      text: `The user asked: "${prompt}". A short, direct answer will do.`,
      providerData: { messages: { signature: `mock-signature-${id}` } },
    })
  }
  const tool = last?.role === 'tool' ? undefined : chooseTool(request, lastUser ? textOf(lastUser.content) : '')
  if (tool) {
    const args = sampleObject((tool.parameters ?? {}) as Record<string, unknown>)
    parts.push({ type: 'tool-call', id: `call_mock_${id}`, name: tool.name, arguments: JSON.stringify(args) })
    return { parts, finishReason: { unified: 'tool-calls' } }
  }
  const schema = outputSchema(request)
  const text = schema
    ? JSON.stringify(sampleValue(schema, 'answer'))
    : last?.role === 'tool'
      ? quoteResults(last)
      : `This is the interlingua mock model answering "${prompt}".${describeMedia(lastUser)}`
  parts.push({ type: 'text', text })
  return { parts, finishReason: { unified: 'stop' } }
}

function outputChars(parts: readonly ir.AssistantPart[]): { output: number; reasoning: number } {
  let output = 0
  let reasoning = 0
  for (const part of parts) {
    if (part.type === 'text') output += estimateTextTokens(part.text)
    else if (part.type === 'tool-call') output += estimateTextTokens(part.name + part.arguments)
    else if (part.type === 'reasoning') reasoning += estimateTextTokens(part.text)
  }
  return { output: output + reasoning, reasoning }
}

function usageOf(request: ir.Request, parts: readonly ir.AssistantPart[]): ir.Usage {
  const inputTokens = estimateInputTokens(request)
  const { output, reasoning } = outputChars(parts)
  const usage: ir.Usage = {
    inputTokens,
    outputTokens: Math.max(1, output),
    totalTokens: inputTokens + Math.max(1, output),
  }
  if (reasoning > 0) usage.reasoningTokens = reasoning
  return usage
}

/** Splits a text into about four deltas at word boundaries. */
function chunks(text: string, count = 4): string[] {
  const size = Math.max(1, Math.ceil(text.length / count))
  const out: string[] = []
  let start = 0
  while (start < text.length) {
    let end = Math.min(text.length, start + size)
    const space = text.indexOf(' ', end)
    if (space !== -1 && space - end < 12) end = space + 1
    out.push(text.slice(start, end))
    start = end
  }
  return out.length > 0 ? out : ['']
}

function events(response: ir.Response): ir.StreamEvent[] {
  // The prompt is counted before the answer starts, as real services report it in their first event.
  const start: ir.MessageStartEvent = { type: 'message-start', id: response.id, model: response.model, created }
  if (response.usage) start.usage = { inputTokens: response.usage.inputTokens }
  const out: ir.StreamEvent[] = [start]
  response.content.forEach((part, index) => {
    if (part.type === 'reasoning') {
      out.push({ type: 'reasoning-start', index })
      for (const text of chunks(part.text, 3)) out.push({ type: 'reasoning-delta', index, text })
      const end: ir.ReasoningEndEvent = { type: 'reasoning-end', index }
      if (part.providerData) end.providerData = part.providerData
      out.push(end)
    } else if (part.type === 'tool-call') {
      out.push({ type: 'tool-call-start', index, id: part.id, name: part.name })
      for (const text of chunks(part.arguments, 2)) out.push({ type: 'tool-call-delta', index, argumentsDelta: text })
      out.push({ type: 'tool-call-end', index })
    } else if (part.type === 'text') {
      out.push({ type: 'text-start', index })
      for (const text of chunks(part.text)) out.push({ type: 'text-delta', index, text })
      out.push({ type: 'text-end', index })
    }
  })
  const finish: ir.FinishEvent = { type: 'finish', finishReason: response.finishReason }
  if (response.usage) finish.usage = response.usage
  out.push(finish)
  return out
}

/** Creates the mock model. */
export function createMockModel(): MockModel {
  const generate = (request: ir.Request): ir.Response => {
    const { parts, finishReason } = answer(request)
    return {
      id: `mock-${fingerprint(request)}`,
      model: request.model,
      created,
      content: parts,
      finishReason,
      usage: usageOf(request, parts),
    }
  }
  return {
    generate,
    events: (request) => events(generate(request)),
    stream(request) {
      const list = events(generate(request))
      let next = 0
      return new ReadableStream<ir.StreamEvent>(
        {
          pull(controller) {
            const event = list[next++]
            if (event) controller.enqueue(event)
            if (next >= list.length) controller.close()
          },
        },
        { highWaterMark: 0 },
      )
    },
  }
}
