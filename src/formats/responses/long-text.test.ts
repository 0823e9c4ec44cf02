/**
 * A long text's done events (long-text.ts): written in pieces that share the deltas' strings — no written string holds
 * the whole text, as the four done events each did — and still byte-for-byte the JSON a client parses, with the text
 * exact (quotes, line breaks, control characters, a surrogate pair split between two deltas).
 */
import { describe, expect, it } from 'vitest'
import type * as ir from '../../ir/index.js'
import { encodeEventsStep } from '../../stream/pipeline.js'
import { takeJoined } from '../../stream/step.js'
import { responses } from './index.js'
import { LONG_TEXT } from './long-text.js'

// biome-ignore lint/suspicious/noExplicitAny: wire events are navigated freely in assertions
type Json = Record<string, any>

/** Deltas of a text past LONG_TEXT with characters JSON escapes, and an emoji split between two deltas. */
function longDeltas(): string[] {
  const plain = 'abcdefghijklmnop'.repeat(1024)
  const escaped = 'line "one"\n\tback\\slash \u0001 é '.repeat(512)
  const deltas: string[] = []
  for (let length = 0; length <= LONG_TEXT; ) {
    const delta = deltas.length % 2 === 0 ? plain : escaped
    deltas.push(delta)
    length += delta.length
  }
  const emoji = '😀'
  deltas.push(`tail ${emoji[0]}`, `${emoji[1]} end`)
  return deltas
}

function events(deltas: string[], citations?: ir.Citation[]): ir.StreamEvent[] {
  const end: ir.StreamEvent = { type: 'text-end', index: 0 }
  if (citations) end.citations = citations
  return [
    { type: 'message-start', id: 'r1', model: 'm' },
    { type: 'text-start', index: 0 },
    ...deltas.map((text): ir.StreamEvent => ({ type: 'text-delta', index: 0, text })),
    end,
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: 1, outputTokens: 2 } },
  ]
}

/** The strings the encoder writes (as a writer takes them) and the events they parse to. */
function encode(input: ir.StreamEvent[], onResponse?: (response: Json) => void) {
  const step = encodeEventsStep(responses, onResponse ? { onResponse } : {})
  const texts: string[] = []
  for (const event of input) step.push(event, texts)
  step.end(texts)
  const written: string[] = []
  while (texts.length > 0) written.push(takeJoined(texts))
  const parsed = written
    .join('')
    .split('\n\n')
    .filter((block) => block.includes('data: {'))
    .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Json)
  return { written, parsed }
}

describe('a long text in the Responses done events', () => {
  const deltas = longDeltas()
  const text = deltas.join('')

  it('is written in pieces (no written string holds the whole text) and parses to the exact text four times', () => {
    let stored: Json | undefined
    const { written, parsed } = encode(events(deltas), (response) => {
      stored = response
    })
    expect(Math.max(...written.map((string) => string.length))).toBeLessThan(text.length)
    expect(written.join('')).not.toContain('@@il-text')
    const byType = new Map(parsed.map((event) => [event.type, event]))
    expect(byType.get('response.output_text.done')?.text).toBe(text)
    expect(byType.get('response.content_part.done')?.part.text).toBe(text)
    expect(byType.get('response.output_item.done')?.item.content[0].text).toBe(text)
    expect(byType.get('response.completed')?.response.output[0].content[0].text).toBe(text)
    // The deltas still carry it once, in order.
    const streamed = parsed.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta)
    expect(streamed.join('')).toBe(text)
    // The response handed to the store holds the text itself.
    expect(stored?.output[0].content[0].text).toBe(text)
    expect(stored?.id).toBe(byType.get('response.completed')?.response.id)
  })

  it('a citation without an end ends at the end of the text', () => {
    const { parsed } = encode(
      events(deltas, [{ type: 'url', url: 'https://example.com/a', title: 'A', startIndex: 3 }]),
    )
    const done = parsed.find((event) => event.type === 'response.output_item.done')
    expect(done?.item.content[0].annotations).toEqual([
      { type: 'url_citation', start_index: 3, end_index: text.length, title: 'A', url: 'https://example.com/a' },
    ])
  })

  it('a short text is written as before: one string per push, no pieces', () => {
    let stored: Json | undefined
    const { written, parsed } = encode(events(['Hello', ' "world"']), (response) => {
      stored = response
    })
    const done = parsed.find((event) => event.type === 'response.output_text.done')
    expect(done?.text).toBe('Hello "world"')
    expect(written.length).toBe(1)
    expect(stored?.output[0].content[0].text).toBe('Hello "world"')
  })

  it('an upstream text that looks like a marker is kept as text', () => {
    const { parsed } = encode(events([...deltas, '"@@il-text:x:0@@"']))
    expect(parsed.find((event) => event.type === 'response.output_text.done')?.text).toBe(`${text}"@@il-text:x:0@@"`)
  })
})
