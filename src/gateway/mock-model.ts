/**
 * The embedded mock model: works on the IR, needs no key and no network, and is deterministic (the same request
 * gives the same answer, ids included). It:
 * - answers with a call to the first declared tool (or the tool `toolChoice` names) when tools are offered, tool
 *   choice is not `none` and the last message is not a tool result; arguments come from the tool's JSON Schema
 *   (its required properties, each with a value of the declared type);
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

export interface MockModel {
  generate(request: ir.Request): ir.Response
  stream(request: ir.Request): ReadableStream<ir.StreamEvent>
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

/** A value for a JSON Schema node: the first enum/const, else a placeholder of the declared type. */
function sampleValue(schema: unknown, name: string): unknown {
  const node = (typeof schema === 'object' && schema !== null ? schema : {}) as Record<string, unknown>
  if ('const' in node) return node.const
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0]
  const type = Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type
  switch (type) {
    case 'integer':
    case 'number':
      return 1
    case 'boolean':
      return true
    case 'array':
      return [sampleValue(node.items, name)]
    case 'object':
      return sampleObject(node)
    case 'null':
      return null
    default:
      return `example ${name}`
  }
}

function sampleObject(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (
    typeof schema.properties === 'object' && schema.properties !== null ? schema.properties : {}
  ) as Record<string, unknown>
  const required = Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === 'string') : []
  const out: Record<string, unknown> = {}
  for (const key of required) out[key] = sampleValue(properties[key], key)
  return out
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

function chooseTool(request: ir.Request): ir.FunctionTool | undefined {
  const tools = request.tools ?? []
  if (tools.length === 0 || request.toolChoice?.type === 'none') return undefined
  if (request.toolChoice?.type === 'tool') {
    const name = request.toolChoice.name
    return tools.find((tool) => tool.name === name) ?? tools[0]
  }
  const allowed = request.allowedTools
  return (allowed ? tools.find((tool) => allowed.includes(tool.name)) : undefined) ?? tools[0]
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
  const tool = last?.role === 'tool' ? undefined : chooseTool(request)
  if (tool) {
    const args = sampleObject((tool.parameters ?? {}) as Record<string, unknown>)
    parts.push({ type: 'tool-call', id: `call_mock_${id}`, name: tool.name, arguments: JSON.stringify(args) })
    return { parts, finishReason: { unified: 'tool-calls' } }
  }
  const text =
    last?.role === 'tool'
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
