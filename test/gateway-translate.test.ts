/** translateRequest / translateResponse at the Fetch level (issue 3): Request A → upstream Request B, upstream Response A → client Response B. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { translateRequest } from '../src/gateway/translate-request.js'
import { translateResponse } from '../src/http/translate-response.js'
import { type Json, parseSse } from './gateway-helpers.js'

const fixture = (path: string) => readFileSync(new URL(`./fixtures/${path}`, import.meta.url), 'utf8')

const messagesRequest = (body: unknown) =>
  new Request('http://gw/v1/messages', {
    method: 'POST',
    headers: {
      authorization: 'Bearer client-secret',
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  })

describe('translateRequest', () => {
  const body = {
    model: 'claude-x',
    max_tokens: 100,
    system: 'Be brief.',
    messages: [{ role: 'user', content: 'Hi' }],
    stream: true,
  }

  it('messages → content-generation: URL, upstream key, body; the client key stays behind', async () => {
    const request = await translateRequest(messagesRequest(body), {
      from: 'messages',
      to: 'content-generation',
      model: 'gemini-2.5-flash',
      upstream: { baseURL: 'https://generativelanguage.googleapis.com', apiKey: 'g-key' },
    })
    expect(request.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    )
    expect(request.method).toBe('POST')
    expect(request.headers.get('x-goog-api-key')).toBe('g-key')
    expect(request.headers.get('authorization')).toBeNull()
    const sent = (await request.json()) as Json
    expect(sent.contents).toEqual([{ role: 'user', parts: [{ text: 'Hi' }] }])
    expect(sent.systemInstruction).toMatchObject({ parts: [{ text: 'Be brief.' }] })
    expect(sent.generationConfig).toMatchObject({ maxOutputTokens: 100 })
  })

  it('same format: the body is forwarded with only the model rewritten', async () => {
    const withVendorField = { ...body, future_field: { a: [1, 2] } }
    const request = await translateRequest(messagesRequest(withVendorField), {
      from: 'messages',
      to: 'messages',
      model: 'claude-upstream',
      upstream: { baseURL: 'https://api.anthropic.com', apiKey: 'a-key' },
    })
    expect(request.url).toBe('https://api.anthropic.com/v1/messages')
    expect(request.headers.get('x-api-key')).toBe('a-key')
    expect(await request.json()).toEqual({ ...withVendorField, model: 'claude-upstream' })
  })

  it('invalid fields throw InterlinguaError naming the path; invalid JSON too', async () => {
    const bad = translateRequest(messagesRequest({ ...body, max_tokens: 'x' }), {
      from: 'messages',
      to: 'content-generation',
      upstream: { baseURL: 'http://u' },
    })
    await expect(bad).rejects.toMatchObject({ code: 'invalid-request', param: 'max_tokens' })
    const notJson = new Request('http://gw/v1/messages', { method: 'POST', body: '{' })
    await expect(
      translateRequest(notJson, { from: 'messages', to: 'messages', upstream: { baseURL: 'http://u' } }),
    ).rejects.toMatchObject({
      code: 'invalid-request',
      message: 'the request body is not valid JSON',
    })
  })
})

describe('translateResponse', () => {
  it('content-generation JSON → messages JSON, with fixed headers', async () => {
    const upstream = new Response(fixture('content-generation/text.response.json'), {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-length': '999',
        'content-encoding': 'gzip',
      },
    })
    const response = await translateResponse(upstream, {
      from: 'content-generation',
      to: 'messages',
      model: 'public-model',
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.get('content-length')).toBeNull()
    expect(response.headers.get('content-encoding')).toBeNull()
    const json = (await response.json()) as Json
    expect(json).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'public-model',
      content: [{ type: 'text', text: 'Hello!' }],
      stop_reason: 'end_turn',
    })
  })

  it('messages SSE → a non-streaming content-generation client: accumulated', async () => {
    const upstream = new Response(fixture('messages/text.sse'), { headers: { 'content-type': 'text/event-stream' } })
    const response = await translateResponse(upstream, { from: 'messages', to: 'content-generation', stream: false })
    const json = (await response.json()) as Json
    expect(json.candidates[0].content.parts.map((p: Json) => p.text).join('')).toBe(
      'Hello! Café ☕ — 日本語 and emoji 🎉. How can I help?',
    )
    expect(json.candidates[0].finishReason).toBe('STOP')
  })

  it('content-generation JSON → a streaming messages client: replayed as SSE', async () => {
    const upstream = new Response(fixture('content-generation/text.response.json'), {
      headers: { 'content-type': 'application/json' },
    })
    const response = await translateResponse(upstream, { from: 'content-generation', to: 'messages', stream: true })
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const events = parseSse(await response.text()).map((e) => e.event)
    expect(events[0]).toBe('message_start')
    expect(events.at(-1)).toBe('message_stop')
    expect(events).toContain('content_block_delta')
  })

  it('an upstream error keeps its status and retry-after, re-encoded', async () => {
    const upstream = new Response(
      JSON.stringify((JSON.parse(fixture('content-generation/rate-limit.error.json')) as Json).body),
      {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '12' },
      },
    )
    const response = await translateResponse(upstream, { from: 'content-generation', to: 'messages' })
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toBe('12')
    expect(((await response.json()) as Json).error.type).toBe('rate_limit_error')
  })

  it('same format: bytes untouched', async () => {
    const sse = fixture('messages/text.sse')
    const response = await translateResponse(new Response(sse, { headers: { 'content-type': 'text/event-stream' } }), {
      from: 'messages',
      to: 'messages',
    })
    expect(await response.text()).toBe(sse)
  })

  it('an invalid upstream body is a 502 in the client format', async () => {
    const response = await translateResponse(Response.json({ candidates: 'nope' }), {
      from: 'content-generation',
      to: 'messages',
    })
    expect(response.status).toBe(502)
    expect(((await response.json()) as Json).error.type).toBe('api_error')
  })
})
