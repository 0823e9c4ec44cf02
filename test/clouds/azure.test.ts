/**
 * Azure OpenAI as an upstream (issue 23 §3): the gateway's upstream request matches what `openai`'s `AzureOpenAI`
 * (classic API) or the `OpenAI` client on `/openai/v1` (Microsoft's documented v1 setup) sends for the same input —
 * method, path and query, auth scheme, body — against a strict stand-in; then the four client formats × chat and
 * responses deployments, JSON and stream, tools, and Azure's errors in the client's format.
 */
import OpenAI, { AzureOpenAI } from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { UpstreamOptions } from '../../src/gateway/options.js'
import type { FormatId } from '../../src/ir/index.js'
import { type AzureReceived, type AzureStandIn, azureKey, entraToken } from '../../src/node/testing/clouds/azure.js'
import { formatIds, type Json } from '../gateway-helpers.js'
import { type Running, serve } from '../sdk/servers.js'
import { expectTextAndTools, matrixCells, sendWire } from './matrix.js'
import { startMockAzure } from './mock-backend.js'

let azure: AzureStandIn
beforeAll(async () => {
  azure = await startMockAzure()
})
afterAll(() => azure.close())

const messages = [{ role: 'user' as const, content: 'Say hello' }]
const deployment = 'gpt-4o-deploy'

/** The last request the stand-in received, as `[what, auth header name, auth scheme]`. */
function last(): AzureReceived {
  return azure.received.at(-1) as AzureReceived
}
function auth(received: AzureReceived): string {
  if (received.headers['api-key'] !== undefined) return 'api-key'
  return received.headers.authorization?.split(' ')[0] ?? 'none'
}

/** A gateway with one Azure upstream, served on 127.0.0.1, and an OpenAI client pointed at it. */
async function throughGateway(upstream: Partial<UpstreamOptions>, format: 'chat-completions' | 'responses') {
  const gateway = createGateway({
    upstreams: { azure: { format, provider: 'azure', baseURL: azure.url, ...upstream } },
  })
  const served = await serve(gateway.fetch)
  return { served, client: new OpenAI({ baseURL: `${served.url}/v1`, apiKey: 'client-secret-key' }) }
}

describe('differential: the official clients give the reference request', () => {
  it('classic deployment, chat completions: AzureOpenAI with api-key and api-version', async () => {
    const reference = new AzureOpenAI({ endpoint: azure.url, apiKey: azureKey, apiVersion: '2024-10-21', deployment })
    await reference.chat.completions.create({ model: deployment, messages, temperature: 0.5 })
    const expected = last()
    const { served, client } = await throughGateway(
      { apiKey: azureKey, apiVersion: '2024-10-21', deployment },
      'chat-completions',
    )
    const answer = await client.chat.completions.create({ model: deployment, messages, temperature: 0.5 })
    await served.close()
    expect(answer.choices[0]?.message.content).toContain('Say hello')
    const got = last()
    expect(got.method).toBe(expected.method)
    expect(got.path).toBe(`/openai/deployments/${deployment}/chat/completions?api-version=2024-10-21`)
    expect(got.path).toBe(expected.path)
    expect(auth(got)).toBe('api-key')
    expect(auth(got)).toBe(auth(expected))
    expect(got.body).toEqual(expected.body)
    expect(JSON.stringify(got.headers)).not.toContain('client-secret-key')
  })

  it('classic API, responses: AzureOpenAI → /openai/responses?api-version=…', async () => {
    const reference = new AzureOpenAI({ endpoint: azure.url, apiKey: azureKey, apiVersion: '2025-04-01-preview' })
    await reference.responses.create({ model: deployment, input: 'Say hello' })
    const expected = last()
    const { served, client } = await throughGateway({ apiKey: azureKey, apiVersion: '2025-04-01-preview' }, 'responses')
    const answer = await client.responses.create({ model: deployment, input: 'Say hello' })
    await served.close()
    expect(answer.output_text).toContain('Say hello')
    const got = last()
    expect([got.method, got.path, auth(got)]).toEqual([expected.method, expected.path, auth(expected)])
    expect(got.path).toBe('/openai/responses?api-version=2025-04-01-preview')
    expect(got.body).toEqual(expected.body)
  })

  it('Entra ID: a token function is sent as Bearer, like azureADTokenProvider', async () => {
    const reference = new AzureOpenAI({
      endpoint: azure.url,
      azureADTokenProvider: async () => entraToken,
      apiVersion: '2024-10-21',
      deployment,
    })
    await reference.chat.completions.create({ model: deployment, messages })
    const expected = last()
    let calls = 0
    const { served, client } = await throughGateway(
      {
        apiVersion: '2024-10-21',
        auth: async () => {
          calls++
          return entraToken
        },
      },
      'chat-completions',
    )
    await client.chat.completions.create({ model: deployment, messages })
    await client.chat.completions.create({ model: deployment, messages })
    await served.close()
    const got = last()
    expect(calls).toBe(2)
    expect([got.method, got.path]).toEqual([expected.method, expected.path])
    expect(got.headers.authorization).toBe(expected.headers.authorization)
    expect(got.headers['api-key']).toBeUndefined()
  })

  it.each([
    ['chat-completions', '/openai/v1/chat/completions'],
    ['responses', '/openai/v1/responses'],
  ] as const)('v1 API (%s): the OpenAI client on {endpoint}/openai/v1 gives path and body', async (format, path) => {
    const reference = new OpenAI({ baseURL: `${azure.url}/openai/v1`, apiKey: azureKey })
    if (format === 'chat-completions') await reference.chat.completions.create({ model: deployment, messages })
    else await reference.responses.create({ model: deployment, input: 'Say hello' })
    const expected = last()
    const { served, client } = await throughGateway({ apiKey: azureKey }, format)
    if (format === 'chat-completions') await client.chat.completions.create({ model: deployment, messages })
    else await client.responses.create({ model: deployment, input: 'Say hello' })
    await served.close()
    const got = last()
    expect([got.method, got.path]).toEqual([expected.method, path])
    expect(got.path).toBe(expected.path)
    expect(got.body).toEqual(expected.body)
    // Azure takes the key as `api-key` (the documented header) or as a bearer: the gateway sends `api-key`.
    expect(got.headers['api-key']).toBe(azureKey)
    expect(got.headers.authorization).toBeUndefined()
  })
})

