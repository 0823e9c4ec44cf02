/**
 * Error paths through the gateway with the official SDKs on 127.0.0.1: 401, 404, 400 naming the JSON path, an
 * upstream 429 kept as 429, a mid-stream upstream failure (the client format's in-stream error, then a clean end),
 * and a client abort that aborts the upstream request.
 */
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import { type Running, serve } from './servers.js'

type Wire = 'chat-completions' | 'messages' | 'content-generation'
const wireOf = (url: URL): Wire =>
  url.pathname.endsWith('/chat/completions')
    ? 'chat-completions'
    : url.pathname.endsWith('/v1/messages')
      ? 'messages'
      : 'content-generation'

const rateLimitBodies: Record<Wire, unknown> = {
  'chat-completions': {
    error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' },
  },
  messages: {
    type: 'error',
    error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' },
  },
  'content-generation': {
    error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' },
  },
}

const firstChunk: Record<Wire, string> = {
  'chat-completions':
    'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Partial"},"finish_reason":null}]}\n\n',
  messages:
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1}}}\n\n' +
    'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Partial"}}\n\n',
  'content-generation':
    'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Partial"}]},"index":0}],"modelVersion":"m","responseId":"r1"}\n\n',
}

let gateway: Running
let upstream: Running
const upstreamAborts: string[] = []

beforeAll(async () => {
  upstream = await serve(async (request) => {
    const url = new URL(request.url)
    const wire = wireOf(url)
    const body = (await request.json()) as { model?: string }
    const model = body.model ?? url.pathname.split('/models/')[1]?.split(':')[0] ?? ''
    if (model.includes('rate-limited')) {
      return new Response(JSON.stringify(rateLimitBodies[wire]), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '7' },
      })
    }
    const encoder = new TextEncoder()
    if (model.includes('midstream')) {
      return new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(encoder.encode(firstChunk[wire]))
            setTimeout(() => controller.error(new Error('upstream connection reset')), 20)
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      )
    }
    // "slow": streams a first chunk, then waits for the gateway to abort.
    request.signal.addEventListener('abort', () => upstreamAborts.push(wire))
    return new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(encoder.encode(firstChunk[wire]))
        },
        cancel() {
          upstreamAborts.push(`${wire}:cancel`)
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    )
  })
  const handler = createGateway({
    upstreams: {
      openai: { format: 'chat-completions', baseURL: `${upstream.url}/v1`, apiKey: 'k1' },
      anthropic: { format: 'messages', baseURL: upstream.url, apiKey: 'k2' },
      gemini: { format: 'content-generation', baseURL: upstream.url, apiKey: 'k3' },
    },
    models: {
      'rate-limited-openai': { upstream: 'openai' },
      'rate-limited-anthropic': { upstream: 'anthropic' },
      'rate-limited-gemini': { upstream: 'gemini' },
      'midstream-openai': { upstream: 'openai' },
      'midstream-anthropic': { upstream: 'anthropic' },
      'midstream-gemini': { upstream: 'gemini' },
      'slow-openai': { upstream: 'openai' },
      'slow-anthropic': { upstream: 'anthropic' },
      'slow-gemini': { upstream: 'gemini' },
    },
    apiKeys: ['client-key'],
  })
  gateway = await serve(handler.fetch)
})
afterAll(async () => {
  await gateway?.close()
  await upstream?.close()
})

const openai = (apiKey = 'client-key') => new OpenAI({ apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 })
const anthropic = (apiKey = 'client-key') => new Anthropic({ apiKey, baseURL: gateway.url, maxRetries: 0 })
const gemini = (apiKey = 'client-key') => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: gateway.url } })

describe('401 in each client format', () => {
  it('openai: AuthenticationError', async () => {
    const error = await openai('wrong')
      .chat.completions.create({ model: 'slow-openai', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError)
    expect(error.message).not.toContain('wrong')
  })
  it('anthropic (Bearer): AuthenticationError with an authentication_error body', async () => {
    const error = await anthropic('wrong')
      .messages.create({ model: 'slow-anthropic', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError)
    expect(error.error?.error?.type).toBe('authentication_error')
  })
  it('x-api-key clients (older Anthropic SDKs, curl) are accepted', async () => {
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'client-key', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'rate-limited-anthropic',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    })
    expect(response.status).toBe(429) // past auth: the upstream's answer
  })
  it('gemini: ApiError 400 API_KEY_INVALID, as Gemini answers a wrong key', async () => {
    const error = await gemini('wrong')
      .models.generateContent({ model: 'slow-gemini', contents: 'hi' })
      .catch((e) => e)
    expect(error.status).toBe(400)
    const body = JSON.parse(error.message)
    expect(body.error.status).toBe('INVALID_ARGUMENT')
    expect(body.error.details[0].reason).toBe('API_KEY_INVALID')
  })
})

