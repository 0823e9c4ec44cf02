/**
 * Upstream stand-ins that are strict about reasoning continuity the way the real services are (wire-formats.md §5.5):
 * - messages: with thinking on, an assistant turn that holds a tool_use must start with a thinking (or
 *   redacted_thinking) block, and every thinking block's signature must be one this upstream issued for exactly that
 *   thinking text (an altered, foreign or empty signature is a 400) — thinking on or off;
 * - content-generation: the first functionCall of every model turn must carry a thoughtSignature this upstream issued
 *   (or Gemini's documented stand-in `skip_thought_signature_validator`); any other signature is a 400, and one that
 *   is not base64 (the gateway's `il1.` envelope) fails as a bytes field does;
 * - responses: reasoning, stored items and tool-result pairing as OpenAI checks them (./strict-responses.ts);
 * - chat-completions: no signatures exist (any valid history is accepted).
 * Tools are checked as each service checks them (tools-rules below): names each service accepts, unique; only the
 * tool types it knows (messages server tools by their versioned type, Gemini tool keys, chat `function`/`custom`);
 * Gemini refuses googleSearch beside function declarations (as Gemini 2.x does); a tool result must answer a call of
 * the turn before it (messages `tool_use_id`, chat `tool_call_id`).
 * Turn 1 (no tool result yet) answers reasoning + a call to the first tool (or what `callTool` / `toolCall` pick);
 * later turns answer text. The answers are written with the library's own encoders (JSON, or SSE when asked), so their
 * wire shape is the format's own.
 */
import { randomBytes } from 'node:crypto'
import { getFormat } from '../../src/formats/index.js'
import type * as ir from '../../src/ir/index.js'
import { createResponseEventStream } from '../../src/stream/from-response.js'
import { encodeEventsWith } from '../../src/stream/pipeline.js'
import type { Json } from '../gateway-helpers.js'
import { type Running, serve } from './servers.js'
import { createResponsesLedger } from './strict-responses.js'

export interface StrictUpstream extends Running {
  /** Requests this upstream refused, with the reason. */
  rejections: string[]
  /** Bodies it received. */
  received: Json[]
  /**
   * Takes the signatures (and stored items) in a request body of `format` as issued by this upstream: a history
   * recorded against the real service (test/fixtures/clients) carries that service's, which a replay to the same
   * format must find valid.
   */
  adopt(format: FormatId, body: Json): void
}

export type FormatId = 'chat-completions' | 'messages' | 'content-generation' | 'responses'

function formatOf(url: URL): FormatId {
  if (url.pathname.endsWith('/chat/completions')) return 'chat-completions'
  if (url.pathname.endsWith('/messages')) return 'messages'
  if (url.pathname.endsWith('/responses')) return 'responses'
  return 'content-generation'
}

function reject(format: FormatId, message: string): Response {
  const body =
    format === 'messages'
      ? { type: 'error', error: { type: 'invalid_request_error', message } }
      : format === 'content-generation'
        ? { error: { code: 400, message, status: 'INVALID_ARGUMENT' } }
        : {
            error: {
              message,
              type: 'invalid_request_error',
              param: format === 'responses' ? 'input' : null,
              code: null,
            },
          }
  return Response.json(body, { status: 400 })
}

/** The public model that routes to each stand-in format. */
export const strictModels = {
  'chat-completions': 'strict-openai',
  messages: 'strict-anthropic',
  'content-generation': 'strict-gemini',
} as const

/** Gateway options routing `strictModels` to the stand-ins at `url`, with the client key `client-key`. */
export function strictGatewayOptions(url: string) {
  return {
    upstreams: {
      openai: { format: 'chat-completions' as const, baseURL: `${url}/v1`, apiKey: 'up-openai' },
      anthropic: { format: 'messages' as const, baseURL: url, apiKey: 'up-anthropic' },
      gemini: { format: 'content-generation' as const, baseURL: url, apiKey: 'up-gemini' },
    },
    models: {
      [strictModels['chat-completions']]: { upstream: 'openai', model: 'gpt-5' },
      [strictModels.messages]: { upstream: 'anthropic', model: 'claude-sonnet-4-5' },
      [strictModels['content-generation']]: { upstream: 'gemini', model: 'gemini-3-pro' },
    },
    apiKeys: ['client-key'],
  }
}

