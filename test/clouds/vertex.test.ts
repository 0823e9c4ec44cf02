/**
 * Google Vertex AI as an upstream (issue 23 §2): the gateway's upstream request matches what `@anthropic-ai/vertex-sdk`
 * (Claude) and `@google/genai` with `vertexai: true` (Gemini) send for the same input — method, path, auth scheme,
 * body — against a strict stand-in; the service-account flow (a JWT verified with the key's public key before a token
 * is issued; tokens cached, refreshed once at a time, and replaced when the stand-in expires them mid-test); then the
 * four client formats × Gemini and Claude, JSON and stream, tools, and the cloud's errors in the client's format.
 */
import Anthropic from '@anthropic-ai/sdk'
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk'
import { GoogleGenAI } from '@google/genai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { UpstreamOptions } from '../../src/gateway/options.js'
import type { FormatId } from '../../src/ir/index.js'
import type { VertexReceived, VertexStandIn } from '../../src/node/testing/clouds/vertex.js'
import { formatIds, type Json } from '../gateway-helpers.js'
import { type Running, serve } from '../sdk/servers.js'
import { expectTextAndTools, matrixCells, sendWire } from './matrix.js'
import { startMockVertex } from './mock-backend.js'

let vertex: VertexStandIn
beforeAll(async () => {
  vertex = await startMockVertex()
})
afterAll(() => vertex.close())

const last = (): VertexReceived => vertex.received.at(-1) as VertexReceived
const scheme = (received: VertexReceived) =>
  received.headers['x-goog-api-key'] !== undefined ? 'x-goog-api-key' : received.headers.authorization?.split(' ')[0]
const claude = 'claude-sonnet-4-5@20250929'
const gemini = 'gemini-2.5-flash'

/** A google-auth-library `AuthClient` stand-in for the SDKs: a fixed token from the stand-in. */
function authClient(token: string) {
  return {
    projectId: vertex.project,
    getRequestHeaders: async () => new Headers({ authorization: `Bearer ${token}` }),
    getAccessToken: async () => ({ token }),
  }
}

function vertexUpstream(format: 'messages' | 'content-generation', extra: Partial<UpstreamOptions> = {}) {
  return {
    format,
    provider: 'vertex' as const,
    project: vertex.project,
    location: vertex.location,
    baseURL: vertex.url,
    auth: { serviceAccount: vertex.serviceAccount },
    ...extra,
  }
}

async function gatewayFor(upstream: UpstreamOptions): Promise<Running> {
  return serve(createGateway({ upstreams: { vertex: upstream } }).fetch)
}

