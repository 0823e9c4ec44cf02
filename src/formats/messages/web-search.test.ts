/**
 * Anthropic's web search in answers (issue 21 item 1): `server_tool_use` + `web_search_tool_result` become one IR
 * `web-search` part, `web_search_result_location` citations IR citations — so a Responses client gets a
 * `web_search_call` item and `url_citation` annotations (JSON and stream), and a messages client the blocks as sent.
 */
import { describe, expect, it } from 'vitest'
import { convertRequest, convertResponse } from '../../convert.js'
import { convertStream } from '../../convert-stream.js'
import type * as ir from '../../ir/index.js'
import { decodeResponse } from './decode-response.js'
import { encodeResponse } from './encode-response.js'
import { messages } from './index.js'

// biome-ignore lint/suspicious/noExplicitAny: wire bodies are navigated freely in assertions
type Json = Record<string, any>

const use = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'tides brest' } }
const result = {
  type: 'web_search_tool_result',
  tool_use_id: 'srvtoolu_1',
  content: [
    { type: 'web_search_result', url: 'https://tides.example/brest', title: 'Brest tides', encrypted_content: 'Eq1' },
    { type: 'web_search_result', url: 'https://sea.example', title: 'Sea', encrypted_content: 'Eq2' },
  ],
}
const citation = {
  type: 'web_search_result_location',
  url: 'https://tides.example/brest',
  title: 'Brest tides',
  encrypted_index: 'Eo1',
  cited_text: 'High tide 06:12',
}
const answer = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-x',
  content: [
    { type: 'text', text: "I'll search. " },
    use,
    result,
    { type: 'text', text: 'High tide is at 06:12.', citations: [citation] },
  ],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5 },
}

