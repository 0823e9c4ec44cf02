/**
 * Responses clients that keep no server state (`store: false`, Codex's and the AI SDK's stateless mode) over an
 * upstream whose reasoning has no signature (chat-completions `reasoning_content`), through a gateway that keeps
 * nothing either (`reasoningStore: false`, `responseStore: false`). Such a client sends reasoning back only through
 * `encrypted_content` — the AI SDK with `store: false` drops every reasoning item without one, and Codex asks for it
 * with `include: ["reasoning.encrypted_content"]` — so every reasoning item carries the gateway's envelope (the
 * envelope of nothing), and turn 2 reaches the upstream with turn 1's reasoning text.
 */
import { createOpenAI } from '@ai-sdk/openai'
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import { unwrapEnvelope } from '../../src/shared/reasoning-envelope.js'
import type { Json } from '../gateway-helpers.js'
import { type Running, serve, weatherTool } from './servers.js'
import { type StrictUpstream, startStrictUpstream, strictGatewayOptions, strictModels } from './strict-upstreams.js'

let upstream: StrictUpstream
let gateway: Running

beforeAll(async () => {
  upstream = await startStrictUpstream()
  const options = {
    ...strictGatewayOptions(upstream.url),
    reasoningStore: false as const,
    responseStore: false as const,
  }
  gateway = await serve(createGateway(options).fetch)
})
afterAll(async () => {
  await gateway?.close()
  await upstream?.close()
})

const model = strictModels['chat-completions']
const modes = [false, true] as const
/** The reasoning text the stand-in answers a first turn with. */
const issued = /^I should call get_weather \(turn \d+\)\.$/

/** The assistant turn of the last request the chat-completions upstream received. */
function lastAssistant(): Json {
  const sent = upstream.received.at(-1) as Json
  return (sent.messages as Json[]).find((message) => message.role === 'assistant')
}

describe.each(modes)('openai SDK, Codex-style request (stream: %s)', (stream) => {
  it('reasoning items carry encrypted_content, and the text sent back reaches the upstream', async () => {
    const client = new OpenAI({ apiKey: 'client-key', baseURL: `${gateway.url}/v1`, maxRetries: 0 })
    const tools: OpenAI.Responses.Tool[] = [
      {
        type: 'function',
        name: weatherTool.name,
        description: weatherTool.description,
        parameters: weatherTool.parameters as unknown as Record<string, unknown>,
        strict: false,
      },
    ]
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Weather in Paris?' }]
    const params = () => ({
      model,
      input,
      tools,
      reasoning: { effort: 'low' as const, summary: 'auto' as const },
      include: ['reasoning.encrypted_content' as const],
      store: false,
    })
    const respond = () =>
      stream ? client.responses.stream(params()).finalResponse() : client.responses.create(params())
    const first = await respond()
    const reasoning = first.output.find((item) => item.type === 'reasoning')
    if (reasoning?.type !== 'reasoning') throw new Error('no reasoning item')
    const thought = reasoning.summary.map((part) => part.text).join('')
    expect(thought).toMatch(issued)
    // The gateway's envelope, holding no provider's signature (the upstream issued none).
    expect(unwrapEnvelope(reasoning.encrypted_content)).toEqual({ providerData: {} })
    const call = first.output.find((item) => item.type === 'function_call')
    if (call?.type !== 'function_call') throw new Error('no call')
    // Codex's way: items without ids; reasoning as summary + encrypted_content.
    input.push(
      { type: 'reasoning', summary: reasoning.summary, encrypted_content: reasoning.encrypted_content } as never,
      { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
      { type: 'function_call_output', call_id: call.call_id, output: '{"temperature_c":18}' },
    )
    const second = await respond()
    expect(second.output_text).toMatch(/^Done after/)
    expect(lastAssistant().reasoning_content).toBe(thought)
    expect(JSON.stringify(upstream.received.at(-1))).not.toContain('il1.')
  })
})

describe('Vercel AI SDK, store: false', () => {
  const loop = () => ({
    model: createOpenAI({ apiKey: 'client-key', baseURL: `${gateway.url}/v1` })(model),
    prompt: 'Weather in Paris?',
    tools: {
      get_weather: tool({
        description: weatherTool.description,
        inputSchema: jsonSchema<{ city: string }>(weatherTool.parameters as never),
        execute: async ({ city }) => ({ city, temperature_c: 21 }),
      }),
    },
    stopWhen: stepCountIs(3),
    providerOptions: {
      openai: { store: false, forceReasoning: true, reasoningEffort: 'low', reasoningSummary: 'auto' },
    },
    maxRetries: 0,
  })

  it('generateText: step 2 sends the reasoning back (it drops reasoning items without encrypted_content)', async () => {
    const result = await generateText(loop())
    const thought = result.steps[0]?.reasoningText
    expect(thought).toMatch(issued)
    expect(result.text).toMatch(/^Done after/)
    expect(result.steps[1]?.warnings ?? []).toEqual([])
    expect(lastAssistant().reasoning_content).toBe(thought)
  })

  it('streamText: the same loop streamed', async () => {
    const result = streamText(loop())
    let text = ''
    for await (const delta of result.textStream) text += delta
    expect(text).toMatch(/^Done after/)
    const thought = (await result.steps)[0]?.reasoningText
    expect(thought).toMatch(issued)
    expect(lastAssistant().reasoning_content).toBe(thought)
  })
})
