/**
 * Issue 10 §1: multi-turn tool loops with thinking on, for every client × upstream pair, streaming and not, driven by
 * the official SDKs against the gateway on 127.0.0.1, in front of upstreams that reject missing, altered or foreign
 * signatures the way the real services do (./strict-upstreams.ts). Turn 2 must reach the upstream with the exact
 * signature it issued on turn 1 — carried back by the client in an envelope (messages, content-generation clients),
 * in `reasoning_details`, or kept by the gateway by tool-call id when a chat-completions client drops it.
 */
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { Json } from '../gateway-helpers.js'
import { type Running, serve, weatherTool } from './servers.js'
import { type StrictUpstream, startStrictUpstream, strictGatewayOptions, strictModels } from './strict-upstreams.js'

const models = strictModels
type Upstream = keyof typeof models

let upstream: StrictUpstream
let gateway: Running
let forgetful: Running

function gatewayOptions(reasoningStore?: false) {
  return { ...strictGatewayOptions(upstream.url), ...(reasoningStore === false ? { reasoningStore } : {}) }
}

beforeAll(async () => {
  upstream = await startStrictUpstream()
  gateway = await serve(createGateway(gatewayOptions()).fetch)
  forgetful = await serve(createGateway(gatewayOptions(false)).fetch)
})
afterAll(async () => {
  await gateway?.close()
  await forgetful?.close()
  await upstream?.close()
})

const upstreams = Object.keys(models) as Upstream[]
const modes = [false, true] as const
const pairs = upstreams.flatMap((to) => modes.map((stream) => [to, stream] as const))

/** What turn 2 must show upstream: the signature issued on turn 1, byte-exact, and thinking still on. */
function expectContinuity(to: Upstream, rejectionsBefore: number) {
  expect(upstream.rejections.slice(rejectionsBefore)).toEqual([])
  const [first, second] = upstream.received.slice(-2) as [Json, Json]
  if (to === 'messages') {
    expect(second.thinking?.type).toBe('enabled')
    const assistant = (second.messages as Json[]).find((m) => m.role === 'assistant')
    expect(assistant.content[0].type).toBe('thinking')
    expect(assistant.content[0].signature).toMatch(/^EqQB/)
    expect(JSON.stringify(first)).not.toContain(assistant.content[0].signature) // issued by the answer, not sent before
  }
  if (to === 'content-generation') {
    const model = (second.contents as Json[]).find((c) => c.role === 'model')
    const call = model.parts.find((p: Json) => p.functionCall)
    expect(call.thoughtSignature).toMatch(/^CiQB/)
  }
}

async function openaiLoop(
  url: string | readonly [string, string],
  to: Upstream,
  stream: boolean,
  echo: 'as-received' | 'bare',
  keys: readonly [string, string] = ['client-key', 'client-key'],
) {
  const [url1, url2] = typeof url === 'string' ? [url, url] : url
  let client = new OpenAI({ apiKey: keys[0], baseURL: `${url1}/v1`, maxRetries: 0 })
  const tools: OpenAI.Chat.ChatCompletionTool[] = [
    { type: 'function', function: weatherTool as unknown as OpenAI.FunctionDefinition },
  ]
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }]
  const call = async () => {
    const params = { model: models[to], messages, tools, reasoning_effort: 'low' as const }
    return stream
      ? client.chat.completions.stream({ ...params, stream: true }).finalChatCompletion()
      : client.chat.completions.create(params)
  }
  const first = (await call()).choices[0]?.message as OpenAI.Chat.ChatCompletionMessage
  const toolCall = first.tool_calls?.[0] as OpenAI.Chat.ChatCompletionMessageFunctionToolCall
  expect(toolCall.function.name).toBe('get_weather')
  // The Vercel AI SDK, LangChain and the Agents SDK send back only these three fields.
  messages.push(echo === 'bare' ? { role: 'assistant', content: first.content, tool_calls: first.tool_calls } : first)
  messages.push({ role: 'tool', tool_call_id: toolCall.id, content: '{"temperature_c":18}' })
  client = new OpenAI({ apiKey: keys[1], baseURL: `${url2}/v1`, maxRetries: 0 })
  return (await call()).choices[0]?.message.content
}

