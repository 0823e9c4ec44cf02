/**
 * The CLI's cloud conventions (issue 23 §5): with only each cloud's own environment variables (and `VERTEX_BASE_URL`
 * pointing at the stand-in), `azure/<deployment>` and `vertex/<model>` reach the right endpoint for every client.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import { loadCliConfig } from '../../src/node/cli-config.js'
import { type AzureStandIn, azureKey } from '../../src/node/testing/clouds/azure.js'
import type { VertexStandIn } from '../../src/node/testing/clouds/vertex.js'
import { type Running, serve } from '../sdk/servers.js'
import { startMockAzure, startMockVertex } from './mock-backend.js'

let azure: AzureStandIn
let vertex: VertexStandIn
let keyFile: string
beforeAll(async () => {
  azure = await startMockAzure()
  vertex = await startMockVertex()
  keyFile = join(mkdtempSync(join(tmpdir(), 'interlingua-cli-')), 'key.json')
  writeFileSync(keyFile, JSON.stringify(vertex.serviceAccount))
})
afterAll(async () => {
  await azure.close()
  await vertex.close()
})

const cloudEnv = () => ({
  AZURE_OPENAI_ENDPOINT: azure.url,
  AZURE_OPENAI_API_KEY: azureKey,
  GOOGLE_APPLICATION_CREDENTIALS: keyFile,
  GOOGLE_CLOUD_LOCATION: vertex.location,
  VERTEX_BASE_URL: vertex.url,
})

async function cli(env: Record<string, string>): Promise<{ served: Running; summary: string[] }> {
  const config = loadCliConfig(['--port', '0'], env)
  return { served: await serve(createGateway(config.gateway).fetch), summary: config.summary }
}

describe('CLI: cloud environment variables', () => {
  it('azure/<deployment> and vertex/<model> reach their endpoints, per client format', async () => {
    const { served, summary } = await cli(cloudEnv())
    try {
      expect(summary.join('\n')).not.toContain(azureKey)
      expect(summary.join('\n')).not.toContain('PRIVATE KEY')
      const openai = new OpenAI({ baseURL: `${served.url}/v1`, apiKey: 'k', maxRetries: 0 })
      const anthropic = new Anthropic({ baseURL: served.url, apiKey: 'k', maxRetries: 0 })
      const messages = [{ role: 'user' as const, content: 'Say hello' }]

      await openai.chat.completions.create({ model: 'azure/gpt-4o-deploy', messages })
      expect(azure.received.at(-1)).toMatchObject({
        path: '/openai/v1/chat/completions',
        body: { model: 'gpt-4o-deploy' },
      })
      const response = await openai.responses.create({ model: 'azure/gpt-4o-deploy', input: 'Say hello' })
      expect(response.output_text).toContain('Say hello')
      expect(azure.received.at(-1)?.path).toBe('/openai/v1/responses')
      await anthropic.messages.create({ model: 'azure/gpt-4o-deploy', max_tokens: 64, messages })
      expect(azure.received.at(-1)?.path).toBe('/openai/v1/chat/completions')

      const claude = await anthropic.messages.create({ model: 'vertex/claude-sonnet-4-5', max_tokens: 64, messages })
      expect(JSON.stringify(claude.content)).toContain('Say hello')
      expect(vertex.received.at(-1)?.path).toBe(
        `/v1/projects/${vertex.project}/locations/${vertex.location}/publishers/anthropic/models/claude-sonnet-4-5:rawPredict`,
      )
      const gemini = await openai.chat.completions.create({ model: 'vertex/gemini-2.5-flash', messages })
      expect(gemini.choices[0]?.message.content).toContain('Say hello')
      expect(vertex.received.at(-1)?.path).toContain('/publishers/google/models/gemini-2.5-flash:generateContent')
    } finally {
      await served.close()
    }
  })

  it('OPENAI_API_VERSION selects the classic deployments API', async () => {
    const { served } = await cli({ ...cloudEnv(), OPENAI_API_VERSION: '2024-10-21' })
    try {
      const openai = new OpenAI({ baseURL: `${served.url}/v1`, apiKey: 'k', maxRetries: 0 })
      await openai.chat.completions.create({
        model: 'azure/gpt-4o-deploy',
        messages: [{ role: 'user', content: 'hi' }],
      })
      expect(azure.received.at(-1)?.path).toBe(
        '/openai/deployments/gpt-4o-deploy/chat/completions?api-version=2024-10-21',
      )
    } finally {
      await served.close()
    }
  })

  it('cloudRoutes: how clients name the models of each configured cloud (for a model page)', () => {
    expect(loadCliConfig([], {}).cloudRoutes).toEqual([])
    const env = { ...cloudEnv(), AWS_REGION: 'us-west-2', AWS_BEARER_TOKEN_BEDROCK: 'bedrock-key' }
    const routes = loadCliConfig([], env).cloudRoutes
    expect(routes.map((route) => [route.id, route.upstream])).toEqual([
      ['azure/<deployment>', 'Azure OpenAI'],
      ['vertex/<model>', 'Google Vertex AI'],
      ['vertex/claude-<model>', 'Google Vertex AI'],
      ['bedrock/<modelId>', 'Amazon Bedrock'],
      ['bedrock-converse/<modelId>', 'Amazon Bedrock'],
    ])
    for (const route of routes) expect(route.note).toBeTruthy()
  })

  it('a credentials file that is not a service-account key is refused with its type named', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'interlingua-cli-')), 'adc.json')
    writeFileSync(file, JSON.stringify({ type: 'authorized_user', client_id: 'x', refresh_token: 'secret-refresh' }))
    expect(() => loadCliConfig([], { GOOGLE_APPLICATION_CREDENTIALS: file })).toThrow(
      /"authorized_user" credential; a service-account key is needed/,
    )
  })
})
