/**
 * The embedded mock model: works on the IR, needs no key and no network, and is deterministic (the same request
 * gives the same answer, ids included). It:
 * - calls a tool like a cooperative model (see `chooseTool`): the one `toolChoice` names, one the user's text names,
 *   one that takes a file path when the prompt names a file, or the first when a tool is required or the prompt is a
 *   plain test prompt; never a deferred tool, never right after a tool result (system entries among the turns are not
 *   turns); arguments come from the tool's JSON Schema (its required properties) and the file the prompt names;
 * - calls it several times in one turn (parallel calls) when the prompt lists what to call it for — "once for each
 *   city: Paris, Tokyo" — unless `parallelToolCalls` is false: one call per item, its first string parameter set to it;
 * - answers a structured-output request (`json-schema` or `json`) with a JSON value valid against the schema;
 * - after a tool result, answers with text that quotes the result;
 * - describes the images (and other media) it received in its text: "I see 1 image (image/png)";
 * - emits a reasoning block first when reasoning is requested (`enabled`, an effort other than `none`, or a
 *   positive budget), with a fake signature in `providerData.messages.signature` (its text empty when the thoughts are
 *   not to be shown: `includeThoughts: false`, Anthropic's `display: "omitted"`);
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

/** The first string parameter of a tool that takes a file path (`file_path`, `path`, `filename`), if any. */
function pathParameter(tool: ir.FunctionTool): string | undefined {
  const properties = (tool.parameters as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties
  if (!properties || typeof properties !== 'object') return undefined
  for (const key in properties) {
    if (/path|file/i.test(key) && String(properties[key]?.type ?? 'string').toLowerCase() === 'string') return key
  }
  return undefined
}

/** A file path the prompt names: an absolute or `./` path, or a file name with an extension (`notes.txt`). */
function pathIn(prompt: string): string | undefined {
  for (const raw of prompt.split(/\s+/)) {
    const token = raw.replace(/^["'`(<[]+|["'`)>\],.;:!?]+$/g, '')
    if (token.includes('://')) continue
    if (/^(?:\/|\.\/|~\/)[^\s]+$/.test(token) || /^[\w\-./]*[\w-]{2,}\.[A-Za-z0-9]{1,8}$/.test(token)) return token
  }
  return undefined
}

/** A relative path resolved against the working directory a system prompt states (Claude Code's environment). */
function resolvePath(path: string, request: ir.Request): string {
  if (path.startsWith('/') || path.startsWith('~')) return path
  for (const message of request.messages) {
    if (message.role !== 'system') continue
    const directory = /working directory:\s*(\/\S+)/i.exec(textOf(message.content))?.[1]
    if (directory) return `${directory.replace(/\/$/, '')}/${path.replace(/^\.\//, '')}`
  }
  return path
}

/**
 * The tool to call, if any, like a cooperative model: the one `toolChoice` names; else one the user's last text names
 * (its full name, or a distinctive word of it: "Weather in Paris?" → `get_weather`); else one that takes a file path
 * when the prompt names a file ("What is in notes.txt?" → `Read`); else, when the tool is required or the prompt is a
 * plain test prompt (no system prompt, at most three tools), the first one. Deferred tools are never called. An agent's
 * long prompt with many tools and nothing named gets a text answer, not a tool loop.
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
    tools.find((tool) => nameWords(tool.name).some((word) => new RegExp(`\\b${word}`).test(text))) ??
    (pathIn(prompt) === undefined ? undefined : tools.find((tool) => pathParameter(tool) !== undefined))
  if (named) return named
  const plain = !request.messages.some((message) => message.role === 'system') && tools.length <= 3
  return choice?.type === 'required' || plain ? tools[0] : undefined
}

/** What a prompt asks a tool to be called for, one call each: "… once for each city: Paris, Tokyo and Rome." */
function eachItem(prompt: string): string[] {
  const list = /\bfor each\b[^:.?!]*:\s*([^.?!\n]+)/i.exec(prompt)?.[1]
  if (!list) return []
  return list
    .split(/\s*,\s*|\s+and\s+/)
    .map((item) => item.trim())
    .filter(Boolean)
}

/** The first string property of a tool's parameters (its required ones first). */
function firstStringParameter(tool: ir.FunctionTool): string | undefined {
  const schema = (tool.parameters ?? {}) as { properties?: Record<string, { type?: unknown }>; required?: unknown }
  const properties = schema.properties ?? {}
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : []
  return [...required, ...Object.keys(properties)].find((key) => properties[key]?.type === 'string')
}

/** A tool call's arguments: the schema's required properties, and the file the prompt names for a path parameter. */
function toolArguments(tool: ir.FunctionTool, prompt: string, request: ir.Request): Record<string, unknown> {
  const args = sampleObject((tool.parameters ?? {}) as Record<string, unknown>)
  const parameter = pathParameter(tool)
  const path = pathIn(prompt)
  if (parameter !== undefined && path !== undefined) args[parameter] = resolvePath(path, request)
  return args
}

/** The schema of a structured-output request (`response_format`, `responseJsonSchema`, `output_config.format`). */
function outputSchema(request: ir.Request): ir.JsonSchema | undefined {
  const format = request.responseFormat
  if (format?.type === 'json-schema') return format.schema
  return format?.type === 'json' ? { type: 'object' } : undefined
}

function answer(request: ir.Request): { parts: ir.AssistantPart[]; finishReason: ir.FinishReason } {
  const id = fingerprint(request)
  // The last turn of the conversation: system entries (Claude Code puts one last, among the turns) are not turns.
  const last = request.messages.findLast((message) => message.role !== 'system')
  const lastUser = request.messages.findLast((message) => message.role === 'user')
  const fullPrompt = lastUser ? textOf(lastUser.content) : ''
  const prompt = fullPrompt.slice(0, 120)
  const parts: ir.AssistantPart[] = []
  if (wantsReasoning(request.reasoning)) {
    // Thinking asked to be omitted (`display: "omitted"`, `includeThoughts: false`) comes as a signed empty block.
    const text =
      request.reasoning?.includeThoughts === false ? '' : `The user asked: "${prompt}". A short, direct answer will do.`
    parts.push({ type: 'reasoning', text, providerData: { messages: { signature: `mock-signature-${id}` } } })
  }
  const tool = last?.role === 'tool' ? undefined : chooseTool(request, fullPrompt)
  if (tool) {
    const args = toolArguments(tool, fullPrompt, request)
    const items = request.parallelToolCalls === false ? [] : eachItem(fullPrompt)
    const parameter = firstStringParameter(tool)
    if (items.length < 2 || parameter === undefined)
      parts.push({ type: 'tool-call', id: `call_mock_${id}`, name: tool.name, arguments: JSON.stringify(args) })
    else
      items.forEach((item, i) => {
        const call = JSON.stringify({ ...args, [parameter]: item })
        parts.push({ type: 'tool-call', id: `call_mock_${id}${i ? `_${i}` : ''}`, name: tool.name, arguments: call })
      })
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
