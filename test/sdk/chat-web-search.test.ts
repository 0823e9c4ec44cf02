/**
 * A Chat Completions client's `web_search_options` (search models' hosted web search) through translated upstreams,
 * driven by the official `openai` SDK against the gateway on 127.0.0.1 and the strict stand-ins: Anthropic gets its
 * `web_search` server tool, Gemini `googleSearch`; the answer's citations come back as the search models'
 * `url_citation` annotations, on the message (JSON) and in an annotations delta (stream). It was dropped before.
 */
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { Json } from '../gateway-helpers.js'
import { type Running, serve } from './servers.js'
import { type StrictUpstream, startStrictUpstream, strictGatewayOptions, strictModels } from './strict-upstreams.js'

const text = 'Interlingua is a gateway between LLM wire formats.'
let upstream: StrictUpstream
let gateway: Running

beforeAll(async () => {
  upstream = await startStrictUpstream({ script: [{ text }] })
  gateway = await serve(createGateway(strictGatewayOptions(upstream.url)).fetch)
})
afterAll(async () => {
  await gateway?.close()
  await upstream?.close()
})

const client = () => new OpenAI({ apiKey: 'client-key', baseURL: `${gateway.url}/v1`, maxRetries: 0 })
const webSearchOptions = {
  search_context_size: 'low' as const,
  user_location: { type: 'approximate' as const, approximate: { city: 'Brest', country: 'FR' } },
}
const citation = {
  type: 'url_citation',
  url_citation: {
    end_index: text.length,
    start_index: 0,
    title: 'Interlingua',
    url: 'https://example.com/interlingua',
  },
}

describe('web_search_options → Anthropic web_search', () => {
  it('JSON: the server tool goes upstream; the answer carries url_citation annotations', async () => {
    const { data, response } = await client()
      .chat.completions.create({
        model: strictModels.messages,
        messages: [{ role: 'user', content: 'What is interlingua?' }],
        web_search_options: webSearchOptions,
      })
      .withResponse()
    expect(upstream.rejections).toEqual([])
    expect((upstream.received.at(-1) as Json).tools).toEqual([
      {
        type: 'web_search_20250305',
        name: 'web_search',
        user_location: { type: 'approximate', city: 'Brest', country: 'FR' },
      },
    ])
    expect(response.headers.get('x-interlingua-warnings')).toMatch(/search context size/)
    expect(data.choices[0]?.message.content).toBe(text)
    expect(data.choices[0]?.message.annotations).toEqual([citation])
  })

  it('stream: the text, then an annotations delta with the same citation', async () => {
    const stream = await client().chat.completions.create({
      model: strictModels.messages,
      messages: [{ role: 'user', content: 'What is interlingua?' }],
      web_search_options: webSearchOptions,
      stream: true,
    })
    let content = ''
    const annotations: unknown[] = []
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as Json | undefined
      content += delta?.content ?? ''
      if (delta?.annotations) annotations.push(...delta.annotations)
    }
    expect(upstream.rejections).toEqual([])
    expect(content).toBe(text)
    expect(annotations).toEqual([citation])
  })
})

describe('web_search_options → Gemini googleSearch', () => {
  it('without function tools: googleSearch goes upstream', async () => {
    const answer = await client().chat.completions.create({
      model: strictModels['content-generation'],
      messages: [{ role: 'user', content: 'What is interlingua?' }],
      web_search_options: {},
    })
    expect(upstream.rejections).toEqual([])
    expect((upstream.received.at(-1) as Json).tools).toEqual([{ googleSearch: {} }])
    expect(answer.choices[0]?.message.content).toBe(text)
  })
})
