/**
 * Token counting on Bedrock: a messages client's `count_tokens` on an InvokeModel upstream reaches Bedrock's
 * CountTokens (`/model/{modelId}/count-tokens`, `{input: {invokeModel: {body}}}`) — the same request
 * `@aws-sdk/client-bedrock-runtime`'s CountTokensCommand sends for that invoke body — and `{inputTokens}` comes back
 * as `{input_tokens}`. The stand-in validates the counted body as an InvokeModel body.
 */
import Anthropic from '@anthropic-ai/sdk'
import { CountTokensCommand } from '@aws-sdk/client-bedrock-runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import { type Running, serve } from '../sdk/servers.js'
import { bedrockUpstreams, claudeId as claude, useMockBedrock } from './bedrock-fixture.js'
import { awsClient } from './mock-backend.js'

const bedrock = useMockBedrock()
let gateway: Running

beforeAll(async () => {
  const handler = createGateway({
    upstreams: bedrockUpstreams(bedrock),
    models: {
      [claude]: { upstream: 'invoke' },
      'unknown-model': { upstream: 'invoke', model: 'anthropic.unknown-v1:0' },
      'claude-converse': { upstream: 'converse', model: claude },
    },
  })
  gateway = await serve(handler.fetch)
})
afterAll(async () => {
  await gateway.close()
})

const last = bedrock.last
const aws = () => awsClient(bedrock)

describe('Bedrock CountTokens', () => {
  it('count_tokens → /count-tokens with the invoke body, the request CountTokensCommand sends; inputTokens back', async () => {
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'client-key', maxRetries: 0 })
    const params = {
      model: claude,
      system: 'Be brief',
      messages: [{ role: 'user' as const, content: 'How many tokens is this?' }],
      tools: [{ name: 'get_weather', input_schema: { type: 'object' as const, properties: {} } }],
    }
    const counted = await anthropic.messages.countTokens(params)
    const got = last()
    expect(got.path).toBe(`/model/${encodeURIComponent(claude)}/count-tokens`)
    const invoke = JSON.parse(Buffer.from(got.body.input.invokeModel.body, 'base64').toString('utf8'))
    // The invoke body Bedrock validates: no model or stream, its anthropic_version, a max_tokens.
    expect(invoke).toMatchObject({ anthropic_version: '2026-10-21', system: 'Be brief', max_tokens: 1 })
    expect(invoke).not.toHaveProperty('model')
    const reference = await aws().send(
      new CountTokensCommand({
        modelId: claude,
        input: { invokeModel: { body: new TextEncoder().encode(JSON.stringify(invoke)) } },
      }),
    )
    const expected = last()
    expect([got.method, decodeURIComponent(got.path)]).toEqual([expected.method, decodeURIComponent(expected.path)])
    expect(got.body).toEqual(expected.body)
    expect(counted.input_tokens).toBe(reference.inputTokens)
    expect(counted.input_tokens).toBeGreaterThan(10)
  })

  it('Bedrock refuses a counted body that is not a valid invoke body: a 400 in the client format', async () => {
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: 'client-key', maxRetries: 0 })
    const refused = await aws()
      .send(
        new CountTokensCommand({
          modelId: claude,
          input: { invokeModel: { body: new TextEncoder().encode('{"messages":[]}') } },
        }),
      )
      .catch((error) => error)
    expect(refused.name).toBe('ValidationException')
    const wrong = await anthropic.messages
      .countTokens({ model: 'unknown-model', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error) => error)
    expect(wrong).toBeInstanceOf(Anthropic.BadRequestError)
    expect(wrong.message).toContain('The provided model identifier is invalid.')
  })

  it('a Converse upstream: an estimate, marked as one, Bedrock not called', async () => {
    const before = bedrock.received.length
    const answer = await fetch(`${gateway.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'client-key', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-converse', messages: [{ role: 'user', content: 'How many?' }] }),
    })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('x-interlingua-token-count')).toBe('estimate')
    expect(((await answer.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0)
    expect(bedrock.received.length).toBe(before)
  })
})