/**
 * The tool call turn 1 answers, given the request's function names (undefined: answer text). `custom`: a Responses
 * `custom_tool_call` whose `input` is `arguments` (Codex's `exec`).
 */
export type ToolCallScript = (names: string[]) => { name: string; arguments: string; custom?: boolean } | undefined

export interface StrictUpstreamOptions {
  /** Which of the request's function names turn 1 calls. @defaultValue the first */
  callTool?: (names: string[]) => string | undefined
  /** The whole call turn 1 answers (name and arguments); takes precedence over `callTool`. */
  toolCall?: ToolCallScript
}

/**
 * The function tool names of a request body, in order. Responses: its function and custom tools, a namespace's
 * included, and those of `additional_tools` input items (where Codex 0.169+ puts its tools for its default model).
 */
export function functionNames(format: FormatId, body: Json): string[] {
  const tools = (body.tools ?? []) as Json[]
  if (format === 'chat-completions') return tools.flatMap((tool) => (tool.function ? [tool.function.name] : []))
  if (format === 'messages') return tools.flatMap((tool) => (tool.input_schema ? [tool.name] : []))
  if (format === 'responses') {
    const items = Array.isArray(body.input) ? (body.input as Json[]) : []
    const extra = items.flatMap((item) => (item?.type === 'additional_tools' ? (item.tools ?? []) : []))
    const names = (list: Json[]): string[] =>
      list.flatMap((tool) =>
        tool.type === 'namespace'
          ? names(tool.tools ?? [])
          : tool.type === 'function' || tool.type === 'custom'
            ? [tool.name]
            : [],
      )
    return names([...tools, ...extra])
  }
  return tools.flatMap((tool) => (tool.functionDeclarations ?? []).map((decl: Json) => decl.name))
}

/** The default call: the first function, with a city. */
export const firstTool: ToolCallScript = (names) =>
  names[0] === undefined ? undefined : { name: names[0], arguments: '{"city":"Paris"}' }

/** True when a request body of any format holds a tool's result (the turn after the call). */
export function hasToolResult(body: Json): boolean {
  const history = JSON.stringify(body.messages ?? body.contents ?? body.input ?? null)
  return /"tool_result"|"functionResponse"|"role":"tool"|"function_call_output"|"custom_tool_call_output"/.test(history)
}

const messagesServerTool =
  /^(web_search|web_fetch|code_execution|bash|text_editor|memory|computer|tool_search_tool_(regex|bm25))_\d{8}$/
const geminiToolKeys = new Set([
  'functionDeclarations',
  'googleSearch',
  'googleSearchRetrieval',
  'codeExecution',
  'urlContext',
  'googleMaps',
  'computerUse',
  'fileSearch',
  'mcpServers',
])

/** What the real services answer to a tool list they cannot take (messages, chat-completions, Gemini). */
function checkTools(format: FormatId, body: Json): string | undefined {
  const tools = body.tools as Json[] | undefined
  if (tools === undefined || format === 'responses') return undefined
  const names = functionNames(format, body)
  if (format === 'chat-completions') {
    if (tools.length === 0)
      return "Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead."
    for (const [i, tool] of tools.entries()) {
      if (tool.type !== 'function' && tool.type !== 'custom')
        return `Invalid value: '${tool.type}'. Supported values are: 'function' and 'custom'. (tools[${i}].type)`
      if (tool.type === 'function' && !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.function?.name))
        return `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`
    }
  } else if (format === 'messages') {
    for (const [i, tool] of tools.entries()) {
      if (tool.input_schema !== undefined) {
        if (!/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name))
          return `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`
      } else if (typeof tool.type !== 'string' || !messagesServerTool.test(tool.type))
        return `tools.${i}: Input tag '${tool.type}' found using 'type' does not match any of the expected tags`
    }
    const all = tools.map((tool) => tool.name)
    if (new Set(all).size !== all.length) return 'tools: Tool names must be unique.'
  } else {
    for (const [i, tool] of tools.entries()) {
      for (const key of Object.keys(tool))
        if (!geminiToolKeys.has(key))
          return `Invalid JSON payload received. Unknown name "${key}" at 'tools[${i}]': Cannot find field.`
    }
    for (const name of names)
      if (!/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/.test(name))
        return `Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64. (${name})`
    if (names.length > 0 && tools.some((tool) => tool.googleSearch !== undefined))
      return 'Tool use with function calling is unsupported'
  }
  if (new Set(names).size !== names.length) return 'tools: function names must be unique'
  return undefined
}

