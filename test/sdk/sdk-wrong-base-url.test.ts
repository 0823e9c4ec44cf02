/**
 * An upstream configured with a wrong `baseURL`: the server there answers 404 with an HTML page (nginx, a framework's
 * default route). Every supported API answers its own 404s in JSON, so this is the gateway's configuration, not a
 * missing model: each official SDK gets its format's 502 (server error), whose message names the upstream and the
 * URL path it was sent to — never the query, never the upstream's key — passthrough and translated alike.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { GatewayResponseEvent } from '../../src/gateway/options.js'
import { type Running, serve } from './servers.js'

let upstream: Server
let gateway: Running
const paths: string[] = []
const events: GatewayResponseEvent[] = []
const page = '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>nginx</body></html>'

beforeAll(async () => {
  upstream = createServer((req, res) => {
    paths.push(req.url ?? '')
    req.resume()
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' })
    res.end(page)
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/wrong`
  const handler = createGateway({
    upstreams: {
      openai: { format: 'chat-completions', baseURL: base, apiKey: 'sk-upstream-secret-1234567890' },
      anthropic: { format: 'messages', baseURL: base, apiKey: 'upstream-anthropic-secret' },
      gemini: { format: 'content-generation', baseURL: base, apiKey: 'AIzaUpstreamGeminiSecret0123456789' },
      codex: { format: 'responses', baseURL: base, apiKey: 'upstream-responses-secret' },
    },
    models: {
      'via-openai': { upstream: 'openai', model: 'm' },
      'via-anthropic': { upstream: 'anthropic', model: 'm' },
      'via-gemini': { upstream: 'gemini', model: 'm' },
      'via-codex': { upstream: 'codex', model: 'm' },
    },
    apiKeys: ['client-key'],
    onResponse: (event) => events.push(event),
  })
  gateway = await serve(handler.fetch)
})
afterAll(async () => {
  await gateway?.close()
  upstream?.closeAllConnections()
  await new Promise((resolve) => upstream?.close(resolve))
})

const secrets = /secret|sk-upstream|AIzaUpstream|\?|<html|127\.0\.0\.1/i
/** The message each SDK surfaces: the upstream, the HTTP 404, the path — nothing else. */
function expectMessage(message: string, upstreamName: string, path: string): void {
  expect(message).toContain(`The upstream "${upstreamName}" answered HTTP 404 with a text/html body for POST ${path}`)
  expect(message).toContain('baseURL')
  expect(message).not.toMatch(secrets)
}

const client = () => new OpenAI({ apiKey: 'client-key', baseURL: `${gateway.url}/v1`, maxRetries: 0 })

describe('openai', () => {
  it.each([
    ['via-openai', 'openai', '/wrong/chat/completions'],
    ['via-anthropic', 'anthropic', '/wrong/v1/messages'],
  ])('chat completions from %s: InternalServerError 502, server_error', async (model, name, path) => {
    const error = await client()
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.InternalServerError)
    expect(error.status).toBe(502)
    expect(error.type).toBe('server_error')
    expect(error.code).toBeNull()
    expectMessage(error.message, name, path)
  })

  it.each([
    ['via-codex', 'codex', '/wrong/responses'],
    ['via-gemini', 'gemini', '/wrong/v1beta/models/m:generateContent'],
  ])('responses from %s: InternalServerError 502', async (model, name, path) => {
    const error = await client()
      .responses.create({ model, input: 'hi' })
      .catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.InternalServerError)
    expect(error.status).toBe(502)
    expectMessage(error.message, name, path)
  })

  it('a streamed request fails before the first byte the same way', async () => {
    const error = await client()
      .chat.completions.create({ model: 'via-openai', stream: true, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.InternalServerError)
    expectMessage(error.message, 'openai', '/wrong/chat/completions')
  })
})

describe('anthropic', () => {
  it.each([
    ['via-anthropic', 'anthropic', '/wrong/v1/messages'],
    ['via-openai', 'openai', '/wrong/chat/completions'],
  ])('messages from %s: InternalServerError 502, api_error', async (model, name, path) => {
    const error = await new Anthropic({ apiKey: 'client-key', baseURL: gateway.url, maxRetries: 0 }).messages
      .create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(Anthropic.InternalServerError)
    expect(error.status).toBe(502)
    expect(error.error?.error?.type).toBe('api_error')
    expectMessage(error.error.error.message, name, path)
  })
})

describe('gemini', () => {
  it.each([
    ['via-gemini', 'gemini', '/wrong/v1beta/models/m:generateContent'],
    ['via-codex', 'codex', '/wrong/responses'],
  ])('generateContent from %s: ApiError 502 UNAVAILABLE', async (model, name, path) => {
    const ai = new GoogleGenAI({ apiKey: 'client-key', httpOptions: { baseUrl: gateway.url } })
    const error = await ai.models.generateContent({ model, contents: 'hi' }).catch((e) => e)
    expect(error.status).toBe(502)
    const body = JSON.parse(error.message.slice(error.message.indexOf('{')))
    expect(body.error).toMatchObject({ code: 502, status: 'UNAVAILABLE' })
    expectMessage(body.error.message, name, path)
  })
})

describe('onResponse', () => {
  it('reports the upstream error, and the upstream was called at the path named', () => {
    expect(events.length).toBeGreaterThan(0)
    for (const event of events) expect(event).toMatchObject({ status: 502, error: 'upstream' })
    expect(paths).toContain('/wrong/v1beta/models/m:generateContent')
    expect(paths).toContain('/wrong/chat/completions')
  })
})
