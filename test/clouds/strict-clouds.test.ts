/**
 * `interlingua/testing`'s cloud stand-ins (`createStrictUpstream({ format, provider })`) behind the gateway: every
 * client format reaches each cloud — Bedrock InvokeModel and Converse, Vertex AI Claude and Gemini, Azure OpenAI chat
 * completions and responses — with an image and with reasoning, JSON and stream. The cloud checks its own rules
 * (SigV4, service-account tokens, api-key, paths, bodies); the strict stand-in of the format behind it checks the body
 * the way the model's service does (image blocks, thinking, fields); a refusal of either fails the row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { FormatId } from '../../src/ir/index.js'
import { createStrictUpstream, type StrictCloud, type StrictCloudUpstream } from '../../src/node/testing/index.js'
import { formatIds, type Json, pngBase64, post, summarize, summarizeSse, wireRequest } from '../gateway-helpers.js'
import { type Running, serve } from '../sdk/servers.js'
import { secondTurn, sendWire } from './matrix.js'

const clouds: Array<{ name: string; cloud: StrictCloud; model: string }> = [
  {
    name: 'bedrock-invoke',
    cloud: { format: 'messages', provider: 'bedrock' },
    model: 'anthropic.claude-sonnet-4-5-20250929-v1:0',
  },
  { name: 'bedrock-converse', cloud: { format: 'converse' }, model: 'anthropic.claude-sonnet-4-5-20250929-v1:0' },
  { name: 'vertex-claude', cloud: { format: 'messages', provider: 'vertex' }, model: 'claude-sonnet-4-5@20250929' },
  { name: 'vertex-gemini', cloud: { format: 'content-generation', provider: 'vertex' }, model: 'gemini-2.5-pro' },
  { name: 'azure-chat', cloud: { format: 'chat-completions', provider: 'azure' }, model: 'gpt-4o-deploy' },
  { name: 'azure-responses', cloud: { format: 'responses', provider: 'azure' }, model: 'gpt-4o-deploy' },
]

const answer = { reasoning: 'The user sent a picture; describing it.', text: 'A small square.' }
const upstreams = new Map<string, StrictCloudUpstream>()
let gateway: Running

beforeAll(async () => {
  for (const { name, cloud } of clouds) upstreams.set(name, await createStrictUpstream({ ...cloud, script: [answer] }))
  const handler = createGateway({
    upstreams: Object.fromEntries([...upstreams].map(([name, upstream]) => [name, upstream.upstream])),
    models: Object.fromEntries(clouds.map(({ name, model }) => [name, { upstream: name, model }])),
  })
  gateway = await serve(handler.fetch)
})

afterAll(async () => {
  await gateway.close()
  for (const upstream of upstreams.values()) await upstream.close()
})

const rows = clouds.flatMap(({ name }) =>
  formatIds.flatMap((client) =>
    (['image', 'reasoning'] as const).flatMap((scenario) =>
      [false, true].map((stream) => [name, client, scenario, stream] as const),
    ),
  ),
)

describe('every client format → each cloud, with an image and with reasoning', () => {
  it.each(rows)('%s ← %s, %s, stream %s', async (name, client: FormatId, scenario, stream) => {
    const upstream = upstreams.get(name) as StrictCloudUpstream
    const before = upstream.requests.length
    const answered = await sendWire(gateway.url, client, name, {
      stream,
      text: 'What is in this picture?',
      ...(scenario === 'image' ? { imageBase64: pngBase64 } : { reasoning: true }),
    })
    const text = await answered.text()
    expect(upstream.rejections).toEqual([])
    expect(answered.status, text).toBe(200)
    const summary = stream ? summarizeSse(client, text) : summarize(client, JSON.parse(text))
    expect(summary.text).toBe(answer.text)
    expect(upstream.requests).toHaveLength(before + 1)
    const sent = JSON.stringify(upstream.requests.at(-1)?.body)
    if (scenario === 'image') expect(sent).toContain(pngBase64.slice(0, 40))
    // The reasoning reaches every client format that has a place for it (chat-completions: `reasoning_content`).
    else expect(text).toContain(answer.reasoning.slice(0, 12))
  })
})

describe('thinking with signatures: a tool round trip through every client format reaches each cloud as it accepts it', () => {
  const rows = clouds.flatMap(({ name, cloud, model }) =>
    formatIds.map((client) => [name, client, cloud, model] as const),
  )
  it.each(rows)('%s ← %s', async (_name, client, cloud, model) => {
    const upstream = await createStrictUpstream({
      ...cloud,
      script: [
        {
          reasoning: 'The user wants the weather.',
          toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
        },
        { text: 'Sunny in Paris.' },
      ],
    })
    try {
      const gw = createGateway({ upstreams: { cloud: upstream.upstream }, models: { m: { upstream: 'cloud', model } } })
      const { path, body } = wireRequest(client, 'm', { text: 'Weather in Paris?', tools: true, reasoning: true })
      const first = await gw.fetch(post(client, path, body))
      const firstBody = (await first.json()) as Json
      expect(first.status, JSON.stringify(firstBody)).toBe(200)
      expect(summarize(client, firstBody).tools).toEqual(['get_weather'])
      const second = await gw.fetch(post(client, path, secondTurn(client, firstBody, body)))
      const text = await second.text()
      expect(upstream.rejections).toEqual([])
      expect(second.status, text).toBe(200)
      expect(summarize(client, JSON.parse(text)).text).toBe('Sunny in Paris.')
      const replayed = JSON.stringify(upstream.requests[1]?.body)
      // The signature the cloud's model issued on turn 1 is in turn 2 (Azure chat completions has none).
      const issued = /"(signature|thoughtSignature|encrypted_content)":"([^"]+)"/.exec(JSON.stringify(firstBody))
      if (cloud.format !== 'chat-completions' && issued && !issued[2]?.startsWith('il1.'))
        expect(replayed).toContain(issued[2])
    } finally {
      await upstream.close()
    }
  })
})
