/**
 * Gemini's Google Search grounding (wire-formats.md §3): a candidate's `groundingMetadata` holds the queries run
 * (`webSearchQueries`), the pages found (`groundingChunks[].web {uri, title}`) and which text each page supports
 * (`groundingSupports[] {segment {text, startIndex, endIndex}, groundingChunkIndices}`). It becomes one IR
 * `web-search` part (placed before the answer: the search ran first) and citations on the text parts that hold each
 * supported segment (offsets found by the segment's text, since Gemini counts UTF-8 bytes). The metadata itself stays
 * in the candidate's extensions, so a Gemini client gets it back as sent.
 */
import type * as ir from '../../ir/index.js'
import { isRecord } from '../../shared/is-record.js'

type Json = Record<string, unknown>

function pages(metadata: Json): Array<{ url: string; title?: string } | undefined> {
  const chunks = Array.isArray(metadata.groundingChunks) ? metadata.groundingChunks : []
  return chunks.map((chunk) => {
    const web = isRecord(chunk) && isRecord(chunk.web) ? chunk.web : undefined
    if (typeof web?.uri !== 'string') return undefined
    return typeof web.title === 'string' ? { url: web.uri, title: web.title } : { url: web.uri }
  })
}

/** The search a candidate's grounding records, or undefined when it records none. */
export function groundingSearch(metadata: unknown, id: string): ir.WebSearchPart | undefined {
  if (!isRecord(metadata)) return undefined
  const queries = Array.isArray(metadata.webSearchQueries)
    ? metadata.webSearchQueries.filter((query): query is string => typeof query === 'string')
    : []
  const sources = pages(metadata).filter((page) => page !== undefined)
  if (queries.length === 0 && sources.length === 0) return undefined
  return { type: 'web-search', id, queries, sources, providerData: { 'content-generation': { '@grounding': true } } }
}

/**
 * The citations of each supported segment, on the text part that holds it (`texts`: the candidate's text parts, in
 * order). With `wholeParts`, citations carry no offsets (a stream's text is not kept to search in).
 */
export function attachCitations(metadata: unknown, texts: ir.TextPart[], wholeParts = false): void {
  if (!isRecord(metadata) || !Array.isArray(metadata.groundingSupports)) return
  const found = pages(metadata)
  for (const support of metadata.groundingSupports) {
    if (!isRecord(support) || !Array.isArray(support.groundingChunkIndices)) continue
    const segment = isRecord(support.segment) && typeof support.segment.text === 'string' ? support.segment.text : ''
    let part = texts[texts.length - 1]
    let start = -1
    if (!wholeParts && segment !== '') {
      for (const text of texts) {
        start = text.text.indexOf(segment)
        if (start >= 0) {
          part = text
          break
        }
      }
    }
    if (!part) return
    for (const index of support.groundingChunkIndices) {
      const page = typeof index === 'number' ? found[index] : undefined
      if (!page) continue
      if (wholeParts && part.citations?.some((known) => known.url === page.url)) continue
      const citation: ir.Citation = { type: 'url', ...page }
      if (start >= 0) {
        citation.startIndex = start
        citation.endIndex = start + segment.length
        citation.citedText = segment
      }
      part.citations = [...(part.citations ?? []), citation]
    }
  }
}
