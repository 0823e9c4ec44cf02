/**
 * Hand-written validation of message content blocks. Content is most of a request's bytes, so blocks are checked
 * here in one allocation-free pass returning the first problem (the benchmark target is ≤ 1.5× plain JSON). Wired
 * into the schemas as a check (`checked`, shared/schema.ts), so errors still come out of `parseWire` with the full
 * path (`messages[1].content[0].source.data`). Unknown block types are refused (`…content[0].type`).
 */

import { isRecord } from '../../shared/is-record.js'
import type { Problem } from '../../shared/schema.js'
import { stringProblem, typeProblem } from '../../shared/wire-problem.js'

type Json = Record<string, unknown>

/** Prefixes a problem's path: paths are built only on failure, so a valid body allocates nothing. */
function at(found: Problem, ...prefix: Array<string | number>): Problem {
  found.path.unshift(...prefix)
  return found
}

function optionalObject(block: Json, key: string): Problem | undefined {
  const value = block[key]
  if (value === undefined || value === null || isRecord(value)) return undefined
  return typeProblem([key], 'object', value)
}

function checkSource(block: Json, document: boolean): Problem | undefined {
  const source = block.source
  if (!isRecord(source)) return typeProblem(['source'], 'object', source)
  const p =
    stringProblem(source, 'type', 0) ??
    stringProblem(source, 'media_type', 2) ??
    stringProblem(source, 'data', 1) ??
    stringProblem(source, 'url', 1) ??
    stringProblem(source, 'file_id', 1)
  if (p) return at(p, 'source')
  if (document && source.content !== undefined && typeof source.content !== 'string') {
    if (!Array.isArray(source.content)) return typeProblem(['source', 'content'], 'string or array', source.content)
    for (let i = 0; i < source.content.length; i++) {
      if (!isRecord(source.content[i])) return typeProblem(['source', 'content', i], 'object', source.content[i])
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

function unknownType(type: string, allowed: Set<string>): Problem {
  const shown = type.length > 40 ? `${type.slice(0, 40)}…` : type
  return {
    path: ['type'],
    message: `unknown block type '${shown}' (expected one of: ${[...allowed].join(', ')})`,
  }
}

function checkBlock(block: unknown, inToolResult: boolean): Problem | undefined {
  if (!isRecord(block)) return typeProblem([], 'object', block)
  const type = block.type
  if (typeof type !== 'string') return typeProblem(['type'], 'string', type)
  switch (type) {
    case 'text': {
      const p = stringProblem(block, 'text', 0) ?? optionalObject(block, 'cache_control')
      if (p) return p
      const citations = block.citations
      if (citations !== undefined && citations !== null && !Array.isArray(citations)) {
        return typeProblem(['citations'], 'array', citations)
      }
      return undefined
    }
    case 'image':
      return checkSource(block, false) ?? optionalObject(block, 'cache_control')
    case 'document':
      return (
        checkSource(block, true) ??
        stringProblem(block, 'title', 2) ??
        stringProblem(block, 'context', 2) ??
        optionalObject(block, 'cache_control') ??
        optionalObject(block, 'citations')
      )
  }
  if (inToolResult) return toolResultTypes.has(type) ? undefined : unknownType(type, toolResultTypes)
  if (!blockTypes.has(type)) return unknownType(type, blockTypes)
  switch (type) {
    case 'tool_use': {
      const p = stringProblem(block, 'id', 0) ?? stringProblem(block, 'name', 0)
      if (p) return p
      return isRecord(block.input) ? undefined : typeProblem(['input'], 'object', block.input)
    }
    case 'tool_result': {
      const p = stringProblem(block, 'tool_use_id', 0)
      if (p) return p
      const isError = block.is_error
      if (isError !== undefined && isError !== null && typeof isError !== 'boolean') {
        return typeProblem(['is_error'], 'boolean', isError)
      }
      const content = block.content
      if (content === undefined || typeof content === 'string') return undefined
      if (!Array.isArray(content)) return typeProblem(['content'], 'string or array', content)
      for (let i = 0; i < content.length; i++) {
        const inner = checkBlock(content[i], true)
        if (inner) return at(inner, 'content', i)
      }
      return undefined
    }
    case 'thinking':
      return stringProblem(block, 'thinking', 0) ?? stringProblem(block, 'signature', 1)
    case 'redacted_thinking':
      return stringProblem(block, 'data', 0)
    default:
      return undefined
  }
}

/** Message content: a string or an array of blocks. */
export function checkContent(content: unknown): Problem | undefined {
  if (typeof content === 'string') return undefined
  if (!Array.isArray(content)) return typeProblem([], 'string or array', content)
  for (let i = 0; i < content.length; i++) {
    const p = checkBlock(content[i], false)
    if (p) return at(p, i)
  }
  return undefined
}

/** Response content: an array of blocks. */
export function checkBlocks(content: unknown): Problem | undefined {
  if (!Array.isArray(content)) return typeProblem([], 'array', content)
  return checkContent(content)
}

const roles = new Set(['user', 'assistant', 'system'])

/** The `messages` array: objects with a known role and valid content. */
export function checkMessages(messages: unknown): Problem | undefined {
  if (!Array.isArray(messages)) return typeProblem([], 'array', messages)
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]
    if (!isRecord(message)) return typeProblem([i], 'object', message)
    if (!roles.has(message.role as string)) {
      return {
        path: [i, 'role'],
        message:
          message.role === undefined
            ? 'required field is missing (expected "user" or "assistant" or "system")'
            : `expected one of "user", "assistant", "system", received ${JSON.stringify(message.role)}`,
      }
    }
    if (message.role === 'system') {
      const p = checkSystemEntry(message)
      if (p) return at(p, i)
      continue
    }
    const p = checkContent(message.content)
    if (p) return at(p, i, 'content')
  }
  return undefined
}

/** The top-level `output_config.effort` values (schema.ts). */
const efforts = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'])

/**
 * A `role: "system"` entry inside `messages` (Claude Code sends one among the turns): text only — a string or text
 * blocks — and an optional per-turn `output_config` ({effort}); anything else is refused naming its path, as the
 * service refuses it. Content may be empty on an effort-only entry.
 */
function checkSystemEntry(message: Json): Problem | undefined {
  const content = message.content
  if (typeof content !== 'string') {
    if (!Array.isArray(content)) return typeProblem(['content'], 'string or array', content)
    for (let j = 0; j < content.length; j++) {
      const block = content[j]
      if (isRecord(block) && typeof block.type === 'string' && block.type !== 'text')
        return { path: ['content', j, 'type'], message: "a system message holds only text blocks (expected 'text')" }
      const p = checkBlock(block, false)
      if (p) return at(p, 'content', j)
    }
  }
  const config = message.output_config
  if (config === undefined) return undefined
  if (!isRecord(config)) return typeProblem(['output_config'], 'object', config)
  const effort = config.effort
  if (effort === undefined || effort === null || (typeof effort === 'string' && efforts.has(effort))) return undefined
  return {
    path: ['output_config', 'effort'],
    message: `expected one of ${[...efforts].map((e) => `"${e}"`).join(', ')}, received ${JSON.stringify(effort)}`,
  }
}

/** `tools`: objects with a string `name`; client-tool fields typed when present. Schemas are not copied. */
export function checkTools(tools: unknown): Problem | undefined {
  if (!Array.isArray(tools)) return typeProblem([], 'array', tools)
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i]
    if (!isRecord(tool)) return typeProblem([i], 'object', tool)
    const p = stringProblem(tool, 'name', 0) ?? stringProblem(tool, 'type', 1) ?? stringProblem(tool, 'description', 1)
    if (p) return at(p, i)
    if (tool.input_schema !== undefined && !isRecord(tool.input_schema)) {
      return typeProblem([i, 'input_schema'], 'object', tool.input_schema)
    }
    if (tool.strict !== undefined && typeof tool.strict !== 'boolean')
      return typeProblem([i, 'strict'], 'boolean', tool.strict)
  }
  return undefined
}
