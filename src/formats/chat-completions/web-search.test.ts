/**
 * `web_search_options` (search models' hosted web search) as the IR web search, and citations as `url_citation`
 * annotations whose offsets count from the start of the message's content.
 */
import { describe, expect, it } from 'vitest'
import { convertRequest } from '../../convert.js'
import { InterlinguaError } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import { encodeEventsStep } from '../../stream/pipeline.js'
import { encodeResponse } from './encode-response.js'
import { chatCompletions } from './index.js'

// biome-ignore lint/suspicious/noExplicitAny: wire bodies are navigated freely in assertions
type Json = Record<string, any>

const body = {
  model: 'gpt-4o-search-preview',
  messages: [{ role: 'user', content: 'Tides in Brest?' }],
  web_search_options: {
    search_context_size: 'high',
    user_location: { type: 'approximate', approximate: { city: 'Brest', country: 'FR', timezone: 'Europe/Paris' } },
  },
}

function convert(request: unknown, to: ir.FormatId) {
  const warnings: ir.Warning[] = []
  const value = convertRequest(request, { from: 'chat-completions', to, onWarning: (w) => warnings.push(w) }) as Json
  return { value, warnings: warnings.map((w) => `${w.path}: ${w.message}`) }
}

describe('web_search_options in requests', () => {
  it('→ responses: a web_search tool with its context size and location', () => {
    const { value, warnings } = convert(body, 'responses')
    expect(value.tools).toEqual([
      {
        type: 'web_search',
        user_location: { type: 'approximate', city: 'Brest', country: 'FR', timezone: 'Europe/Paris' },
        search_context_size: 'high',
      },
    ])
    expect(warnings).toEqual([])
  })

  it('→ messages: web_search_20250305; the context size it has no field for is reported', () => {
    const { value, warnings } = convert(body, 'messages')
    expect(value.tools).toEqual([
      {
        type: 'web_search_20250305',
        name: 'web_search',
        user_location: { type: 'approximate', city: 'Brest', country: 'FR', timezone: 'Europe/Paris' },
      },
    ])
    expect(warnings).toContain('tools.webSearch.searchContextSize: messages web search has no search context size')
  })

  it('→ content-generation: googleSearch, left out with a warning beside function tools', () => {
    expect(convert({ ...body, web_search_options: {} }, 'content-generation').value.tools).toEqual([
      { googleSearch: {} },
    ])
    const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }]
    const both = convert({ ...body, tools }, 'content-generation')
    expect(both.value.tools).toHaveLength(1)
    expect(both.warnings.some((w) => w.startsWith('tools: web search tool left out'))).toBe(true)
  })

  it('a chat-completions round trip through the IR writes web_search_options back', () => {
    const decoded = chatCompletions.decodeRequest(body)
    expect((chatCompletions.encodeRequest(decoded.value).value as Json).web_search_options).toEqual(
      body.web_search_options,
    )
  })

  it('a wrong value is a 400 naming its path', () => {
    const wrong = { ...body, web_search_options: { search_context_size: 'huge' } }
    expect(() => convert(wrong, 'messages')).toThrow(InterlinguaError)
    expect(() => convert(wrong, 'messages')).toThrow(/web_search_options\.search_context_size/)
  })
})

const cited: ir.TextPart = {
  type: 'text',
  text: 'High tide is at 06:12.',
  citations: [{ type: 'url', url: 'https://tides.example/brest', title: 'Brest tides', startIndex: 0, endIndex: 9 }],
}

describe('citations as url_citation annotations', () => {
  it('JSON: offsets from the start of the message content (after earlier text)', () => {
    const response: ir.Response = {
      id: 'r',
      model: 'm',
      content: [
        { type: 'text', text: "I'll search. " },
        cited,
        { type: 'text', text: ' Bye', citations: [{ type: 'url', url: 'https://x.example' }] },
      ],
      finishReason: { unified: 'stop', raw: 'end_turn' },
    }
    const message = (encodeResponse(response).value as Json).choices[0].message
    expect(message.annotations).toEqual([
      {
        type: 'url_citation',
        url_citation: { end_index: 22, start_index: 13, title: 'Brest tides', url: 'https://tides.example/brest' },
      },
      {
        type: 'url_citation',
        url_citation: { end_index: 39, start_index: 35, title: 'https://x.example', url: 'https://x.example' },
      },
    ])
  })

  it('stream: an annotations delta after the cited text, offsets over the whole content', () => {
    const step = encodeEventsStep(chatCompletions)
    const out: string[] = []
    const events: ir.StreamEvent[] = [
      { type: 'message-start', id: 'c', model: 'm' },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: "I'll search. " },
      { type: 'text-end', index: 0 },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: cited.text },
      { type: 'text-end', index: 1, citations: cited.citations as ir.Citation[] },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' } },
    ]
    for (const event of events) step.push(event, out)
    const chunks = out
      .join('')
      .split('\n\n')
      .filter((block) => block.startsWith('data: {'))
      .map((block) => JSON.parse(block.slice(6)) as Json)
    const annotated = chunks.filter((chunk) => chunk.choices[0]?.delta.annotations)
    expect(annotated.map((chunk) => chunk.choices[0].delta.annotations)).toEqual([
      [
        {
          type: 'url_citation',
          url_citation: { end_index: 22, start_index: 13, title: 'Brest tides', url: 'https://tides.example/brest' },
        },
      ],
    ])
    expect(annotated[0]?.choices[0].finish_reason).toBeNull()
  })
})
