/**
 * The CLI with only AWS's own environment variables (and `BEDROCK_BASE_URL` at the stand-in): `bedrock/<modelId>`
 * reaches InvokeModel for Anthropic ids and Converse for the others, `bedrock-converse/<modelId>` always Converse,
 * signed with the environment's credentials (or its Bedrock API key); nothing secret in the start-up lines.
 */
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import { loadCliConfig } from '../../src/node/cli-config.js'
import { bedrockApiKey, region, sessionCredentials } from '../../src/node/testing/clouds/bedrock.js'
import { serve } from '../sdk/servers.js'
import { awsEnv, claudeProfileId as claude, novaId as nova, useMockBedrock } from './bedrock-fixture.js'

const bedrock = useMockBedrock()
const last = bedrock.last

describe('CLI: AWS environment variables', () => {
  it('bedrock/<modelId> and bedrock-converse/<modelId>, SigV4 from AWS_ACCESS_KEY_ID and AWS_SESSION_TOKEN', async () => {
    const config = loadCliConfig(['--port', '0'], awsEnv(bedrock, sessionCredentials))
    const lines = config.summary.join('\n')
    expect(lines).toContain('Amazon Bedrock')
    for (const secret of Object.values(sessionCredentials)) expect(lines).not.toContain(secret)
    const served = await serve(createGateway(config.gateway).fetch)
    try {
      const openai = new OpenAI({ baseURL: `${served.url}/v1`, apiKey: 'k', maxRetries: 0 })
      const anthropic = new Anthropic({ baseURL: served.url, apiKey: 'k', maxRetries: 0 })
      const messages = [{ role: 'user' as const, content: 'Say hello' }]
      await openai.chat.completions.create({ model: `bedrock/${claude}`, messages })
      expect(last()?.path).toBe(`/model/${encodeURIComponent(claude)}/invoke`)
      expect(last()?.headers['x-amz-security-token']).toBe(sessionCredentials.sessionToken)
      const answer = await anthropic.messages.create({ model: `bedrock/${nova}`, max_tokens: 64, messages })
      expect(JSON.stringify(answer.content)).toContain('You said: Say hello')
      expect(last()?.path).toBe(`/model/${encodeURIComponent(nova)}/converse`)
      await openai.chat.completions
        .create({ model: `bedrock-converse/${claude}`, messages, stream: true })
        .then(async (stream) => {
          for await (const _ of stream);
        })
      expect(last()?.path).toBe(`/model/${encodeURIComponent(claude)}/converse-stream`)
    } finally {
      await served.close()
    }
  })

  it('AWS_BEARER_TOKEN_BEDROCK is sent as Bearer; without a region or a base URL, no Bedrock upstream', async () => {
    const config = loadCliConfig(['--port', '0'], {
      AWS_REGION: region,
      AWS_BEARER_TOKEN_BEDROCK: bedrockApiKey,
      BEDROCK_BASE_URL: bedrock.url,
    })
    expect(config.summary.join('\n')).not.toContain(bedrockApiKey)
    const answer = await createGateway(config.gateway).fetch(
      new Request('http://gateway.test/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: `bedrock/${nova}`, messages: [{ role: 'user', content: 'hi' }] }),
      }),
    )
    expect(answer.status).toBe(200)
    expect(last()?.headers.authorization).toBe(`Bearer ${bedrockApiKey}`)
    const none = loadCliConfig(['--port', '0'], { AWS_ACCESS_KEY_ID: 'AKIA', AWS_SECRET_ACCESS_KEY: 'x' })
    expect(Object.keys(none.gateway.upstreams ?? {})).toEqual([])
  })
})