describe.each(pairs)('openai SDK, thinking + tools → %s upstream (stream: %s)', (to, stream) => {
  it('replaying the message it received (reasoning_details)', async () => {
    const before = upstream.rejections.length
    expect(await openaiLoop(gateway.url, to, stream, 'as-received')).toMatch(/^Done after/)
    expectContinuity(to, before)
  })
  it('replaying only role, content and tool_calls (the gateway keeps the reasoning by tool-call id)', async () => {
    const before = upstream.rejections.length
    expect(await openaiLoop(gateway.url, to, stream, 'bare')).toMatch(/^Done after/)
    expectContinuity(to, before)
  })
})

describe('shared entries (reasoningStore.shared): turn 1 on one gateway, turn 2 on another', () => {
  const entries = new Map<string, unknown>()
  const writes: string[] = []
  let one: Running
  let two: Running
  beforeAll(async () => {
    // An asynchronous store both gateways use, like a table: JSON in, JSON out, a little later.
    const later = () => new Promise((resolve) => setTimeout(resolve, 5))
    const shared = {
      async get(scope: string, id: string) {
        await later()
        const found = entries.get(`${scope} ${id}`)
        return found === undefined ? undefined : JSON.parse(JSON.stringify(found))
      },
      async put(scope: string, id: string, details: unknown) {
        await later()
        writes.push(scope)
        entries.set(`${scope} ${id}`, JSON.parse(JSON.stringify(details)))
      },
    }
    one = await serve(createGateway({ ...gatewayOptions(), reasoningStore: { shared } }).fetch)
    two = await serve(createGateway({ ...gatewayOptions(), reasoningStore: { shared } }).fetch)
  })
  afterAll(async () => {
    await one?.close()
    await two?.close()
  })

  it.each(modes)('the client replays only role, content and tool_calls (stream: %s)', async (stream) => {
    const before = upstream.rejections.length
    const written = writes.length
    expect(await openaiLoop([one.url, two.url], 'messages', stream, 'bare')).toMatch(/^Done after/)
    expectContinuity('messages', before)
    expect(writes.length).toBe(written + 1) // only turn 1 called a tool
    expect(writes.at(-1)).not.toContain('client-key') // scoped by a hash of the key, never the key
  })
})

describe('the kept reasoning is scoped by Caller.id (else by key)', () => {
  let accounts: Running
  beforeAll(async () => {
    const options = {
      ...gatewayOptions(),
      apiKeys: [],
      authenticate: (key: string) =>
        key.startsWith('ada-') ? { id: 'acct-ada' } : key === 'bo-key' ? { id: 'bo' } : false,
    }
    accounts = await serve(createGateway(options).fetch)
  })
  afterAll(async () => {
    await accounts?.close()
  })

  it('another key of the same account gets it back; another account does not', async () => {
    const before = upstream.rejections.length
    expect(await openaiLoop(accounts.url, 'messages', false, 'bare', ['ada-1', 'ada-2'])).toMatch(/^Done after/)
    expectContinuity('messages', before)
    // Another account's turn 2 gets no signature: the gateway turns thinking off for it rather than send none.
    expect(await openaiLoop(accounts.url, 'messages', false, 'bare', ['ada-1', 'bo-key'])).toMatch(/^Done after/)
    const second = upstream.received.at(-1) as Json
    expect(second.thinking?.type).not.toBe('enabled')
    expect(JSON.stringify(second)).not.toMatch(/EqQB/)
  })
})

