/**
 * The clouds through the service (issue 23): a service process started with only each cloud's own environment
 * variables (the ones the `interlingua` CLI reads — AWS_*, GOOGLE_*, AZURE_OPENAI_* — with BEDROCK_BASE_URL,
 * VERTEX_BASE_URL and the endpoint pointing at the strict cloud stand-ins of `interlingua/testing`) is reached by all
 * four client formats, JSON and stream, for Claude on Bedrock (InvokeModel) and another Bedrock model (Converse),
 * Gemini and Claude on Vertex AI, and a GPT deployment on Azure OpenAI. The stand-ins check what each cloud checks
 * (SigV4 recomputed with the secret, the service account's JWT and then its token, Azure's api-key, path and
 * version, the body rules) and refuse anything else; the listed models are on /v1/models and the console's model page.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import { createStrictUpstream } from 'interlingua/testing'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browser, createKey, signUp, startMailCatcher } from './support/client.mjs'
import { fastest, testDatabase } from './support/databases.mjs'
import { startService } from './support/processes.mjs'

const said = {
  bedrock: 'Hello from Amazon Bedrock.',
  vertex: 'Hello from Vertex AI.',
  azure: 'Hello from Azure OpenAI.',
}
/** Each target: the model id a client names, the cloud that serves it, and the path (stream, JSON) it must reach. */
const targets = [
  {
    model: 'bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0',
    cloud: 'bedrock',
    path: (stream) =>
      `/model/${encodeURIComponent('anthropic.claude-sonnet-4-5-20250929-v1:0')}/${stream ? 'invoke-with-response-stream' : 'invoke'}`,
  },
  {
    model: 'bedrock/amazon.nova-pro-v1:0',
    cloud: 'bedrock',
    path: (stream) => `/model/${encodeURIComponent('amazon.nova-pro-v1:0')}/${stream ? 'converse-stream' : 'converse'}`,
  },
  {
    model: 'vertex/gemini-2.5-flash',
    cloud: 'vertex',
    path: (stream) =>
      `/publishers/google/models/gemini-2.5-flash:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
  },
  {
    model: 'vertex/claude-sonnet-4-5',
    cloud: 'vertex',
    path: (stream) => `/publishers/anthropic/models/claude-sonnet-4-5:${stream ? 'streamRawPredict' : 'rawPredict'}`,
  },
  {
    model: 'azure/gpt-4o-deploy',
    cloud: 'azure',
    path: (_stream, client) => `/openai/v1/${client === 'responses' ? 'responses' : 'chat/completions'}`,
  },
]

describe('the service in front of Bedrock, Vertex AI and Azure OpenAI, from their environment variables', () => {
  const clouds = {}
  let mail, database, service, keyDir, key

  beforeAll(async () => {
    ;[clouds.bedrock, clouds.vertex, clouds.azure] = await Promise.all([
      createStrictUpstream({ format: 'messages', provider: 'bedrock', script: [{ text: said.bedrock }] }),
      createStrictUpstream({ format: 'content-generation', provider: 'vertex', script: [{ text: said.vertex }] }),
      createStrictUpstream({ format: 'chat-completions', provider: 'azure', script: [{ text: said.azure }] }),
    ])
    const { bedrock, vertex, azure } = Object.fromEntries(Object.entries(clouds).map(([k, v]) => [k, v.upstream]))
    keyDir = mkdtempSync(join(tmpdir(), 'interlingua-service-clouds-'))
    const keyFile = join(keyDir, 'service-account.json')
    writeFileSync(keyFile, JSON.stringify(vertex.auth.serviceAccount))
    mail = await startMailCatcher()
    database = await testDatabase(fastest())
    service = await startService({
      ...database.env,
      SMTP_URL: mail.url,
      MAIL_FROM: 'test@127.0.0.1',
      AWS_REGION: bedrock.region,
      AWS_ACCESS_KEY_ID: bedrock.auth.accessKeyId,
      AWS_SECRET_ACCESS_KEY: bedrock.auth.secretAccessKey,
      BEDROCK_BASE_URL: bedrock.baseURL,
      BEDROCK_MODELS: 'anthropic.claude-sonnet-4-5-20250929-v1:0,amazon.nova-pro-v1:0',
      GOOGLE_APPLICATION_CREDENTIALS: keyFile,
      GOOGLE_CLOUD_PROJECT: vertex.project,
      GOOGLE_CLOUD_LOCATION: vertex.location,
      VERTEX_BASE_URL: vertex.baseURL,
      VERTEX_MODELS: 'gemini-2.5-flash,claude-sonnet-4-5',
      AZURE_OPENAI_ENDPOINT: azure.baseURL,
      AZURE_OPENAI_API_KEY: azure.apiKey,
      AZURE_OPENAI_DEPLOYMENTS: 'gpt-4o-deploy',
    })
    key = await createKey(await signUp(browser(service.base), mail, 'clouds@example.com'))
  })
  afterAll(async () => {
    await service?.stop()
    await Promise.all(Object.values(clouds).map((cloud) => cloud.close()))
    await mail?.close()
    await database?.cleanup()
    if (keyDir) rmSync(keyDir, { recursive: true, force: true })
  })

  it('starts with the three clouds named (and no secret) in its start-up lines', () => {
    const output = service.output()
    expect(output).toMatch(/upstream bedrock \(Amazon Bedrock/)
    expect(output).toMatch(/upstream vertex \(Vertex AI/)
    expect(output).toMatch(/upstream azure \(Azure OpenAI/)
    expect(output).not.toContain(clouds.bedrock.upstream.auth.secretAccessKey)
    expect(output).not.toContain(clouds.azure.upstream.apiKey)
    expect(output).not.toContain('PRIVATE KEY')
  })

  /** One call from `client`'s official SDK; the answer's text. */
  async function ask(client, model, stream) {
    const base = service.base
    const prompt = 'Say hello'
    if (client === 'chat-completions') {
      const openai = new OpenAI({ apiKey: key, baseURL: `${base}/v1`, maxRetries: 0 })
      const messages = [{ role: 'user', content: prompt }]
      if (!stream) return (await openai.chat.completions.create({ model, messages })).choices[0].message.content
      let text = ''
      for await (const chunk of await openai.chat.completions.create({ model, messages, stream }))
        text += chunk.choices[0]?.delta?.content ?? ''
      return text
    }
    if (client === 'responses') {
      const openai = new OpenAI({ apiKey: key, baseURL: `${base}/v1`, maxRetries: 0 })
      if (!stream) return (await openai.responses.create({ model, input: prompt })).output_text
      return (await openai.responses.stream({ model, input: prompt }).finalResponse()).output_text
    }
    if (client === 'messages') {
      const anthropic = new Anthropic({ apiKey: key, baseURL: base, maxRetries: 0 })
      const params = { model, max_tokens: 256, messages: [{ role: 'user', content: prompt }] }
      const message = stream
        ? await anthropic.messages.stream(params).finalMessage()
        : await anthropic.messages.create(params)
      return message.content.map((block) => block.text ?? '').join('')
    }
    const gemini = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: base } })
    if (!stream) return (await gemini.models.generateContent({ model, contents: prompt })).text
    let text = ''
    for await (const chunk of await gemini.models.generateContentStream({ model, contents: prompt }))
      text += chunk.text ?? ''
    return text
  }

  const clients = ['chat-completions', 'responses', 'messages', 'content-generation']
  const cases = targets.flatMap((target) =>
    clients.flatMap((client) => [false, true].map((stream) => [target.model, client, stream ? 'stream' : 'JSON'])),
  )
  it.each(cases)('%s from a %s client (%s)', async (model, client, mode) => {
    const target = targets.find((t) => t.model === model)
    const cloud = clouds[target.cloud]
    const stream = mode === 'stream'
    const before = cloud.requests.length
    expect(await ask(client, model, stream)).toBe(said[target.cloud])
    expect(cloud.rejections).toEqual([])
    const calls = cloud.requests.slice(before)
    expect(calls).toHaveLength(1)
    expect(calls[0].path).toContain(target.path(stream, client))
  })

  it('lists the clouds’ models on /v1/models and the console’s model page, with their id patterns', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${service.base}/v1`, maxRetries: 0 })
    const listed = (await openai.models.list()).data.map((model) => model.id)
    expect(listed).toEqual([
      'azure/gpt-4o-deploy',
      'vertex/gemini-2.5-flash',
      'vertex/claude-sonnet-4-5',
      'bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0',
      'bedrock/amazon.nova-pro-v1:0',
    ])
    const page = browser(service.base)
    await signUp(page, mail, 'clouds@example.com')
    const { html } = await page.go('/models')
    for (const id of [...listed, 'bedrock/&lt;modelId&gt;', 'vertex/claude-&lt;model&gt;', 'azure/&lt;deployment&gt;'])
      expect(html).toContain(id)
    expect(html).toMatch(/Amazon Bedrock — Claude \(anthropic/)
    expect(html).toContain('Google Vertex AI — Claude models (rawPredict)')
  })
})
