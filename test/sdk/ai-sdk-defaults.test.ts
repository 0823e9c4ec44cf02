/**
 * Issue 21 §3: the Vercel AI SDK's `openai(model)` with its default settings (Responses, `store` left at true) in a
 * reasoning + tool loop. Step 2 sends the step-1 reasoning item back as `{type: "item_reference", id: "rs_…"}`, so a
 * gateway in front of a translated upstream must resolve it: the response store is on by default (bounded, in
 * memory), and `responseStore: false` is the stateless gateway. The upstreams are the strict stand-ins
 * (./strict-upstreams.ts), which reject a tool turn that lost its signed reasoning.
 */
import { createOpenAI } from '@ai-sdk/openai'
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { GatewayOptions } from '../../src/gateway/options.js'
import type { Json } from '../gateway-helpers.js'
import { type Running, serve, weatherTool } from './servers.js'
import { type StrictUpstream, startStrictUpstream } from './strict-upstreams.js'

let upstream: StrictUpstream
let gateway: Running
let stateless: Running

function options(extra: Partial<GatewayOptions> = {}): GatewayOptions {
  return {
    upstreams: {
      anthropic: { format: 'messages', baseURL: upstream.url, apiKey: 'up-anthropic' },
      gemini: { format: 'content-generation', baseURL: upstream.url, apiKey: 'up-gemini' },
    },
    // An id the AI SDK knows reasons (o4-mini) and one it does not (forceReasoning).
    models: {
      'o4-mini': { upstream: 'anthropic', model: 'claude-sonnet-4-5' },
      'house-gemini': { upstream: 'gemini', model: 'gemini-3-pro' },
    },
    apiKeys: ['client-key'],
    ...extra,
  }
}

beforeAll(async () => {
  upstream = await startStrictUpstream()
  gateway = await serve(createGateway(options()).fetch)
  stateless = await serve(createGateway(options({ responseStore: false })).fetch)
})
afterAll(async () => {
  await gateway?.close()
  await stateless?.close()
  await upstream?.close()
})

const tools = {
  get_weather: tool({
    description: weatherTool.description,
    inputSchema: jsonSchema<{ city: string }>(weatherTool.parameters as never),
    execute: async ({ city }) => ({ city, temperature_c: 21 }),
  }),
}

const cases = [
  ['messages (thinking on)', 'o4-mini', {}],
  ['content-generation', 'house-gemini', { openai: { forceReasoning: true, reasoningEffort: 'low' } }],
] as const

describe.each(cases)('openai(model) default settings, reasoning + tool loop → %s upstream', (_name, model, extra) => {
  /** The settings every call shares: `openai(model)` as created, the tool, up to three steps. */
  const loop = (url: string) => ({
    model: createOpenAI({ apiKey: 'client-key', baseURL: `${url}/v1` })(model),
    prompt: 'Weather in Paris?',
    tools,
    stopWhen: stepCountIs(3),
    providerOptions: { ...extra } as never,
    maxRetries: 0,
  })

  it('generateText: step 2 (item references) is accepted by the strict upstream', async () => {
    const before = upstream.rejections.length
    const sent = upstream.received.length
    const result = await generateText(loop(gateway.url))
    expect(result.steps[0]?.toolCalls[0]?.toolName).toBe('get_weather')
    expect(result.steps[0]?.reasoningText).toContain('I should call get_weather')
    expect(result.text).toMatch(/^Done after/)
    expect(upstream.rejections.slice(before)).toEqual([])
    // Step 2 carried the step-1 signature back (resolved from the store), so the upstream saw its own reasoning.
    const second = upstream.received[sent + 1] as Json
    const history = JSON.stringify(second.messages ?? second.contents)
    expect(history).toMatch(model === 'o4-mini' ? /"signature":"EqQB/ : /"thoughtSignature":"CiQB/)
  })

  it('streamText: the same loop streamed', async () => {
    const before = upstream.rejections.length
    const result = streamText(loop(gateway.url))
    let text = ''
    for await (const delta of result.textStream) text += delta
    expect(text).toMatch(/^Done after/)
    expect((await result.steps)[0]?.toolCalls[0]?.toolName).toBe('get_weather')
    expect(upstream.rejections.slice(before)).toEqual([])
  })

  it('responseStore: false is stateless: step 2 is a 400 that says what to do', async () => {
    const error = await generateText(loop(stateless.url)).catch((caught: unknown) => caught)
    expect(String((error as Error).message)).toContain('store: false')
  })
})