/** A tool result must answer a call of the assistant turn just before it. */
function checkResults(format: FormatId, body: Json): string | undefined {
  if (format === 'content-generation') return undefined
  let calls = new Set<string>()
  for (const [i, message] of ((body.messages ?? []) as Json[]).entries()) {
    if (format === 'chat-completions') {
      if (message.role === 'assistant') calls = new Set((message.tool_calls ?? []).map((c: Json) => c.id))
      else if (message.role === 'tool' && !calls.has(message.tool_call_id))
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages[${i}])`
      continue
    }
    const blocks = typeof message.content === 'string' ? [] : (message.content as Json[])
    if (message.role === 'assistant') {
      calls = new Set(blocks.filter((b) => b.type === 'tool_use').map((b) => b.id))
      continue
    }
    for (const block of blocks)
      if (block.type === 'tool_result' && !calls.has(block.tool_use_id))
        return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`
    calls = new Set()
  }
  return undefined
}

/** What Anthropic answers when its web_search server tool ran: the use, its (encrypted) results, cited text. */
function anthropicSearch(text: string): ir.AssistantPart[] {
  const id = `srvtoolu_${randomBytes(6).toString('hex')}`
  const url = 'https://example.com/interlingua'
  const use = { type: 'server_tool_use', id, name: 'web_search', input: { query: 'interlingua gateway' } }
  const results = [
    { type: 'web_search_result', url, title: 'Interlingua', encrypted_content: 'EqgB', page_age: null },
    { type: 'web_search_result', url: 'https://example.org/other', title: 'Other', encrypted_content: 'EqgC' },
  ]
  const result = { type: 'web_search_tool_result', tool_use_id: id, content: results }
  const citation = {
    type: 'web_search_result_location',
    url,
    title: 'Interlingua',
    encrypted_index: 'Eo8B',
    cited_text: 'a gateway',
  }
  return [
    {
      type: 'web-search',
      id,
      queries: ['interlingua gateway'],
      sources: [{ url }],
      providerData: { messages: { blocks: [use, result] } },
    },
    { type: 'text', text, providerData: { messages: { citations: [citation] } } },
  ]
}

