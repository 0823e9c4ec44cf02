/**
 * Amazon Bedrock as an upstream (issue 23 §1): the strict stand-in is strict (it refuses what Bedrock refuses), and the
 * gateway's upstream request matches what the official clients send for the same input — `@anthropic-ai/bedrock-sdk`
 * for InvokeModel, `@aws-sdk/client-bedrock-runtime` (Converse, ConverseStream) for Converse — in method, path, auth
 * scheme (SigV4 scope and signed headers) and body.
 */
import AnthropicBedrock from '@anthropic-ai/bedrock-sdk'
import Anthropic from '@anthropic-ai/sdk'
import { ConverseCommand, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime'
import { AwsV4Signer } from 'aws4fetch'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { UpstreamOptions } from '../../src/gateway/options.js'
import {
  awsCredentials,
  type BedrockReceived,
  bedrockApiKey,
  region,
  sessionCredentials,
} from '../../src/node/testing/clouds/bedrock.js'
import {
  bedrockUpstream,
  claudeProfileId as claude,
  novaId as nova,
  startBedrockGateway,
  useMockBedrock,
} from './bedrock-fixture.js'
import { awsClient } from './mock-backend.js'

const bedrock = useMockBedrock()
const last = bedrock.last

/** The auth scheme of a received request: `Bearer`, or SigV4's scope and signed headers. */
function scheme(received: BedrockReceived): { kind: string; scope?: string; signed?: string[] } {
  const authorization = received.headers.authorization ?? ''
  if (authorization.startsWith('Bearer ')) return { kind: 'Bearer' }
  const m = /^AWS4-HMAC-SHA256 Credential=[^/]+\/\d{8}\/([^/]+\/[^/]+\/aws4_request), ?SignedHeaders=([^,]+),/.exec(
    authorization,
  )
  return m ? { kind: 'AWS4-HMAC-SHA256', scope: m[1], signed: (m[2] as string).split(';') } : { kind: 'none' }
}

const gatewayWith = (upstream: Partial<UpstreamOptions>) => startBedrockGateway(bedrock, upstream)

describe('the stand-in is strict', () => {
  const converseBody = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] })
  const url = () => `${bedrock.url}/model/${encodeURIComponent(nova)}/converse`
  async function signed(body: string, headers: Record<string, string> = {}) {
    const signer = new AwsV4Signer({
      url: url(),
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      ...awsCredentials,
      service: 'bedrock',
      region,
    })
    return signer.sign()
  }

  it('accepts a correctly signed request', async () => {
    const request = await signed(converseBody)
    const answer = await fetch(request.url, { method: 'POST', headers: request.headers, body: converseBody })
    expect(answer.status).toBe(200)
  })

  it('refuses a changed body, a missing signed header, a wrong clock, an unknown key: 403 in Bedrock shape', async () => {
    const request = await signed(converseBody, { 'x-custom': 'signed' })
    const tampered = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: converseBody.replace('hi', 'ho'),
    })
    expect(tampered.status).toBe(403)
    expect(tampered.headers.get('x-amzn-errortype')).toMatch(/^InvalidSignatureException/)
    expect(await tampered.json()).toEqual({
      message: expect.stringContaining('signature we calculated does not match'),
    })
    const headers = new Headers(request.headers)
    headers.delete('x-custom')
    const missing = await fetch(request.url, { method: 'POST', headers, body: converseBody })
    expect(missing.status).toBe(403)
    const old = new AwsV4Signer({
      url: url(),
      method: 'POST',
      body: converseBody,
      ...awsCredentials,
      service: 'bedrock',
      region,
      datetime: '20200101T000000Z',
    })
    const stale = await old.sign()
    const clock = await fetch(stale.url, { method: 'POST', headers: stale.headers, body: converseBody })
    expect(clock.status).toBe(403)
    expect(((await clock.json()) as { message: string }).message).toMatch(/^Signature expired/)
    const unknown = new AwsV4Signer({
      url: url(),
      method: 'POST',
      body: converseBody,
      accessKeyId: 'AKIAUNKNOWN000000000',
      secretAccessKey: 'x',
      service: 'bedrock',
      region,
    })
    const refused = await fetch(url(), { method: 'POST', headers: (await unknown.sign()).headers, body: converseBody })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('x-amzn-errortype')).toMatch(/^UnrecognizedClientException/)
  })
})

