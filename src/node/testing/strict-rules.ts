/**
 * The request rules the strict stand-ins share across formats (./strict-upstream.ts): tool lists as each service
 * checks them (names it accepts, unique; only the tool types it knows: messages server tools by their versioned type,
 * Gemini tool keys, chat `function`/`custom`; Gemini refuses googleSearch beside function declarations), and a tool
 * result must answer a call of the turn before it (messages `tool_use_id`, chat `tool_call_id`).
 */
import type { StrictFormat as FormatId, Json } from './json.js'

/**
 * The tool call turn 1 answers, given the request's function names (undefined: answer text). `custom`: a Responses
 * `custom_tool_call` whose `input` is `arguments` (Codex's `exec`).
 */
export type ToolCallScript = (names: string[]) => { name: string; arguments: string; custom?: boolean } | undefined

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
export function checkTools(format: FormatId, body: Json): string | undefined {
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
export function checkResults(format: FormatId, body: Json): string | undefined {
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

/** Fields each service requires that the library's lenient decoders fill in or let pass (their own messages). */
export function checkRequired(format: FormatId, body: Json): string | undefined {
  if (format === 'messages') {
    if (body.max_tokens === undefined) return 'max_tokens: Field required'
    if (body.model === undefined) return 'model: Field required'
  } else if (format === 'chat-completions' || format === 'responses') {
    if (body.model === undefined) return 'you must provide a model parameter'
  } else if (!Array.isArray(body.contents) || body.contents.length === 0)
    return '* GenerateContentRequest.contents: contents is not specified'
  return undefined
}
