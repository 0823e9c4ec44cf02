/** The web search answer of the strict messages stand-in (./strict-upstream.ts). */
import { randomBytes } from 'node:crypto'
import type * as ir from '../../ir/index.js'

/** What Anthropic answers when its web_search server tool ran: the use, its (encrypted) results, cited text. */
export function anthropicSearch(text: string): ir.AssistantPart[] {
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