describe('differential: the official clients give the reference request', () => {
  it('InvokeModel: @anthropic-ai/bedrock-sdk (SigV4) and the gateway send the same request', async () => {
    const reference = new AnthropicBedrock({
      awsRegion: region,
      awsAccessKey: awsCredentials.accessKeyId,
      awsSecretKey: awsCredentials.secretAccessKey,
      baseURL: bedrock.url,
    })
    const params = {
      model: claude,
      max_tokens: 256,
      messages: [{ role: 'user' as const, content: 'Say hello' }],
      system: 'Be brief',
    }
    const sdkAnswer = await reference.messages.create(params)
    const expected = last()
    const served = await gatewayWith({})
    const client = new Anthropic({ baseURL: served.url, apiKey: 'client-secret-key' })
    const answer = await client.messages.create(params)
    await served.close()
    const got = last()
    expect(answer.content).toEqual(sdkAnswer.content)
    expect(got.method).toBe(expected.method)
    // The model id is one URL-encoded segment (`:` as %3A, as the AWS SDK sends it); the Anthropic SDK leaves `:` raw,
    // which is the same path once decoded (and each is signed as sent).
    expect(got.path).toBe(`/model/${encodeURIComponent(claude)}/invoke`)
    expect(decodeURIComponent(got.path)).toBe(decodeURIComponent(expected.path))
    expect(scheme(got)).toEqual({
      kind: 'AWS4-HMAC-SHA256',
      scope: `${region}/bedrock/aws4_request`,
      signed: expect.arrayContaining(['host', 'x-amz-date']),
    })
    expect(scheme(expected).scope).toBe(scheme(got).scope)
    expect(got.body).toEqual(expected.body)
    expect(got.body.anthropic_version).toBe(expected.body.anthropic_version)
    expect(JSON.stringify(got.headers)).not.toContain('client-secret-key')
  })

  it('InvokeModel stream with session credentials: same path, x-amz-security-token signed, same body', async () => {
    const reference = new AnthropicBedrock({
      awsRegion: region,
      awsAccessKey: sessionCredentials.accessKeyId,
      awsSecretKey: sessionCredentials.secretAccessKey,
      awsSessionToken: sessionCredentials.sessionToken,
      baseURL: bedrock.url,
    })
    const params = { model: claude, max_tokens: 256, messages: [{ role: 'user' as const, content: 'Say hello' }] }
    const sdkText = (await reference.messages.stream(params).finalMessage()).content
    const expected = last()
    const served = await gatewayWith({ auth: sessionCredentials })
    const client = new Anthropic({ baseURL: served.url, apiKey: 'client-secret-key' })
    const message = await client.messages.stream(params).finalMessage()
    await served.close()
    const got = last()
    expect(message.content).toEqual(sdkText)
    expect(got.path).toBe(`/model/${encodeURIComponent(claude)}/invoke-with-response-stream`)
    expect(decodeURIComponent(got.path)).toBe(decodeURIComponent(expected.path))
    expect(scheme(got).signed).toContain('x-amz-security-token')
    expect(scheme(expected).signed).toContain('x-amz-security-token')
    expect(got.body).toEqual(expected.body)
  })

  it('InvokeModel with a Bedrock API key: Bearer, as the SDK sends AWS_BEARER_TOKEN_BEDROCK', async () => {
    const reference = new AnthropicBedrock({ awsRegion: region, apiKey: bedrockApiKey, baseURL: bedrock.url })
    const params = { model: claude, max_tokens: 64, messages: [{ role: 'user' as const, content: 'Say hello' }] }
    await reference.messages.create(params)
    const expected = last()
    const served = await gatewayWith({ auth: { bearerToken: bedrockApiKey } })
    await new Anthropic({ baseURL: served.url, apiKey: 'client-secret-key' }).messages.create(params)
    await served.close()
    const got = last()
    expect(scheme(got)).toEqual({ kind: 'Bearer' })
    expect(scheme(expected)).toEqual({ kind: 'Bearer' })
    expect([got.method, decodeURIComponent(got.path)]).toEqual([expected.method, decodeURIComponent(expected.path)])
    expect(got.body).toEqual(expected.body)
  })

  const aws = () => awsClient(bedrock)

  it('Converse: ConverseCommand and the gateway (chat-completions client) send the same request', async () => {
    const sdk = await aws().send(
      new ConverseCommand({
        modelId: nova,
        system: [{ text: 'Be brief' }],
        messages: [{ role: 'user', content: [{ text: 'Say hello' }] }],
        inferenceConfig: { maxTokens: 100, temperature: 0.5 },
      }),
    )
    const expected = last()
    const served = await gatewayWith({ format: 'converse' })
    const client = new OpenAI({ baseURL: `${served.url}/v1`, apiKey: 'client-secret-key' })
    const answer = await client.chat.completions.create({
      model: nova,
      messages: [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'Say hello' },
      ],
      max_tokens: 100,
      temperature: 0.5,
    })
    await served.close()
    const got = last()
    expect(answer.choices[0]?.message.content).toBe(sdk.output?.message?.content?.[0]?.text)
    expect([got.method, got.path]).toEqual([expected.method, expected.path])
    expect(got.path).toBe(`/model/${encodeURIComponent(nova)}/converse`)
    expect(scheme(got).scope).toBe(scheme(expected).scope)
    expect(got.body).toEqual(expected.body)
  })

  it('ConverseStream with tools: ConverseStreamCommand and the gateway (messages client) send the same request', async () => {
    const schema = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] }
    const sdk = await aws().send(
      new ConverseStreamCommand({
        modelId: claude,
        messages: [{ role: 'user', content: [{ text: 'Weather in Paris?' }] }],
        inferenceConfig: { maxTokens: 200 },
        toolConfig: {
          tools: [{ toolSpec: { name: 'get_weather', description: 'Weather', inputSchema: { json: schema } } }],
          toolChoice: { auto: {} },
        },
      }),
    )
    const names: string[] = []
    for await (const event of sdk.stream ?? [])
      if (event.contentBlockStart?.start?.toolUse?.name) names.push(event.contentBlockStart.start.toolUse.name)
    expect(names).toEqual(['get_weather'])
    const expected = last()
    const served = await gatewayWith({ format: 'converse' })
    const client = new Anthropic({ baseURL: served.url, apiKey: 'client-secret-key' })
    const message = await client.messages
      .stream({
        model: claude,
        max_tokens: 200,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [{ name: 'get_weather', description: 'Weather', input_schema: schema }],
        tool_choice: { type: 'auto' },
      })
      .finalMessage()
    await served.close()
    const got = last()
    expect(message.content.find((block) => block.type === 'tool_use')).toMatchObject({
      name: 'get_weather',
      input: { city: 'Paris' },
    })
    expect([got.method, got.path]).toEqual([expected.method, expected.path])
    expect(got.path).toBe(`/model/${encodeURIComponent(claude)}/converse-stream`)
    expect(got.body).toEqual(expected.body)
  })
})

