/**
 * Issue 21 §4: one conversation, two providers. A model id routed to Gemini and another to Anthropic (Claude Code's
 * `opus` → Gemini, `sonnet` → Anthropic; a `/model` switch mid-session), driven by the official SDKs through the
 * gateway to the strict stand-ins (./strict-upstreams.ts), which reject foreign, unsigned and non-base64 signatures as
 * the real services do. Turn 2 goes to the other provider in the client's own format — a passthrough — and must be
 * accepted: the gateway forwards only that provider's own reasoning (DESIGN §4.1, §4.3).
 */

import { createOpenAI } from '@ai-sdk/openai'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import { generateText, jsonSchema, type ModelMessage, stepCountIs, tool } from 'ai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { Json } from '../gateway-helpers.js'
import { type Running, serve, weatherTool } from './servers.js'
import { type StrictUpstream, startStrictUpstream } from './strict-upstreams.js'

let upstream: StrictUpstream
let gateway: Running
const warnings: string[] = []

beforeAll(async () => {
  upstream = await startStrictUpstream()
  const options = {
    upstreams: {
      anthropic: { format: 'messages' as const, baseURL: upstream.url, apiKey: 'up-anthropic' },
      gemini: { format: 'content-generation' as const, baseURL: upstream.url, apiKey: 'up-gemini' },
      openai: { format: 'responses' as const, baseURL: `${upstream.url}/v1`, apiKey: 'up-openai' },
    },
    models: {
      'claude-sonnet-5-5': { upstream: 'anthropic', model: 'claude-sonnet-5-5' },
      'gemini-3-pro': { upstream: 'gemini', model: 'gemini-3-pro' },
      'gpt-5': { upstream: 'openai', model: 'gpt-5' },
    },
    apiKeys: ['client-key'],
    onWarning: (warning: { message: string }) => warnings.push(warning.message),
  }
  gateway = await serve(createGateway(options).fetch)
})
afterAll(async () => {
  await gateway?.close()
  await upstream?.close()
})

const anthropicTools: Anthropic.Tool[] = [
  { name: weatherTool.name, description: weatherTool.description, input_schema: weatherTool.parameters as never },
]

describe.each([false, true])('Anthropic SDK: turn 1 from Gemini, turn 2 to Anthropic (stream: %s)', (stream) => {
  const client = () => new Anthropic({ apiKey: 'client-key', baseURL: gateway.url, maxRetries: 0 })
  const ask = async (model: string, messages: Anthropic.MessageParam[]) => {
    const params = {
      model,
      max_tokens: 4096,
      thinking: { type: 'enabled' as const, budget_tokens: 1024 },
      tools: anthropicTools,
      messages,
    }
    return stream ? client().messages.stream(params).finalMessage() : client().messages.create(params)
  }

  it('every thinking block has a signature; Anthropic gets none of Gemini’s, and Gemini gets its own back', async () => {
    const before = upstream.rejections.length
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }]
    const first = await ask('gemini-3-pro', messages)
    const thinking = first.content.find((block) => block.type === 'thinking') as Anthropic.ThinkingBlock
    expect(thinking.thinking).toContain('I should call get_weather')
    expect(thinking.signature).not.toBe('')
    expect(first.content.map((block) => block.type)).toEqual(['thinking', 'redacted_thinking', 'tool_use'])
    const call = first.content.find((block) => block.type === 'tool_use') as Anthropic.ToolUseBlock
    messages.push({ role: 'assistant', content: first.content })
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '18°C' }] })

    const second = await ask('claude-sonnet-5-5', messages)
    expect(second.content.at(-1)).toMatchObject({ type: 'text', text: expect.stringMatching(/^Done after/) })
    expect(upstream.rejections.slice(before)).toEqual([])
    const sent = upstream.received.at(-1) as Json
    expect(sent.messages[1].content.map((block: Json) => block.type)).toEqual(['tool_use'])
    expect(sent.thinking).toEqual({ type: 'disabled' })
    expect(warnings).toContain(
      'thinking disabled: an assistant tool-use turn has no signed thinking block from messages',
    )

    // The client still holds Gemini's envelope: turn 3 back to Gemini carries its signature on the call.
    messages.push({ role: 'assistant', content: second.content }, { role: 'user', content: 'And in Rome?' })
    await ask('gemini-3-pro', messages)
    expect(upstream.rejections.slice(before)).toEqual([])
    const model = ((upstream.received.at(-1) as Json).contents as Json[]).find((c) => c.role === 'model') as Json
    expect(model.parts.find((part: Json) => part.functionCall).thoughtSignature).toMatch(/^CiQB/)
  })
})