describe('headers on a provider upstream', () => {
  it('an object and a function both reach Azure, beside the api-key; nothing of the client is forwarded', async () => {
    let calls = 0
    const fixed = await throughGateway({ apiKey: azureKey, headers: { 'X-Corp-Route': 'eu' } }, 'chat-completions')
    await fixed.client.chat.completions.create({ model: deployment, messages })
    await fixed.served.close()
    expect(last().headers).toMatchObject({ 'x-corp-route': 'eu', 'api-key': azureKey })
    const dynamic = await throughGateway(
      { apiKey: azureKey, headers: async () => ({ 'x-proxy-token': `t${++calls}` }) },
      'chat-completions',
    )
    await dynamic.client.chat.completions.create({ model: deployment, messages })
    await dynamic.served.close()
    expect(last().headers).toMatchObject({ 'x-proxy-token': 't1', 'api-key': azureKey })
    expect(JSON.stringify(last().headers)).not.toContain('client-secret-key')
  })
})

describe('four client formats × Azure chat completions and responses', () => {
  let gateway: Running
  beforeAll(async () => {
    gateway = await serve(
      createGateway({
        upstreams: {
          chat: { format: 'chat-completions', provider: 'azure', baseURL: azure.url, apiKey: azureKey },
          responses: { format: 'responses', provider: 'azure', baseURL: `${azure.url}/`, apiKey: azureKey },
          classic: {
            format: 'chat-completions',
            provider: 'azure',
            baseURL: azure.url,
            apiKey: azureKey,
            apiVersion: '2024-10-21',
          },
          wrong: {
            format: 'chat-completions',
            provider: 'azure',
            baseURL: azure.url,
            apiKey: 'not-the-azure-key-123456',
          },
        },
        models: {
          'azure-chat': { upstream: 'chat', model: deployment },
          'azure-responses': { upstream: 'responses', model: deployment },
          'azure-classic': { upstream: 'classic', model: deployment },
          'azure-missing': { upstream: 'chat', model: 'no-such-deployment' },
          'azure-wrong-key': { upstream: 'wrong', model: deployment },
        },
      }).fetch,
    )
  })
  afterAll(() => gateway.close())

  const send = (client: FormatId, model: string) => sendWire(gateway.url, client, model)

  it.each(matrixCells(['azure-chat', 'azure-responses', 'azure-classic']))(
    '%s client → %s (stream: %s): text and tools',
    async (client, model, stream) => {
      await expectTextAndTools(gateway.url, client, model, stream)
      expect(last().headers['api-key']).toBe(azureKey)
    },
  )

  it.each(formatIds)('%s client: Azure throttling → 429 with retry-after, in the client format', async (client) => {
    azure.throttleOnce()
    const response = await send(client, 'azure-chat')
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toBe('7')
    const body = (await response.json()) as Json
    if (client === 'messages') expect(body.error.type).toBe('rate_limit_error')
    else if (client === 'content-generation') expect(body.error.status).toBe('RESOURCE_EXHAUSTED')
    else expect(body.error.message).toContain('exceeded token rate limit')
  })

  it.each(formatIds)('%s client: a wrong Azure key → 401 in the client format, the key not echoed', async (client) => {
    const response = await send(client, 'azure-wrong-key')
    expect(response.status).toBe(401)
    const text = await response.text()
    expect(text).not.toContain('not-the-azure-key-123456')
    expect(text).not.toContain(azureKey)
    const body = JSON.parse(text) as Json
    if (client === 'messages') expect(body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } })
    else if (client === 'content-generation') expect(body.error.status).toBe('UNAUTHENTICATED')
    else expect(body.error.message).toContain('Access denied')
  })

  it('an unknown deployment is a 404 in the client format', async () => {
    const response = await send('messages', 'azure-missing')
    expect(response.status).toBe(404)
    expect(((await response.json()) as Json).error.type).toBe('not_found_error')
  })
})
