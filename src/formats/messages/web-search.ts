/**
 * Anthropic's web search server tool in answers (wire-formats.md §2.5): a `server_tool_use` block (`name:
 * "web_search"`, `input.query`), then a `web_search_tool_result` block (`tool_use_id`, `content`: the results, or a
 * `web_search_tool_result_error`), then text blocks whose `citations` hold `web_search_result_location` entries.
 * The pair becomes one IR `web-search` part (both blocks kept verbatim for this format's encoder, which alone can
 * replay their encrypted content); the citations become IR citations on the text.
 */
import type * as ir from '../../ir/index.js'
import { userLocationOf } from '../../shared/hosted-tools.js'
import { isRecord } from '../../shared/is-record.js'

type Json = Record<string, unknown>

/** The IR citations among a text block's `citations` (web search locations), or undefined when there are none. */
export function webCitations(citations: unknown): ir.Citation[] | undefined {
  if (!Array.isArray(citations)) return undefined
  let out: ir.Citation[] | undefined
  for (const citation of citations) {
    if (!isRecord(citation) || citation.type !== 'web_search_result_location' || typeof citation.url !== 'string')
      continue
    const entry: ir.Citation = { type: 'url', url: citation.url }
    if (typeof citation.title === 'string') entry.title = citation.title
    if (typeof citation.cited_text === 'string') entry.citedText = citation.cited_text
    out ??= []
    out.push(entry)
  }
  return out
}

/** The query of a `server_tool_use` block's input (an object, or its JSON text as streamed). */
export function searchQuery(input: unknown): string | undefined {
  let value = input
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input)
    } catch {
      return undefined
    }
  }
  return isRecord(value) && typeof value.query === 'string' ? value.query : undefined
}

/** A `web_search_tool_result` block (and the `server_tool_use` it answers, when seen) as an IR part. */
export function webSearchPart(result: Json, use: Json | undefined, query: string | undefined): ir.WebSearchPart {
  const content = result.content
  const sources: ir.WebSearchPart['sources'] = []
  if (Array.isArray(content)) {
    for (const entry of content) {
      if (!isRecord(entry) || typeof entry.url !== 'string') continue
      sources.push(typeof entry.title === 'string' ? { url: entry.url, title: entry.title } : { url: entry.url })
    }
  }
  const part: ir.WebSearchPart = {
    type: 'web-search',
    id: String(result.tool_use_id ?? ''),
    queries: query === undefined ? [] : [query],
    sources,
    providerData: { messages: { blocks: use ? [use, result] : [result] } },
  }
  if (isRecord(content) && content.type === 'web_search_tool_result_error') part.failed = true
  return part
}

/** A `web_search_*` server tool of a request → the IR web search (its type, name and other keys kept for this format). */
export function decodeWebSearchTool(tool: Json): ir.WebSearchTool {
  const out: ir.WebSearchTool = { type: 'web-search' }
  const rest: Json = {}
  for (const key in tool) {
    const value = tool[key]
    if (key === 'max_uses' && typeof value === 'number') out.maxUses = value
    else if (key === 'allowed_domains' && isStringArray(value)) out.allowedDomains = value
    else if (key === 'blocked_domains' && isStringArray(value)) out.blockedDomains = value
    else if (key === 'user_location' && userLocationOf(value)) out.userLocation = userLocationOf(value)
    else if (key === 'type' || key === 'name') rest[`@${key}`] = value
    else rest[key] = value
  }
  out.providerData = { messages: rest }
  return out
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string')
}