describe('@google/genai: turn 1 from Anthropic, turn 2 to Gemini', () => {
  it('the envelope is not sent to Gemini, and the call gets the documented stand-in signature', async () => {
    const before = upstream.rejections.length
    const ai = new GoogleGenAI({ apiKey: 'client-key', httpOptions: { baseUrl: gateway.url } })
    const config = {
      tools: [
        {
          functionDeclarations: [
            { ...weatherTool, parameters: undefined, parametersJsonSchema: weatherTool.parameters },
          ],
        },
      ],
      thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 },
    }
    const contents: Json[] = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }]
    const first = await ai.models.generateContent({ model: 'claude-sonnet-5-5', contents, config })
    const turn = first.candidates?.[0]?.content as Json
    const thought = turn.parts.find((part: Json) => part.thought)
    expect(thought.thoughtSignature).toMatch(/^il1\./)
    const call = turn.parts.find((part: Json) => part.functionCall).functionCall
    contents.push(turn, {
      role: 'user',
      parts: [{ functionResponse: { id: call.id, name: call.name, response: { temperature_c: 18 } } }],
    })

    const second = await ai.models.generateContent({ model: 'gemini-3-pro', contents, config })
    expect(second.text).toMatch(/^Done after/)
    expect(upstream.rejections.slice(before)).toEqual([])
    const sent = ((upstream.received.at(-1) as Json).contents as Json[]).find((c) => c.role === 'model') as Json
    expect(JSON.stringify(sent)).not.toContain('il1.')
    expect(sent.parts).toEqual([
      {
        functionCall: expect.objectContaining({ name: 'get_weather' }),
        thoughtSignature: 'skip_thought_signature_validator',
      },
    ])

    // Turn 3 back to Anthropic (translated): its own signed thinking comes back from the envelope.
    contents.push(second.candidates?.[0]?.content as Json, { role: 'user', parts: [{ text: 'And in Rome?' }] })
    await ai.models.generateContent({ model: 'claude-sonnet-5-5', contents, config })
    expect(upstream.rejections.slice(before)).toEqual([])
    const assistant = ((upstream.received.at(-1) as Json).messages as Json[]).find((m) => m.role === 'assistant')
    expect(assistant.content[0]).toMatchObject({ type: 'thinking', signature: expect.stringMatching(/^EqQB/) })
  })
})

describe('Responses clients: turn 1 from Anthropic, turn 2 to OpenAI (a Responses upstream)', () => {
  it('openai SDK replaying the whole input: the envelope reasoning item is left out', async () => {
    const before = upstream.rejections.length
    const client = new OpenAI({ apiKey: 'client-key', baseURL: `${gateway.url}/v1`, maxRetries: 0 })
    const tools: OpenAI.Responses.FunctionTool[] = [
      { type: 'function', ...weatherTool, strict: false, parameters: weatherTool.parameters as never },
    ]
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Weather in Paris?' }]
    const params = { tools, reasoning: { effort: 'low' as const }, store: false }
    const first = await client.responses.create({ model: 'claude-sonnet-5-5', input, ...params })
    const reasoning = first.output.find((item) => item.type === 'reasoning') as OpenAI.Responses.ResponseReasoningItem
    expect(reasoning.encrypted_content).toMatch(/^il1\./)
    const call = first.output.find((item) => item.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall
    input.push(...(first.output as OpenAI.Responses.ResponseInputItem[]))
    input.push({ type: 'function_call_output', call_id: call.call_id, output: '18°C' })
    const second = await client.responses.create({ model: 'gpt-5', input, ...params })
    expect(second.output_text).toMatch(/^Done after/)
    expect(upstream.rejections.slice(before)).toEqual([])
    expect(JSON.stringify(upstream.received.at(-1))).not.toContain('il1.')
  })

  it('the AI SDK with default settings (store: true, item references) switching model mid-loop', async () => {
    const before = upstream.rejections.length
    const provider = createOpenAI({ apiKey: 'client-key', baseURL: `${gateway.url}/v1` })
    const getWeather = tool({
      description: weatherTool.description,
      inputSchema: jsonSchema<{ city: string }>(weatherTool.parameters as never),
      execute: async ({ city }) => ({ city, temperature_c: 21 }),
    })
    const messages: ModelMessage[] = [{ role: 'user', content: 'Weather in Paris?' }]
    const common = {
      tools: { get_weather: getWeather },
      maxRetries: 0,
      providerOptions: { openai: { forceReasoning: true } },
    }
    const first = await generateText({
      model: provider('claude-sonnet-5-5'),
      messages,
      stopWhen: stepCountIs(1),
      ...common,
    })
    expect(first.toolResults[0]?.toolName).toBe('get_weather')
    messages.push(...first.response.messages)
    // The references name items this gateway stored (an Anthropic turn): OpenAI never saw them.
    const second = await generateText({ model: provider('gpt-5'), messages, stopWhen: stepCountIs(1), ...common })
    expect(second.text).toMatch(/^Done after/)
    expect(upstream.rejections.slice(before)).toEqual([])
    const sent = JSON.stringify(upstream.received.at(-1))
    expect(sent).not.toContain('item_reference')
    expect(sent).not.toContain('il1.')
  })
})