describe('404 for an unknown model', () => {
  it('openai: NotFoundError', async () => {
    const error = await openai()
      .chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.NotFoundError)
    expect(error.message).toContain('no-such-model')
  })
  it('anthropic: NotFoundError', async () => {
    const error = await anthropic()
      .messages.create({ model: 'no-such-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.NotFoundError)
  })
  it('gemini: 404 NOT_FOUND', async () => {
    const error = await gemini()
      .models.generateContent({ model: 'no-such-model', contents: 'hi' })
      .catch((e) => e)
    expect(error.status).toBe(404)
  })
})

describe('400 naming the JSON path of the bad field', () => {
  it('openai', async () => {
    const error = await openai()
      .chat.completions.create({
        model: 'slow-openai',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 5 as unknown as string } }] }],
      })
      .catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.BadRequestError)
    expect(error.message).toContain('messages[0].content[0].image_url.url')
  })
  it('anthropic', async () => {
    const error = await anthropic()
      .messages.create({
        model: 'slow-anthropic',
        max_tokens: 'ten' as unknown as number,
        messages: [{ role: 'user', content: 'hi' }],
      })
      .catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.BadRequestError)
    expect(error.message).toContain('max_tokens')
  })
  it('gemini', async () => {
    const error = await gemini()
      .models.generateContent({
        model: 'slow-gemini',
        contents: [{ role: 'user', parts: [{ text: 5 as unknown as string }] }],
      })
      .catch((e) => e)
    expect(error.status).toBe(400)
    expect(error.message).toContain('contents[0].parts[0].text')
  })
})

describe('an upstream 429 stays 429, re-encoded in the client format', () => {
  it('openai client, messages upstream: RateLimitError with retry-after', async () => {
    const error = await openai()
      .chat.completions.create({ model: 'rate-limited-anthropic', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.RateLimitError)
    expect(error.message).toContain('rate limit')
    expect(error.headers?.get?.('retry-after')).toBe('7')
  })
  it('anthropic client, content-generation upstream: RateLimitError', async () => {
    const error = await anthropic()
      .messages.create({ model: 'rate-limited-gemini', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.RateLimitError)
    expect(error.error?.error?.type).toBe('rate_limit_error')
  })
  it('gemini client, chat-completions upstream: 429 RESOURCE_EXHAUSTED', async () => {
    const error = await gemini()
      .models.generateContent({ model: 'rate-limited-openai', contents: 'hi' })
      .catch((e) => e)
    expect(error.status).toBe(429)
    expect(JSON.parse(error.message).error.status).toBe('RESOURCE_EXHAUSTED')
  })
})

describe('mid-stream upstream failure → in-stream error in the client format, then a clean end', () => {
  it('openai client, messages upstream', async () => {
    const stream = await openai().chat.completions.create({
      model: 'midstream-anthropic',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    })
    let text = ''
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
    })().catch((e) => e)
    expect(text).toBe('Partial')
    expect(error).toBeInstanceOf(OpenAI.APIError)
  })
  it('anthropic client, content-generation upstream', async () => {
    const error = await anthropic()
      .messages.stream({ model: 'midstream-gemini', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage()
      .catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.APIError)
  })
  it('gemini client, chat-completions upstream', async () => {
    let text = ''
    const error = await (async () => {
      for await (const chunk of await gemini().models.generateContentStream({
        model: 'midstream-openai',
        contents: 'hi',
      }))
        text += chunk.text ?? ''
    })().catch((e) => e)
    expect(text).toBe('Partial')
    expect(error?.status).toBeGreaterThanOrEqual(500)
  })
})

describe('client abort aborts the upstream request', () => {
  it.each([
    ['openai', 'slow-anthropic'],
    ['openai', 'slow-openai'],
  ])('%s client streaming %s', async (_client, model) => {
    const before = upstreamAborts.length
    const controller = new AbortController()
    const stream = await openai().chat.completions.create(
      { model, messages: [{ role: 'user', content: 'hi' }], stream: true },
      { signal: controller.signal },
    )
    const iterator = stream[Symbol.asyncIterator]()
    await iterator.next()
    controller.abort()
    await iterator.next().catch(() => {})
    const deadline = Date.now() + 3000
    while (upstreamAborts.length === before && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20))
    expect(upstreamAborts.length).toBeGreaterThan(before)
  })
})
