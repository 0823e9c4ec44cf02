/**
 * The README's "Testing your app" example, verbatim but for the import paths (the package's `interlingua/…` entries
 * are the built files; here the sources): the OpenAI SDK, through the gateway, to a strict messages upstream.
 */
import OpenAI from 'openai'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway.js'
import { createStrictUpstream, type StrictUpstream } from '../../src/node/testing/index.js'

let upstream: StrictUpstream
let gateway: ReturnType<typeof createGateway>

beforeAll(async () => {
  upstream = await createStrictUpstream({
    format: 'messages',
    script: [{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { text: 'Sunny in Paris.' }],
  })
  gateway = createGateway({
    upstreams: { anthropic: { format: 'messages', baseURL: upstream.baseURL, apiKey: upstream.apiKey } },
    models: { 'my-model': { upstream: 'anthropic', model: 'claude-sonnet-4-5' } },
  })
})
afterAll(async () => {
  await upstream.close()
})

it('a tool round trip reaches Anthropic as Anthropic accepts it', async () => {
  const openai = new OpenAI({
    baseURL: 'http://gateway.test/v1',
    apiKey: 'unused',
    fetch: (url, init) => gateway.fetch(new Request(url, init)),
  })
  const tools = [
    {
      type: 'function' as const,
      function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
    },
  ]
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }]
  const first = await openai.chat.completions.create({ model: 'my-model', messages, tools })
  const call = first.choices[0]?.message.tool_calls?.[0]
  expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' })

  messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call!.id, content: '18°C, sunny' })
  const second = await openai.chat.completions.create({ model: 'my-model', messages, tools })
  expect(second.choices[0]?.message.content).toBe('Sunny in Paris.')
  // What Anthropic received: a tool_result paired with the tool_use it answered, max_tokens set.
  const sent = upstream.requests[1]?.body
  expect(sent.max_tokens).toBeGreaterThan(0)
  expect(sent.messages[2].content[0]).toMatchObject({
    type: 'tool_result',
    tool_use_id: sent.messages[1].content[0].id,
  })
  expect(upstream.rejections).toEqual([])
})
