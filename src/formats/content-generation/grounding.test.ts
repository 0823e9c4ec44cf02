/**
 * Gemini's Google Search grounding to a Responses client (issue 21 item 1): the search as a `web_search_call` item,
 * the supported segments as `url_citation` annotations (JSON with offsets; stream per text block), and a Gemini client
 * gets the metadata back as sent.
 */
import { describe, expect, it } from 'vitest'
import { convertResponse } from '../../convert.js'
import { convertStream } from '../../convert-stream.js'
import { decodeResponse } from './decode-response.js'
import { encodeResponse } from './encode-response.js'

// biome-ignore lint/suspicious/noExplicitAny: wire bodies are navigated freely in assertions
type Json = Record<string, any>

const text = 'High tide in Brest is at 06:12. Low tide follows.'
const groundingMetadata = {
  webSearchQueries: ['tides brest today'],
  groundingChunks: [
    { web: { uri: 'https://vertexaisearch.example/r/1', title: 'tides.example' } },
    { web: { uri: 'https://vertexaisearch.example/r/2', title: 'sea.example' } },
  ],
  groundingSupports: [
    {
      segment: { startIndex: 0, endIndex: 31, text: 'High tide in Brest is at 06:12.' },
      groundingChunkIndices: [0, 1],
    },
  ],
  searchEntryPoint: { renderedContent: '<div></div>' },
}
const answer = {
  candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', groundingMetadata }],
  usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 9, totalTokenCount: 14 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'r1',
}
const search = {
  type: 'web_search_call',
  status: 'completed',
  action: {
    type: 'search',
    query: 'tides brest today',
    sources: [
      { type: 'url', url: 'https://vertexaisearch.example/r/1' },
      { type: 'url', url: 'https://vertexaisearch.example/r/2' },
    ],
  },
}

describe('Gemini grounding → a Responses client', () => {
  it('JSON: the search item first, then the text with one annotation per supporting page', () => {
    const body = convertResponse(answer, { from: 'content-generation', to: 'responses' }) as Json
    expect(body.output.map((item: Json) => item.type)).toEqual(['web_search_call', 'message'])
    expect(body.output[0]).toMatchObject(search)
    expect(body.output[1].content[0].annotations).toEqual([
      {
        type: 'url_citation',
        start_index: 0,
        end_index: 31,
        title: 'tides.example',
        url: 'https://vertexaisearch.example/r/1',
      },
      {
        type: 'url_citation',
        start_index: 0,
        end_index: 31,
        title: 'sea.example',
        url: 'https://vertexaisearch.example/r/2',
      },
    ])
  })

  it('stream: the search item, and the pages as annotations of the text block', async () => {
    const chunks = [
      { candidates: [{ content: { role: 'model', parts: [{ text: text.slice(0, 20) }] } }], responseId: 'r1' },
      {
        candidates: [
          { content: { role: 'model', parts: [{ text: text.slice(20) }] }, finishReason: 'STOP', groundingMetadata },
        ],
        usageMetadata: answer.usageMetadata,
      },
    ]
    const sse = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('')
    const out = await new Response(
      convertStream(new Response(sse).body as ReadableStream<Uint8Array>, {
        from: 'content-generation',
        to: 'responses',
      }),
    ).text()
    const events = out
      .split('\n\n')
      .filter((block) => block.includes('data: {'))
      .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Json)
    const completed = events.at(-1) as Json
    expect(completed.type).toBe('response.completed')
    const output = completed.response.output as Json[]
    expect(output.find((item) => item.type === 'web_search_call')).toMatchObject(search)
    const message = output.find((item) => item.type === 'message') as Json
    expect(message.content[0].text).toBe(text)
    expect(message.content[0].annotations.map((a: Json) => [a.url, a.start_index, a.end_index])).toEqual([
      ['https://vertexaisearch.example/r/1', 0, text.length],
      ['https://vertexaisearch.example/r/2', 0, text.length],
    ])
    expect(events.filter((e) => e.type === 'response.output_text.annotation.added')).toHaveLength(2)
  })

  it('through the IR, a Gemini client gets the candidate back as sent (the search part adds nothing, no warning)', () => {
    const decoded = decodeResponse(answer)
    expect(decoded.value.content.map((part) => part.type)).toEqual(['web-search', 'text'])
    const encoded = encodeResponse(decoded.value)
    expect(encoded.warnings).toEqual([])
    const body = encoded.value as Json
    expect(body.candidates[0].groundingMetadata).toEqual(groundingMetadata)
    expect(body.candidates[0].content.parts).toEqual([{ text }])
  })
})