export async function startStrictUpstream(options: StrictUpstreamOptions = {}): Promise<StrictUpstream> {
  const anthropicSignatures = new Map<string, string>()
  const geminiSignatures = new Set<string>()
  const responses = createResponsesLedger()
  const rejections: string[] = []
  const received: Json[] = []
  let turn = 0

  function checkMessages(body: Json): string | undefined {
    const thinkingOn = body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive'
    for (const [i, message] of (body.messages as Json[]).entries()) {
      if (message.role !== 'assistant' || typeof message.content === 'string') continue
      for (const [j, block] of (message.content as Json[]).entries()) {
        if (block.type === 'thinking' && anthropicSignatures.get(block.signature) !== block.thinking)
          return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`
        if (block.type === 'redacted_thinking')
          return `messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`
      }
      const first = (message.content as Json[])[0]
      const usesTool = (message.content as Json[]).some((block) => block.type === 'tool_use')
      if (thinkingOn && usesTool && first?.type !== 'thinking')
        return `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block`
    }
    return undefined
  }

  function checkGemini(body: Json): string | undefined {
    for (const [i, content] of (body.contents as Json[]).entries()) {
      if (content.role !== 'model') continue
      const parts = content.parts as Json[]
      for (const [j, part] of parts.entries()) {
        const signature = part.thoughtSignature
        // A bytes field: what is not base64 (an `il1.` envelope) fails before any signature check, as on Gemini.
        if (typeof signature === 'string' && !/^[A-Za-z0-9+/_-]*={0,2}$/.test(signature))
          return `Invalid value at 'contents[${i}].parts[${j}].thought_signature' (TYPE_BYTES), Base64 decoding failed for "${signature.slice(0, 20)}"`
        if (
          signature !== undefined &&
          signature !== 'skip_thought_signature_validator' &&
          !geminiSignatures.has(signature)
        )
          return `Corrupted thought signature in contents[${i}]`
      }
      const firstCall = parts.find((part) => part.functionCall)
      if (firstCall && firstCall.thoughtSignature === undefined)
        return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly (contents[${i}])`
    }
    return undefined
  }

  function adopt(format: FormatId, body: Json): void {
    if (format === 'messages') {
      for (const message of (body.messages ?? []) as Json[])
        for (const block of Array.isArray(message.content) ? message.content : [])
          if (block.type === 'thinking') anthropicSignatures.set(block.signature, block.thinking)
    } else if (format === 'content-generation') {
      for (const content of (body.contents ?? []) as Json[])
        for (const part of content.parts ?? []) if (part.thoughtSignature) geminiSignatures.add(part.thoughtSignature)
    } else if (format === 'responses') responses.adopt(body)
  }

  /** The call turn 1 answers: `toolCall`'s, else the function `callTool` names (the first) with a city. */
  function scripted(names: string[]): ReturnType<ToolCallScript> {
    if (options.toolCall) return options.toolCall(names)
    const name = options.callTool?.(names)
    return name === undefined ? firstTool(names) : { name, arguments: '{"city":"Paris"}' }
  }

  function answer(format: FormatId, body: Json, model: string): ir.Response {
    const script = hasToolResult(body) ? undefined : scripted(functionNames(format, body))
    const id = `resp_${++turn}`
    const usage = { inputTokens: 20, outputTokens: 10 }
    if (!script) {
      const text = `Done after ${turn} turns.`
      const searched = format === 'messages' && (body.tools ?? []).some((t: Json) => /^web_search_/.test(t.type))
      return {
        id,
        model,
        content: searched ? anthropicSearch(text) : [{ type: 'text', text }],
        finishReason: { unified: 'stop' },
        usage,
      }
    }
    const { name } = script
    const thinking = `I should call ${name} (turn ${turn}).`
    const content: ir.AssistantPart[] = []
    const call: ir.ToolCallPart = {
      type: 'tool-call',
      id: `toolu_${randomBytes(6).toString('hex')}`,
      name,
      arguments: script.custom ? JSON.stringify({ input: script.arguments }) : script.arguments,
    }
    if (script.custom && format === 'responses') call.providerData = { responses: { custom: true } }
    if (format === 'messages') {
      const signature = `EqQB${randomBytes(48).toString('base64')}`
      anthropicSignatures.set(signature, thinking)
      content.push({ type: 'reasoning', text: thinking, providerData: { messages: { signature } } })
    } else if (format === 'content-generation') {
      const signature = `CiQB${randomBytes(48).toString('base64')}`
      geminiSignatures.add(signature)
      content.push({ type: 'reasoning', text: thinking })
      call.providerData = { 'content-generation': { thoughtSignature: signature } }
    } else if (format === 'responses') content.push(responses.reasoning(thinking))
    content.push(call)
    return { id, model, content, finishReason: { unified: 'tool-calls' }, usage }
  }

  const running = await serve(async (request) => {
    const url = new URL(request.url)
    const format = formatOf(url)
    const body = (await request.json()) as Json
    received.push(body)
    const problem =
      checkTools(format, body) ??
      checkResults(format, body) ??
      (format === 'messages'
        ? checkMessages(body)
        : format === 'content-generation'
          ? checkGemini(body)
          : format === 'responses'
            ? responses.check(body)
            : undefined)
    if (problem) {
      rejections.push(problem)
      return reject(format, problem)
    }
    const model = body.model ?? url.pathname.split('/models/')[1]?.split(':')[0] ?? 'm'
    const response = answer(format, body, model)
    const target = getFormat(format)
    const stream = body.stream === true || url.pathname.includes(':streamGenerateContent')
    if (!stream) {
      const encoded = JSON.stringify(target.encodeResponse(response).value)
      if (format === 'responses') responses.store(body, encoded)
      return new Response(encoded, { headers: { 'content-type': 'application/json' } })
    }
    const sse = encodeEventsWith(createResponseEventStream(response), target, { includeUsage: true })
    if (format !== 'responses') return new Response(sse, { headers: { 'content-type': 'text/event-stream' } })
    const decoder = new TextDecoder()
    const tap = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        responses.store(body, decoder.decode(chunk, { stream: true }))
        controller.enqueue(chunk)
      },
    })
    return new Response(sse.pipeThrough(tap), { headers: { 'content-type': 'text/event-stream' } })
  })
  return { ...running, rejections, received, adopt }
}