describe('differential: the official Vertex clients give the reference request', () => {
  it.each([false, true])('Claude (stream: %s): AnthropicVertex → rawPredict / streamRawPredict', async (stream) => {
    const reference = new AnthropicVertex({
      region: vertex.location,
      projectId: vertex.project,
      baseURL: `${vertex.url}/v1`,
      authClient: authClient(vertex.issueToken()) as never,
    })
    const input = { model: claude, max_tokens: 256, messages: [{ role: 'user' as const, content: 'Say hello' }] }
    if (stream) await (await reference.messages.create({ ...input, stream: true })).toReadableStream().cancel()
    else await reference.messages.create(input)
    const expected = last()
    const served = await gatewayFor(vertexUpstream('messages'))
    const client = new Anthropic({ baseURL: served.url, apiKey: 'client-secret-key' })
    if (stream) {
      let text = ''
      for await (const event of await client.messages.create({ ...input, stream: true }))
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text
      expect(text).toContain('Say hello')
    } else expect(JSON.stringify((await client.messages.create(input)).content)).toContain('Say hello')
    await served.close()
    const got = last()
    const method = stream ? 'streamRawPredict' : 'rawPredict'
    expect(got.path).toBe(
      `/v1/projects/${vertex.project}/locations/${vertex.location}/publishers/anthropic/models/${claude}:${method}`,
    )
    expect([got.method, got.path, scheme(got)]).toEqual([expected.method, expected.path, scheme(expected)])
    // The same body, `anthropic_version` included: the SDK copies its `anthropic-version` header there (not the
    // `vertex-2023-10-16` of Vertex's older documentation), and so does the gateway.
    expect(got.body).toEqual(expected.body)
    expect(got.body.anthropic_version).toBe(expected.body.anthropic_version)
    expect(JSON.stringify(got.headers)).not.toContain('client-secret-key')
  })

  it.each([false, true])('Gemini (stream: %s): @google/genai with vertexai: true', async (stream) => {
    // The SDK's default API version is v1beta1, the gateway's v1: the streaming case sets both to v1beta1.
    const apiVersion = stream ? 'v1beta1' : 'v1'
    const reference = new GoogleGenAI({
      vertexai: true,
      project: vertex.project,
      location: vertex.location,
      httpOptions: { baseUrl: vertex.url, ...(stream ? {} : { apiVersion }) },
      googleAuthOptions: { authClient: authClient(vertex.issueToken()) as never },
    })
    const input = { model: gemini, contents: 'Say hello', config: { temperature: 0.5 } }
    if (stream) for await (const _ of await reference.models.generateContentStream(input));
    else await reference.models.generateContent(input)
    const expected = last()
    const served = await gatewayFor(vertexUpstream('content-generation', stream ? { apiVersion } : {}))
    const client = new GoogleGenAI({ apiKey: 'client-secret-key', httpOptions: { baseUrl: served.url } })
    let text = ''
    if (stream) for await (const chunk of await client.models.generateContentStream(input)) text += chunk.text ?? ''
    else text = (await client.models.generateContent(input)).text ?? ''
    await served.close()
    expect(text).toContain('Say hello')
    const got = last()
    const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
    expect(got.path).toBe(
      `/${apiVersion}/projects/${vertex.project}/locations/${vertex.location}/publishers/google/models/${gemini}:${method}`,
    )
    expect([got.method, got.path, scheme(got)]).toEqual([expected.method, expected.path, scheme(expected)])
    expect(got.body).toEqual(expected.body)
  })

  it('Gemini in express mode: an API key, no project', async () => {
    const reference = new GoogleGenAI({
      vertexai: true,
      apiKey: vertex.expressKey,
      httpOptions: { baseUrl: vertex.url, apiVersion: 'v1' },
    })
    await reference.models.generateContent({ model: gemini, contents: 'Say hello' })
    const expected = last()
    const served = await gatewayFor({
      format: 'content-generation',
      provider: 'vertex',
      baseURL: vertex.url,
      apiKey: vertex.expressKey,
    })
    const client = new GoogleGenAI({ apiKey: 'client-secret-key', httpOptions: { baseUrl: served.url } })
    expect((await client.models.generateContent({ model: gemini, contents: 'Say hello' })).text).toContain('Say hello')
    await served.close()
    const got = last()
    expect([got.method, got.path, scheme(got)]).toEqual([expected.method, expected.path, 'x-goog-api-key'])
    expect(got.path).toBe(`/v1/publishers/google/models/${gemini}:generateContent`)
    expect(got.headers['x-goog-api-key']).toBe(vertex.expressKey)
    expect(got.body).toEqual(expected.body)
  })
})

describe('token counting', () => {
  it('Claude: one count-tokens:rawPredict endpoint, the model in the body; Gemini: :countTokens', async () => {
    const served = await gatewayFor(vertexUpstream('messages'))
    const anthropic = new Anthropic({ baseURL: served.url, apiKey: 'k', maxRetries: 0 })
    const counted = await anthropic.messages.countTokens({
      model: claude,
      messages: [{ role: 'user', content: 'Say hello' }],
    })
    await served.close()
    expect(counted.input_tokens).toBeGreaterThan(0)
    expect(last().path).toBe(
      `/v1/projects/${vertex.project}/locations/${vertex.location}/publishers/anthropic/models/count-tokens:rawPredict`,
    )
    expect(last().body).toMatchObject({ model: claude, anthropic_version: '2026-10-21' })
    const geminiServed = await gatewayFor(vertexUpstream('content-generation'))
    const google = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: geminiServed.url } })
    const total = await google.models.countTokens({ model: gemini, contents: 'Say hello' })
    await geminiServed.close()
    expect(total.totalTokens).toBeGreaterThan(0)
    expect(last().path).toContain(`/publishers/google/models/${gemini}:countTokens`)
  })
})