describe.each(pairs)('@anthropic-ai/sdk, thinking + tools → %s upstream (stream: %s)', (to, stream) => {
  it('turn 2 carries the signatures back (envelopes in thinking / redacted_thinking blocks)', async () => {
    const before = upstream.rejections.length
    const client = new Anthropic({ apiKey: 'client-key', baseURL: gateway.url, maxRetries: 0 })
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }]
    const tools: Anthropic.Tool[] = [
      {
        name: weatherTool.name,
        description: weatherTool.description,
        input_schema: weatherTool.parameters as unknown as Anthropic.Tool.InputSchema,
      },
    ]
    const call = async () => {
      const params = {
        model: models[to],
        max_tokens: 4096,
        thinking: { type: 'enabled' as const, budget_tokens: 2048 },
        tools,
        messages,
      }
      return stream ? client.messages.stream(params).finalMessage() : client.messages.create(params)
    }
    const first = await call()
    const use = first.content.find((block) => block.type === 'tool_use') as Anthropic.ToolUseBlock
    expect(use.name).toBe('get_weather')
    messages.push({ role: 'assistant', content: first.content })
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '18°C' }] })
    const second = await call()
    expect(second.content.find((block) => block.type === 'text')).toMatchObject({
      text: expect.stringMatching(/^Done after/),
    })
    expectContinuity(to, before)
  })
})

describe.each(pairs)('@google/genai, thinking + tools → %s upstream (stream: %s)', (to, stream) => {
  it('turn 2 carries the signatures back (envelopes in thoughtSignature)', async () => {
    const before = upstream.rejections.length
    const ai = new GoogleGenAI({ apiKey: 'client-key', httpOptions: { baseUrl: gateway.url } })
    const config = {
      tools: [
        {
          functionDeclarations: [
            {
              name: weatherTool.name,
              description: weatherTool.description,
              parametersJsonSchema: weatherTool.parameters,
            },
          ],
        },
      ],
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
    }
    const contents: Json[] = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }]
    const call = async (): Promise<Json[]> => {
      const request = { model: models[to], contents, config }
      if (!stream) return (await ai.models.generateContent(request)).candidates?.[0]?.content?.parts ?? []
      const parts: Json[] = []
      for await (const chunk of await ai.models.generateContentStream(request))
        parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []))
      return parts
    }
    const first = await call()
    const functionCall = first.find((part) => part.functionCall)?.functionCall
    expect(functionCall?.name).toBe('get_weather')
    contents.push({ role: 'model', parts: first })
    contents.push({
      role: 'user',
      parts: [{ functionResponse: { name: functionCall.name, response: { temperature_c: 18 } } }],
    })
    const second = await call()
    expect(
      second
        .filter((p) => !p.thought)
        .map((p) => p.text ?? '')
        .join(''),
    ).toMatch(/^Done after/)
    expectContinuity(to, before)
  })
})

describe('where the reasoning is truly gone, the upstream gets what it accepts', () => {
  it.each(['messages', 'content-generation'] as const)(
    '→ %s: thinking off with a warning / the stand-in signature',
    async (to) => {
      const before = upstream.rejections.length
      const response = await fetch(`${forgetful.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer client-key' },
        body: JSON.stringify({
          model: models[to],
          reasoning_effort: 'low',
          tools: [{ type: 'function', function: weatherTool }],
          messages: [
            { role: 'user', content: 'Weather in Paris?' },
            {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'call_lost', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              ],
            },
            { role: 'tool', tool_call_id: 'call_lost', content: '18' },
          ],
        }),
      })
      expect(response.status).toBe(200)
      expect(upstream.rejections.slice(before)).toEqual([])
      const sent = upstream.received.at(-1) as Json
      if (to === 'messages') {
        expect(sent.thinking).toEqual({ type: 'disabled' })
        expect(response.headers.get('x-interlingua-warnings')).toMatch(/thinking disabled/)
      } else {
        const model = (sent.contents as Json[]).find((c) => c.role === 'model')
        expect(model.parts[0].thoughtSignature).toBe('skip_thought_signature_validator')
      }
    },
  )
})
