/**
 * Callers with the official SDKs on 127.0.0.1 (issue 14): a model outside the caller's allow-list surfaces as each
 * SDK's permission error, a rate-limited caller as its rate-limit error with `retry-after`, listings show only the
 * allowed models, and `onResponse` names the caller with the usage of a passthrough stream.
 */
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refuse } from '../../src/gateway/create-gateway.js'
import type { GatewayResponseEvent } from '../../src/gateway/options.js'
import { type Running, startStack, upstreamModels } from './servers.js'

let gateway: Running
let upstream: Running
const events: GatewayResponseEvent[] = []

beforeAll(async () => {
  const started = await startStack({
    apiKeys: [],
    authenticate: (key) => {
      if (key === 'limited-key') return refuse('rate-limit', { retryAfter: 42 })
      if (key === 'team-key')
        return { id: 'team', models: [upstreamModels.messages, upstreamModels['chat-completions']] }
      return false
    },
    onResponse: (event) => events.push(event),
  })
  gateway = started.gateway
  upstream = started.upstream
})
afterAll(async () => {
  await gateway?.close()
  await upstream?.close()
})

const openai = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 })
const anthropic = (apiKey: string) => new Anthropic({ apiKey, baseURL: gateway.url, maxRetries: 0 })
const gemini = (apiKey: string) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: gateway.url } })
const forbiddenModel = upstreamModels['content-generation']

describe('openai', () => {
  it('a model outside the allow-list: PermissionDeniedError (chat completions and responses)', async () => {
    const chat = await openai('team-key')
      .chat.completions.create({ model: forbiddenModel, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e)
    expect(chat).toBeInstanceOf(OpenAI.PermissionDeniedError)
    expect(chat.code).toBe('model_not_found')
    expect(chat.message).toContain(forbiddenModel)
    const responses = await openai('team-key')
      .responses.create({ model: forbiddenModel, input: 'hi' })
      .catch((e) => e)
    expect(responses).toBeInstanceOf(OpenAI.PermissionDeniedError)
  })
  it('a rate-limited caller: RateLimitError with retry-after', async () => {
    const error = await openai('limited-key')
      .chat.completions.create({ model: forbiddenModel, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.RateLimitError)
    expect(error.headers.get('retry-after')).toBe('42')
    expect(error.code).toBe('rate_limit_exceeded')
  })
  it('models.list shows the allowed models only', async () => {
    const ids: string[] = []
    for await (const model of openai('team-key').models.list()) ids.push(model.id)
    expect(ids).toEqual([upstreamModels['chat-completions'], upstreamModels.messages])
  })
  it('a passthrough stream: onResponse has the caller and the usage', async () => {
    events.length = 0
    const stream = await openai('team-key').chat.completions.create({
      model: upstreamModels['chat-completions'],
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    })
    for await (const _chunk of stream) {
      // drain
    }
    await expect.poll(() => events.length).toBe(1)
    expect(events[0]).toMatchObject({ caller: { id: 'team' }, upstream: 'openai', stream: true, status: 200 })
    expect(events[0]?.usage?.outputTokens).toBeGreaterThan(0)
  })
})

describe('anthropic', () => {
  it('a model outside the allow-list: PermissionDeniedError (permission_error)', async () => {
    const error = await anthropic('team-key')
      .messages.create({ model: forbiddenModel, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError)
    expect(error.error?.error?.type).toBe('permission_error')
  })
  it('a rate-limited caller: RateLimitError (rate_limit_error) with retry-after', async () => {
    const error = await anthropic('limited-key')
      .messages.create({ model: forbiddenModel, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.RateLimitError)
    expect(error.error?.error?.type).toBe('rate_limit_error')
    expect(error.headers.get('retry-after')).toBe('42')
  })
  it('a passthrough stream: onResponse has the caller and the usage', async () => {
    events.length = 0
    const stream = anthropic('team-key').messages.stream({
      model: upstreamModels.messages,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    })
    const final = await stream.finalMessage()
    await expect.poll(() => events.length).toBe(1)
    expect(events[0]).toMatchObject({ caller: { id: 'team' }, upstream: 'anthropic', stream: true })
    expect(events[0]?.usage?.outputTokens).toBe(final.usage.output_tokens)
  })
})

describe('gemini', () => {
  it('a model outside the allow-list: ApiError 403 PERMISSION_DENIED', async () => {
    const error = await gemini('team-key')
      .models.generateContent({ model: forbiddenModel, contents: 'hi' })
      .catch((e) => e)
    expect(error.status).toBe(403)
    expect(JSON.parse(error.message).error.status).toBe('PERMISSION_DENIED')
  })
  it('a rate-limited caller: ApiError 429 RESOURCE_EXHAUSTED with its RetryInfo', async () => {
    const error = await gemini('limited-key')
      .models.generateContent({ model: forbiddenModel, contents: 'hi' })
      .catch((e) => e)
    expect(error.status).toBe(429)
    const body = JSON.parse(error.message).error
    expect(body.status).toBe('RESOURCE_EXHAUSTED')
    expect(body.details[0].retryDelay).toBe('42s')
  })
})
