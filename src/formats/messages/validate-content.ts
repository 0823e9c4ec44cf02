/**
 * Hand-written validation of message content blocks. Content is most of a request's bytes, so blocks are checked
 * here in one allocation-free pass returning the first problem (the benchmark target is ≤ 1.5× plain JSON). Wired
 * into the schemas as a check (`checked`, shared/schema.ts), so errors still come out of `parseWire` with the full
 * path (`messages[1].content[0].source.data`). Unknown block types are refused (`…content[0].type`).
 */
import type { Problem } from '../../shared/schema.js'

type Json = Record<string, unknown>

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function problem(path: Array<string | number>, expected: string, value: unknown): Problem {
  return {
    path,
    message:
      value === undefined
        ? `required field is missing (expected ${expected})`
        : `expected ${expected}, received ${describe(value)}`,
  }
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Checks `block[key]`: `required` string, or an optional (and optionally nullable) one. */
function str(
  block: Json,
  key: string,
  path: Array<string | number>,
  mode: 'required' | 'optional' | 'nullable',
): Problem | undefined {
  const value = block[key]
  if (typeof value === 'string') return undefined
  if (value === undefined && mode !== 'required') return undefined
  if (value === null && mode === 'nullable') return undefined
  return problem([...path, key], 'string', value)
}

function optionalObject(block: Json, key: string, path: Array<string | number>): Problem | undefined {
  const value = block[key]
  if (value === undefined || value === null || isObject(value)) return undefined
  return problem([...path, key], 'object', value)
}

function checkSource(block: Json, path: Array<string | number>, document: boolean): Problem | undefined {
  const source = block.source
  const at = [...path, 'source']
  if (!isObject(source)) return problem(at, 'object', source)
  const p =
    str(source, 'type', at, 'required') ??
    str(source, 'media_type', at, 'nullable') ??
    str(source, 'data', at, 'optional') ??
    str(source, 'url', at, 'optional') ??
    str(source, 'file_id', at, 'optional')
  if (p) return p
  if (document && source.content !== undefined && typeof source.content !== 'string') {
    if (!Array.isArray(source.content)) return problem([...at, 'content'], 'string or array', source.content)
    for (let i = 0; i < source.content.length; i++) {
      if (!isObject(source.content[i])) return problem([...at, 'content', i], 'object', source.content[i])
    }
  }
  return undefined
}

/**
 * Every content block type the Messages API accepts in a request (`ContentBlockParam` and `BetaContentBlockParam` of
 * @anthropic-ai/sdk). Anything else is refused as the service refuses it (a 400 naming the path), never dropped.
 */
const blockTypes = new Set([
  'text',
  'image',
  'document',
  'search_result',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'advisor_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'mcp_tool_listing',
  'container_upload',
  'compaction',
  'tool_addition',
  'tool_removal',
  'fallback',
])
/** Block types a `tool_result.content` array may hold. */
const toolResultTypes = new Set(['text', 'image', 'document', 'search_result', 'tool_reference'])

function unknownType(path: Array<string | number>, type: string, allowed: Set<string>): Problem {
  const shown = type.length > 40 ? `${type.slice(0, 40)}…` : type
  return {
    path: [...path, 'type'],
    message: `unknown block type '${shown}' (expected one of: ${[...allowed].join(', ')})`,
  }
}

function checkBlock(block: unknown, path: Array<string | number>, inToolResult: boolean): Problem | undefined {
  if (!isObject(block)) return problem(path, 'object', block)
  const type = block.type
  if (typeof type !== 'string') return problem([...path, 'type'], 'string', type)
  switch (type) {
    case 'text': {
      const p = str(block, 'text', path, 'required') ?? optionalObject(block, 'cache_control', path)
      if (p) return p
      const citations = block.citations
      if (citations !== undefined && citations !== null && !Array.isArray(citations)) {
        return problem([...path, 'citations'], 'array', citations)
      }
      return undefined
    }
    case 'image':
      return checkSource(block, path, false) ?? optionalObject(block, 'cache_control', path)
    case 'document':
      return (
        checkSource(block, path, true) ??
        str(block, 'title', path, 'nullable') ??
        str(block, 'context', path, 'nullable') ??
        optionalObject(block, 'cache_control', path) ??
        optionalObject(block, 'citations', path)
      )
  }
  if (inToolResult) return toolResultTypes.has(type) ? undefined : unknownType(path, type, toolResultTypes)
  if (!blockTypes.has(type)) return unknownType(path, type, blockTypes)
  switch (type) {
    case 'tool_use': {
      const p = str(block, 'id', path, 'required') ?? str(block, 'name', path, 'required')
      if (p) return p
      return isObject(block.input) ? undefined : problem([...path, 'input'], 'object', block.input)
    }
    case 'tool_result': {
      const p = str(block, 'tool_use_id', path, 'required')
      if (p) return p
      const isError = block.is_error
      if (isError !== undefined && isError !== null && typeof isError !== 'boolean') {
        return problem([...path, 'is_error'], 'boolean', isError)
      }
      const content = block.content
      if (content === undefined || typeof content === 'string') return undefined
      if (!Array.isArray(content)) return problem([...path, 'content'], 'string or array', content)
      for (let i = 0; i < content.length; i++) {
        const inner = checkBlock(content[i], [...path, 'content', i], true)
        if (inner) return inner
      }
      return undefined
    }
    case 'thinking':
      return str(block, 'thinking', path, 'required') ?? str(block, 'signature', path, 'optional')
    case 'redacted_thinking':
      return str(block, 'data', path, 'required')
    default:
      return undefined
  }
}

/** Message content: a string or an array of blocks. */
export function checkContent(content: unknown): Problem | undefined {
  if (typeof content === 'string') return undefined
  if (!Array.isArray(content)) return problem([], 'string or array', content)
  for (let i = 0; i < content.length; i++) {
    const p = checkBlock(content[i], [i], false)
    if (p) return p
  }
  return undefined
}

/** Response content: an array of blocks. */
export function checkBlocks(content: unknown): Problem | undefined {
  if (!Array.isArray(content)) return problem([], 'array', content)
  return checkContent(content)
}

const roles = new Set(['user', 'assistant', 'system'])

/** The `messages` array: objects with a known role and valid content. */
export function checkMessages(messages: unknown): Problem | undefined {
  if (!Array.isArray(messages)) return problem([], 'array', messages)
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]
    if (!isObject(message)) return problem([i], 'object', message)
    if (!roles.has(message.role as string)) {
      return {
        path: [i, 'role'],
        message:
          message.role === undefined
            ? 'required field is missing (expected "user" or "assistant" or "system")'
            : `expected one of "user", "assistant", "system", received ${JSON.stringify(message.role)}`,
      }
    }
    const p = checkContent(message.content)
    if (p) return { path: [i, 'content', ...p.path], message: p.message }
  }
  return undefined
}

/** `tools`: objects with a string `name`; client-tool fields typed when present. Schemas are not copied. */
export function checkTools(tools: unknown): Problem | undefined {
  if (!Array.isArray(tools)) return problem([], 'array', tools)
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i]
    if (!isObject(tool)) return problem([i], 'object', tool)
    const p =
      str(tool, 'name', [i], 'required') ??
      str(tool, 'type', [i], 'optional') ??
      str(tool, 'description', [i], 'optional')
    if (p) return p
    if (tool.input_schema !== undefined && !isObject(tool.input_schema)) {
      return problem([i, 'input_schema'], 'object', tool.input_schema)
    }
    if (tool.strict !== undefined && typeof tool.strict !== 'boolean')
      return problem([i, 'strict'], 'boolean', tool.strict)
  }
  return undefined
}
