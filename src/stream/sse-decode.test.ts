import { createParser } from 'eventsource-parser'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { SseMessage } from './contract.js'
import { createSseDecodeStep } from './sse-decode.js'

/** The previous decoder: eventsource-parser's push parser, with a final bare CR ended as a line. */
function reference(chunks: string[]): SseMessage[] {
  const out: SseMessage[] = []
  const parser = createParser({ onEvent: (message) => out.push(message) })
  let last = ''
  for (const chunk of chunks) {
    if (chunk === '') continue
    last = chunk[chunk.length - 1] as string
    parser.feed(chunk)
  }
  if (last === '\r') parser.feed('\n')
  return out
}

function decode(chunks: string[]): SseMessage[] {
  const step = createSseDecodeStep()
  const out: SseMessage[] = []
  for (const chunk of chunks) step.push(chunk, out)
  step.end(out)
  return out
}

const token = fc.constantFrom(
  ...['data', 'data:', 'data: ', 'data:  ', 'event:', 'event: e', 'event', 'id: 7', 'id:', 'id', 'id: a\0b'],
  ...['retry: 5', 'retry: x', 'foo: bar', 'dat', 'a:b', ':', ': c', ' ', 'x', 'é', '🎉', '\uFEFF'],
  ...['\n', '\n', '\r', '\r', '\r\n', '\r\n', '\n\n', '\r\r'],
)

/** Splits a text at the given (sorted, deduplicated) cut points. */
function cut(text: string, points: number[]): string[] {
  const at = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b)
  const chunks: string[] = []
  let from = 0
  for (const p of at) {
    chunks.push(text.slice(from, p))
    from = p
  }
  chunks.push(text.slice(from))
  return chunks
}

describe('createSseDecodeStep against eventsource-parser', () => {
  it('gives the messages it gives the whole text, however the text is chunked', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 }), (tokens, points) => {
        const text = tokens.join('')
        // (eventsource-parser itself can lag on a chunk ending in CR: a blank line completed by CR, waiting for the
        // LF that may follow, stays unread when the stream ends unterminated; its unchunked answer is the reference)
        const expected = reference([text])
        expect(decode([text])).toEqual(expected)
        expect(decode(cut(text, points))).toEqual(expected)
      }),
      { seed: 11, numRuns: 3000 },
    )
  })

  it("drops eventsource-parser's BOM (the UTF-8 BOM read as three chars) at the start of the first chunk only", () => {
    const text = '\u00ef\u00bb\u00bfdata: a\n\n\u00ef\u00bb\u00bfdata: b\n\n'
    expect(decode([text])).toEqual(reference([text]))
    expect(decode([text]).map((m) => m.data)).toEqual(['a'])
  })

  it('keeps the message shape, id included, and drops an unterminated message', () => {
    expect(decode(['id: 1\nevent: e\ndata: a\ndata\n\n', 'data: b'])).toStrictEqual([
      { id: '1', event: 'e', data: 'a\n' },
    ])
  })
})