describe('configuration and credentials', () => {
  it('createGateway refuses what it cannot serve, naming the upstream and the field', () => {
    const make = (upstream: Record<string, unknown>) => () =>
      createGateway({ upstreams: { b: { format: 'messages', provider: 'bedrock', ...upstream } as UpstreamOptions } })
    expect(make({ auth: awsCredentials })).toThrow(/upstreams\.b: region is required/)
    expect(make({ region: 'us-east-1' })).toThrow(/upstreams\.b: auth is required/)
    expect(make({ region: 'Ohio', auth: awsCredentials })).toThrow(/region "Ohio" is not an AWS region/)
    expect(make({ baseURL: 'http://127.0.0.1:1', auth: awsCredentials })).toThrow(/region is required to sign/)
    expect(make({ region, auth: { accessKeyId: 'AKIA' } })).toThrow(/accessKeyId and secretAccessKey/)
    expect(make({ region, auth: awsCredentials, format: 'chat-completions' })).toThrow(
      /not served by provider 'bedrock'/,
    )
    expect(() => createGateway({ upstreams: { c: { format: 'converse', baseURL: 'http://127.0.0.1:1' } } })).toThrow(
      /upstreams\.c: format "converse" needs a provider \('bedrock'\)/,
    )
    expect(make({ region, auth: () => awsCredentials })).not.toThrow()
  })

  it('a credential function is called before each request (refreshed credentials are used as they change)', async () => {
    const given = [awsCredentials, sessionCredentials, { bearerToken: bedrockApiKey }]
    let calls = 0
    const gateway = createGateway({
      upstreams: {
        b: { format: 'converse', ...bedrockUpstream(bedrock, async () => given[calls++ % 3] as typeof awsCredentials) },
      },
    })
    const kinds: string[] = []
    for (let i = 0; i < 3; i++) {
      const answer = await gateway.fetch(
        new Request('http://gateway.test/v1/chat/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: nova, messages: [{ role: 'user', content: 'hi' }] }),
        }),
      )
      expect(answer.status).toBe(200)
      kinds.push(scheme(last()).kind + (last().headers['x-amz-security-token'] ? '+token' : ''))
    }
    expect(kinds).toEqual(['AWS4-HMAC-SHA256', 'AWS4-HMAC-SHA256+token', 'Bearer'])
  })

  it('a credential function that fails is a 401 in the client format, Bedrock never called', async () => {
    const before = bedrock.received.length
    const gateway = createGateway({
      upstreams: {
        b: {
          format: 'messages',
          ...bedrockUpstream(bedrock, () => Promise.reject(new Error('sso expired: secret-detail'))),
        },
      },
    })
    const answer = await gateway.fetch(
      new Request('http://gateway.test/v1/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: claude, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
      }),
    )
    expect(answer.status).toBe(401)
    const body = (await answer.json()) as { type: string; error: { type: string; message: string } }
    expect(body.error.type).toBe('authentication_error')
    expect(JSON.stringify(body)).not.toContain('secret-detail')
    expect(bedrock.received.length).toBe(before)
  })

  it('anthropic-beta in the upstream headers travels as anthropic_beta in the invoke body', async () => {
    const served = await gatewayWith({
      headers: { 'anthropic-beta': 'context-1m-2025-08-07, interleaved-thinking-2025-05-14' },
    })
    await new Anthropic({ baseURL: served.url, apiKey: 'k' }).messages.create({
      model: claude,
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    })
    await served.close()
    expect(last().body.anthropic_beta).toEqual(['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14'])
  })

  it('the AWS credentials reach only Bedrock: a first-party upstream of the same gateway gets none of them', async () => {
    const seen: Headers[] = []
    const gateway = createGateway({
      upstreams: {
        b: { format: 'converse', ...bedrockUpstream(bedrock, sessionCredentials) },
        a: { format: 'messages', baseURL: 'http://anthropic.test', apiKey: 'sk-ant-first-party' },
      },
      models: { nova: { upstream: 'b', model: nova }, claude: { upstream: 'a', model: 'claude-x' } },
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init)
        seen.push(request.headers)
        if (request.url.startsWith(bedrock.url)) return fetch(request)
        return Response.json({
          type: 'message',
          id: 'm',
          role: 'assistant',
          model: 'claude-x',
          content: [{ type: 'text', text: 'ok' }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 1, output_tokens: 1 },
        })
      }) as typeof fetch,
    })
    for (const model of ['nova', 'claude']) {
      const answer = await gateway.fetch(
        new Request('http://gateway.test/v1/chat/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
        }),
      )
      expect(answer.status).toBe(200)
    }
    const [toBedrock, toAnthropic] = seen as [Headers, Headers]
    expect(toBedrock.get('x-amz-security-token')).toBe(sessionCredentials.sessionToken)
    expect(toBedrock.get('x-api-key')).toBeNull()
    expect([...toAnthropic.keys()].filter((name) => name.startsWith('x-amz') || name === 'authorization')).toEqual([])
    expect(JSON.stringify([...toAnthropic.values()])).not.toContain(sessionCredentials.accessKeyId)
  })
})