describe('service-account tokens', () => {
  it('one token fetch for concurrent calls, reused, and replaced once when the cloud expires it mid-test', async () => {
    const isolated = await startMockVertex({ project: 'other-project', location: 'global' })
    const served = await gatewayFor({
      format: 'messages',
      provider: 'vertex',
      project: 'other-project',
      location: 'global',
      baseURL: isolated.url,
      auth: { serviceAccount: isolated.serviceAccount },
    })
    const client = new Anthropic({ baseURL: served.url, apiKey: 'k', maxRetries: 0 })
    const ask = () =>
      client.messages.create({ model: claude, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }] })
    await Promise.all([ask(), ask(), ask()])
    expect(isolated.tokenRequests).toBe(1)
    await ask()
    expect(isolated.tokenRequests).toBe(1)
    isolated.expireTokens()
    const answer = await ask()
    expect(JSON.stringify(answer.content)).toContain('Say hello')
    expect(isolated.tokenRequests).toBe(2)
    expect(isolated.tokenRefusals).toEqual([])
    // The global location: no region in the path's host part, `global` in the path.
    expect(isolated.received.at(-1)?.path).toContain('/projects/other-project/locations/global/publishers/anthropic/')
    await served.close()
    await isolated.close()
  })

  it('a key the token endpoint refuses (another key pair) → 401 in the client format, nothing secret echoed', async () => {
    const other = await startMockVertex()
    const served = await gatewayFor(
      vertexUpstream('content-generation', {
        auth: { serviceAccount: { ...vertex.serviceAccount, private_key: other.serviceAccount.private_key } },
      }),
    )
    await other.close()
    const response = await sendWire(served.url, 'messages', gemini)
    await served.close()
    expect(response.status).toBe(401)
    const text = await response.text()
    expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'authentication_error' } })
    expect(text).not.toContain('PRIVATE KEY')
    expect(vertex.tokenRefusals.at(-1)).toBe('invalid signature')
  })

  it('an access-token function is called per request and sent as Bearer', async () => {
    let calls = 0
    const served = await gatewayFor(
      vertexUpstream('content-generation', {
        auth: async () => {
          calls++
          return vertex.issueToken()
        },
      }),
    )
    const client = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: served.url } })
    await client.models.generateContent({ model: gemini, contents: 'Say hello' })
    await client.models.generateContent({ model: gemini, contents: 'Say hello' })
    await served.close()
    expect(calls).toBe(2)
    expect(scheme(last())).toBe('Bearer')
  })
})

describe('four client formats × Vertex Gemini and Claude', () => {
  let gateway: Running
  beforeAll(async () => {
    gateway = await serve(
      createGateway({
        upstreams: {
          gemini: vertexUpstream('content-generation'),
          claude: vertexUpstream('messages'),
          expired: vertexUpstream('messages', { auth: 'ya29.not-a-token-this-stand-in-issued' }),
        },
        models: {
          'vertex-gemini': { upstream: 'gemini', model: gemini },
          'vertex-claude': { upstream: 'claude', model: claude },
          'vertex-expired': { upstream: 'expired', model: claude },
        },
      }).fetch,
    )
  })
  afterAll(() => gateway.close())

  const send = (client: FormatId, model: string) => sendWire(gateway.url, client, model)

  it.each(matrixCells(['vertex-gemini', 'vertex-claude']))(
    '%s client → %s (stream: %s): text and tools',
    async (client, model, stream) => {
      await expectTextAndTools(gateway.url, client, model, stream)
      expect(scheme(last())).toBe('Bearer')
    },
  )

  it.each(formatIds.flatMap((client) => ['vertex-gemini', 'vertex-claude'].map((model) => [client, model] as const)))(
    '%s client → %s: RESOURCE_EXHAUSTED → 429 with retry-after, in the client format',
    async (client, model) => {
      vertex.throttleOnce()
      const response = await send(client, model)
      expect(response.status).toBe(429)
      expect(response.headers.get('retry-after')).toBe('7')
      const body = (await response.json()) as Json
      if (client === 'messages') expect(body).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } })
      else if (client === 'content-generation') expect(body.error.status).toBe('RESOURCE_EXHAUSTED')
      else expect(body.error.code).toBe('rate_limit_exceeded')
    },
  )

  it.each(formatIds)(
    '%s client: a token Vertex refuses → 401 in the client format, never Google’s raw body',
    async (client) => {
      const response = await send(client, 'vertex-expired')
      expect(response.status).toBe(401)
      const text = await response.text()
      expect(text).not.toContain('ya29.not-a-token')
      const body = JSON.parse(text) as Json
      if (client === 'messages') expect(body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } })
      else if (client === 'content-generation') expect(body.error.status).toBe('UNAUTHENTICATED')
      else expect(body.error.type).toBe('invalid_request_error')
    },
  )
})
