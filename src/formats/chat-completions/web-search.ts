/**
 * Web search on Chat Completions: the search models' `web_search_options` (the request's hosted web search, mapped
 * like a Responses `web_search` tool) and the `url_citation` annotations of their answers.
 * @see https://platform.openai.com/docs/guides/tools-web-search?api-mode=chat
 */
import type * as ir from '../../ir/index.js'
import { dropHostedTool, isContextSize, reportWebSearchFields, userLocationOf } from '../../shared/hosted-tools.js'
import { isRecord } from '../../shared/is-record.js'

const FORMAT = 'chat-completions'

type Wire = Record<string, unknown>

/** `web_search_options` → the IR web search; fields with no IR slot ride along for this format's encoder. */
export function decodeWebSearchOptions(options: Wire): ir.WebSearchTool {
  const tool: ir.WebSearchTool = { type: 'web-search' }
  const rest: Wire = { '@type': 'web_search_options' }
  for (const key of Object.keys(options)) {
    const value = options[key]
    if (value === null || value === undefined) continue
    if (key === 'search_context_size' && isContextSize(value)) tool.searchContextSize = value
    else if (key === 'user_location' && isRecord(value)) {
      const location = userLocationOf(value.approximate)
      if (location) tool.userLocation = location
    } else rest[key] = value
  }
  tool.providerData = { [FORMAT]: rest }
  return tool
}

/**
 * The request's web search as `web_search_options` — only when it came from this format: other models refuse the field
 * (it exists on the search models only), so another format's web search is left out with a warning.
 */
export function encodeWebSearchOptions(tools: readonly ir.HostedTool[], warnings: ir.Warning[]): Wire | undefined {
  let options: Wire | undefined
  for (const tool of tools) {
    const own = tool.providerData?.[FORMAT]
    if (own?.['@type'] !== 'web_search_options' || options) {
      dropHostedTool(warnings, 'Chat Completions has no hosted web search')
      continue
    }
    options = {}
    for (const key in own) if (!key.startsWith('@')) options[key] = own[key]
    if (tool.searchContextSize) options.search_context_size = tool.searchContextSize
    if (tool.userLocation) options.user_location = { type: 'approximate', approximate: tool.userLocation }
    reportWebSearchFields(tool, FORMAT, ['userLocation', 'searchContextSize'], warnings)
  }
  return options
}

/**
 * A text's citations as `url_citation` annotations of the message: offsets count from the start of the message's
 * content, where the text begins at `offset`; a citation without offsets covers the whole text (`length`).
 */
export function encodeAnnotations(citations: readonly ir.Citation[], offset: number, length: number): Wire[] {
  return citations.map((citation) => ({
    type: 'url_citation',
    url_citation: {
      end_index: offset + (citation.endIndex ?? length),
      start_index: offset + (citation.startIndex ?? 0),
      title: citation.title ?? citation.url,
      url: citation.url,
    },
  }))
}