function sse(events: Json[]): ReadableStream<Uint8Array> {
  const text = events.map((data) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`).join('')
  return new Response(text).body as ReadableStream<Uint8Array>
}

async function responsesEvents(stream: ReadableStream<Uint8Array>): Promise<Json[]> {
  const text = await new Response(convertStream(stream, { from: 'messages', to: 'responses' })).text()
  return text
    .split('\n\n')
    .filter((block) => block.includes('data: ') && !block.includes('[DONE]'))
    .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Json)
}

const expectedSearch = {
  type: 'web_search_call',
  status: 'completed',
  action: {
    type: 'search',
    query: 'tides brest',
    sources: [
      { type: 'url', url: 'https://tides.example/brest' },
      { type: 'url', url: 'https://sea.example' },
    ],
  },
}
const expectedAnnotation = {
  type: 'url_citation',
  start_index: 0,
  end_index: 'High tide is at 06:12.'.length,
  title: 'Brest tides',
  url: 'https://tides.example/brest',
}

describe('Anthropic web search → IR', () => {
  it('one web-search part between the texts, citations on the cited text, no warnings', () => {
    const { value, warnings } = decodeResponse(answer)
    expect(warnings).toEqual([])
    expect(value.content.map((part) => part.type)).toEqual(['text', 'web-search', 'text'])
    expect(value.content[1]).toMatchObject({ id: 'srvtoolu_1', queries: ['tides brest'] })
    expect(value.content[1]).not.toHaveProperty('failed')
    expect(value.content[2]).toMatchObject({
      citations: [{ type: 'url', url: citation.url, title: citation.title, citedText: citation.cited_text }],
    })
  })

  it('a messages client gets the blocks back as sent', () => {
    const { value } = decodeResponse(answer)
    expect(encodeResponse(value).value).toMatchObject({ content: answer.content })
  })

  it('an error result is a failed search', () => {
    const failed = { ...result, content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } }
    const { value } = decodeResponse({ ...answer, content: [use, failed] })
    expect(value.content[0]).toMatchObject({ type: 'web-search', failed: true, sources: [] })
  })
})

describe('→ a Responses client', () => {
  it('JSON: a web_search_call item and url_citation annotations', () => {
    const body = convertResponse(answer, { from: 'messages', to: 'responses' }) as Json
    expect(body.output.map((item: Json) => item.type)).toEqual(['message', 'web_search_call', 'message'])
    expect(body.output[1]).toMatchObject(expectedSearch)
    expect(body.output[1].id).toMatch(/^ws_/)
    expect(body.output[2].content[0].annotations).toEqual([expectedAnnotation])
    expect(body.output[0].content[0].annotations).toEqual([])
  })

  it('stream: the search item with its progress events, the citation as annotation.added and on the done part', async () => {
    const events = await responsesEvents(
      sse([
        { type: 'message_start', message: { ...answer, content: [], stop_reason: null } },
        { type: 'content_block_start', index: 0, content_block: { ...use, input: {} } },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: '{"query": "tides brest"}' },
        },
        { type: 'content_block_stop', index: 0 },
        { type: 'content_block_start', index: 1, content_block: result },
        { type: 'content_block_stop', index: 1 },
        { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '', citations: [] } },
        { type: 'content_block_delta', index: 2, delta: { type: 'citations_delta', citation } },
        { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'High tide is at 06:12.' } },
        { type: 'content_block_stop', index: 2 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } },
        { type: 'message_stop' },
      ]),
    )
    const types = events.map((event) => event.type)
    expect(types.slice(2, 7)).toEqual([
      'response.output_item.added',
      'response.web_search_call.in_progress',
      'response.web_search_call.searching',
      'response.web_search_call.completed',
      'response.output_item.done',
    ])
    expect(events[2]?.item).toMatchObject({ type: 'web_search_call', status: 'in_progress' })
    expect(events[6]?.item).toMatchObject(expectedSearch)
    const added = events.find((event) => event.type === 'response.output_text.annotation.added')
    expect(added).toMatchObject({ annotation_index: 0, content_index: 0, annotation: expectedAnnotation })
    const completed = events.at(-1) as Json
    expect(completed.type).toBe('response.completed')
    expect(completed.response.output[0]).toMatchObject(expectedSearch)
    expect(completed.response.output[1].content[0].annotations).toEqual([expectedAnnotation])
  })
})

describe('a web search asked by a messages or Gemini client, for another upstream', () => {
  const search = {
    type: 'web_search_20250305',
    name: 'web_search',
    max_uses: 2,
    allowed_domains: ['tides.example'],
    user_location: { type: 'approximate', city: 'Brest', country: 'FR' },
  }
  const body = { model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'tides?' }], tools: [search] }
  const convert = (from: 'messages' | 'content-generation', request: unknown, to: ir.FormatId) => {
    const warnings: ir.Warning[] = []
    const value = convertRequest(request, { from, to, model: 'm', onWarning: (w) => warnings.push(w) }) as Json
    return { value, warnings: warnings.map((w) => `${w.path}: ${w.message}`) }
  }

  it('messages → responses: a web_search tool with the domains and location; the use limit reported', () => {
    const { value, warnings } = convert('messages', body, 'responses')
    expect(value.tools).toEqual([
      {
        type: 'web_search',
        filters: { allowed_domains: ['tides.example'] },
        user_location: { type: 'approximate', city: 'Brest', country: 'FR' },
      },
    ])
    expect(warnings).toEqual(['tools.webSearch.maxUses: responses web search has no use limit'])
  })

  it('messages → content-generation: googleSearch, what it lacks reported; → chat-completions: left out', () => {
    const gemini = convert('messages', body, 'content-generation')
    expect(gemini.value.tools).toEqual([{ googleSearch: {} }])
    expect(gemini.warnings).toHaveLength(3)
    const chat = convert('messages', body, 'chat-completions')
    expect(chat.value.tools).toBeUndefined()
    expect(chat.warnings).toEqual(['tools: web search tool left out: Chat Completions has no hosted web search'])
  })

  it('messages → messages keeps the server tool as sent', () => {
    const { value } = messages.decodeRequest(body)
    expect((messages.encodeRequest(value).value as Json).tools).toEqual([search])
  })

  it("Gemini's googleSearch → Anthropic's web_search (excludeDomains as blocked domains) and Responses' web_search", () => {
    const gemini = {
      contents: [{ role: 'user', parts: [{ text: 'tides?' }] }],
      tools: [{ googleSearch: { excludeDomains: ['spam.example'] } }],
    }
    const anthropic = convert('content-generation', gemini, 'messages')
    expect(anthropic.value.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search', blocked_domains: ['spam.example'] },
    ])
    expect(anthropic.warnings).toEqual([])
    const openai = convert('content-generation', gemini, 'responses')
    expect(openai.value.tools).toEqual([{ type: 'web_search' }])
    expect(openai.warnings).toEqual(['tools.webSearch.blockedDomains: responses web search has no blocked domains'])
  })
})
