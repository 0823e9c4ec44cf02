/**
 * A replayed `web_search_call` input item (a client sends back the search it was shown): no other format can replay
 * the search itself (Anthropic's result blocks need its encrypted content, which the item never has), so what was
 * searched stays in the assistant turn as context text, with a `changed` warning — it was left out before.
 */
import { describe, expect, it } from 'vitest'
import { convertRequest } from '../../convert.js'
import type * as ir from '../../ir/index.js'

// biome-ignore lint/suspicious/noExplicitAny: wire bodies are navigated freely in assertions
type Json = Record<string, any>

const search = {
  id: 'ws_1',
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
const body = {
  model: 'm',
  input: [
    { role: 'user', content: 'Tides in Brest?' },
    search,
    {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'High tide is at 06:12.', annotations: [] }],
    },
    { id: 'ws_2', type: 'web_search_call', status: 'failed', action: { type: 'open_page', url: 'https://x.example' } },
    { role: 'user', content: 'And tomorrow?' },
  ],
}
const searched = '[web search: "tides brest" — sources: https://tides.example/brest, https://sea.example]'

function convert(to: ir.FormatId, strict = false) {
  const warnings: ir.Warning[] = []
  const value = convertRequest(body, { from: 'responses', to, strict, onWarning: (w) => warnings.push(w) }) as Json
  return { value, warnings }
}

describe('a replayed web_search_call', () => {
  it('→ messages: the search as context text at the start of the assistant turn, with a changed warning', () => {
    const { value, warnings } = convert('messages')
    expect(value.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: searched },
        { type: 'text', text: 'High tide is at 06:12.' },
        { type: 'text', text: '[web page opened: https://x.example (failed)]' },
      ],
    })
    expect(warnings.filter((w) => w.type === 'changed').map((w) => w.path)).toEqual(['input[1]', 'input[3]'])
  })

  it('→ content-generation and chat-completions: the same text in the model / assistant turn', () => {
    const gemini = convert('content-generation').value
    expect(gemini.contents[1].parts[0]).toEqual({ text: searched })
    const chat = convert('chat-completions').value
    expect(chat.messages[1].content[0]).toEqual({ type: 'text', text: searched })
  })

  it('under strict it is refused with the item path', () => {
    expect(() => convert('messages', true)).toThrow(/input\[1\]/)
  })
})
