/**
 * The CLI with only the clouds' own environment variables and a base URL (`AZURE_OPENAI_ENDPOINT`, `VERTEX_BASE_URL`,
 * `BEDROCK_BASE_URL` at the strict stand-ins): every client format reaches each cloud route — `azure/<deployment>`,
 * `vertex/claude-…`, `vertex/gemini-…`, `bedrock/<Anthropic id>` (InvokeModel), `bedrock/<other id>` and
 * `bedrock-converse/<id>` (Converse) — JSON and stream, on the cloud's own endpoint; and the ids the clouds'
 * `…_DEPLOYMENTS`/`…_MODELS` variables name are in every format's model listing.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import { loadCliConfig } from '../../src/node/cli-config.js'
import { type AzureStandIn, azureKey } from '../../src/node/testing/clouds/azure.js'
import type { BedrockStandIn } from '../../src/node/testing/clouds/bedrock.js'
import type { CloudReceived } from '../../src/node/testing/clouds/front.js'
import type { VertexStandIn } from '../../src/node/testing/clouds/vertex.js'
import { formatIds, type Json, summarize, summarizeSse } from '../gateway-helpers.js'
import { type Running, serve } from '../sdk/servers.js'
import { awsEnv, claudeId, novaId } from './bedrock-fixture.js'
import { sendWire } from './matrix.js'
import { startMockAzure, startMockBedrock, startMockVertex } from './mock-backend.js'

let azure: AzureStandIn
let vertex: VertexStandIn
let bedrock: BedrockStandIn
let served: Running

beforeAll(async () => {
  azure = await startMockAzure()
  vertex = await startMockVertex()
  bedrock = await startMockBedrock()
  const keyFile = join(mkdtempSync(join(tmpdir(), 'interlingua-cli-')), 'key.json')
  writeFileSync(keyFile, JSON.stringify(vertex.serviceAccount))
  const config = loadCliConfig(['--port', '0'], {
    AZURE_OPENAI_ENDPOINT: azure.url,
    AZURE_OPENAI_API_KEY: azureKey,
    AZURE_OPENAI_DEPLOYMENTS: 'gpt-4o-deploy',
    GOOGLE_APPLICATION_CREDENTIALS: keyFile,
    GOOGLE_CLOUD_LOCATION: vertex.location,
    VERTEX_BASE_URL: vertex.url,
    VERTEX_MODELS: 'claude-sonnet-4-5, gemini-2.5-flash',
    ...awsEnv(bedrock),
    BEDROCK_MODELS: `${claudeId},bedrock-converse/${claudeId},${novaId}`,
  })
  served = await serve(createGateway(config.gateway).fetch)
})
afterAll(async () => {
  await served.close()
  await Promise.all([azure.close(), vertex.close(), bedrock.close()])
})

const enc = encodeURIComponent
/** Each route, the stand-in that serves it and the path it must reach (JSON, stream); Azure's depends on the client. */
const routes: Array<[string, () => CloudReceived[], (client: string, stream: boolean) => string]> = [
  [
    'azure/gpt-4o-deploy',
    () => azure.received,
    (client) => `/openai/v1/${client === 'responses' ? 'responses' : 'chat/completions'}`,
  ],
  [
    'vertex/claude-sonnet-4-5',
    () => vertex.received,
    (_, stream) => `/publishers/anthropic/models/claude-sonnet-4-5:${stream ? 'streamRawPredict' : 'rawPredict'}`,
  ],
  [
    'vertex/gemini-2.5-flash',
    () => vertex.received,
    (_, stream) =>
      `/publishers/google/models/gemini-2.5-flash:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
  ],
  [
    `bedrock/${claudeId}`,
    () => bedrock.received,
    (_, stream) => `/model/${enc(claudeId)}/${stream ? 'invoke-with-response-stream' : 'invoke'}`,
  ],
  [
    `bedrock/${novaId}`,
    () => bedrock.received,
    (_, stream) => `/model/${enc(novaId)}/${stream ? 'converse-stream' : 'converse'}`,
  ],
  [
    `bedrock-converse/${claudeId}`,
    () => bedrock.received,
    (_, stream) => `/model/${enc(claudeId)}/${stream ? 'converse-stream' : 'converse'}`,
  ],
]

const cells = routes.flatMap((route) =>
  formatIds.flatMap((client) => [false, true].map((stream) => [route[0], client, stream, route] as const)),
)

describe('CLI from the clouds’ environment variables: every client format → each cloud route', () => {
  it.each(cells)('%s ← %s, stream %s', async (model, client, stream, [, received, path]) => {
    const answer = await sendWire(served.url, client, model, { stream, text: 'Say hello' })
    const text = await answer.text()
    expect(answer.status, text).toBe(200)
    const summary = stream ? summarizeSse(client, text) : summarize(client, JSON.parse(text))
    expect(summary.text).toContain('Say hello')
    expect(received().at(-1)?.path).toContain(path(client, stream))
  })

  it('the listed cloud models are in every format’s model listing', async () => {
    const expected = [
      'azure/gpt-4o-deploy',
      'vertex/claude-sonnet-4-5',
      'vertex/gemini-2.5-flash',
      `bedrock/${claudeId}`,
      `bedrock-converse/${claudeId}`,
      `bedrock/${novaId}`,
    ]
    const openai = (await (
      await fetch(`${served.url}/v1/models`, { headers: { authorization: 'Bearer k' } })
    ).json()) as Json
    expect(openai.data.map((model: Json) => model.id)).toEqual(expected)
    const anthropic = (await (
      await fetch(`${served.url}/v1/models`, { headers: { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' } })
    ).json()) as Json
    expect(anthropic.data.map((model: Json) => model.id)).toEqual(expected)
    const gemini = (await (
      await fetch(`${served.url}/v1beta/models`, { headers: { 'x-goog-api-key': 'k' } })
    ).json()) as Json
    expect(gemini.models.map((model: Json) => model.name)).toEqual(expected.map((id) => `models/${id}`))
    const one = await fetch(`${served.url}/v1/models/${enc(`bedrock/${novaId}`)}`, {
      headers: { authorization: 'Bearer k' },
    })
    expect(one.status).toBe(200)
  })
})
