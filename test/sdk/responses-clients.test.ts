/**
 * Responses clients against the gateway on 127.0.0.1 (issue 13): the official `openai` SDK (`responses.create`,
 * `responses.stream().finalResponse()`), the Vercel AI SDK (`generateText` / `streamText` with a tool round trip)
 * and the OpenAI Agents SDK (`run` with a function tool), each routed to a local upstream of every format (and the
 * embedded mock model): text, image input, tool round trip, reasoning round trip, errors.
 */
import { createOpenAI } from '@ai-sdk/openai'
import { Agent, tool as agentTool, OpenAIResponsesModel, Runner, setTracingDisabled } from '@openai/agents'
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createGateway } from '../../src/gateway/create-gateway.js'
import { pngBase64, type Running, serve, startStack, upstreamModels, weatherTool } from './servers.js'

let gateway: Running
let upstream: Running
let mockGateway: Running

beforeAll(async () => {
  ;({ gateway, upstream } = await startStack())
  mockGateway = await serve(createGateway().fetch)
  setTracingDisabled(true)
})
afterAll(async () => {
  await gateway?.close()
  await upstream?.close()
  await mockGateway?.close()
})

/** Every upstream format, plus the embedded mock model (no upstream at all). */
const targets: Array<[string, string, () => string]> = [
  ...(Object.entries(upstreamModels) as Array<[string, string]>).map(
    ([format, model]) => [format, model, () => gateway.url] as [string, string, () => string],
  ),
  ['mock model', 'any-model', () => mockGateway.url],
]
const modes = [false, true] as const
const functionTool = {
  type: 'function' as const,
  name: weatherTool.name,
  description: weatherTool.description,
  parameters: weatherTool.parameters as unknown as Record<string, unknown>,
  strict: true,
}

describe.each(targets)('openai SDK responses → %s', (_name, model, url) => {
  const client = () => new OpenAI({ apiKey: 'client-key', baseURL: `${url()}/v1`, maxRetries: 0 })

  async function respond(
    params: Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'model' | 'stream'>,
    stream: boolean,
  ) {
    if (!stream) return client().responses.create({ ...params, model })
    return client()
      .responses.stream({ ...params, model })
      .finalResponse()
  }

  it.each(modes)('text (stream: %s)', async (stream) => {
    const response = await respond({ input: 'Say hello', instructions: 'Be brief.' }, stream)
    expect(response.status).toBe('completed')
    expect(response.output_text).toContain('Say hello')
    expect(response.usage?.input_tokens).toBeGreaterThan(0)
    expect(response.usage?.output_tokens_details.reasoning_tokens).toBe(0)
  })

  it.each(modes)('image input reaches the model (stream: %s)', async (stream) => {
    const response = await respond(
      {
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'What is this?' },
              { type: 'input_image', image_url: `data:image/png;base64,${pngBase64}`, detail: 'auto' },
            ],
          },
        ],
      },
      stream,
    )
    expect(response.output_text).toMatch(/1 image/)
  })

  it.each(modes)('function call and function_call_output round trip (stream: %s)', async (stream) => {
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Weather in Paris?' }]
    const first = await respond({ input, tools: [functionTool] }, stream)
    const call = first.output.find((item) => item.type === 'function_call')
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', status: 'completed' })
    if (call?.type !== 'function_call') throw new Error('no call')
    expect(call.id).toMatch(/^fc_/)
    expect(typeof (JSON.parse(call.arguments) as { city?: unknown }).city).toBe('string')
    // The Agents SDK way: send every output item back as received, then the output.
    input.push(...(first.output as OpenAI.Responses.ResponseInputItem[]), {
      type: 'function_call_output',
      call_id: call.call_id,
      output: '{"temperature_c":18}',
    })
    const second = await respond({ input, tools: [functionTool] }, stream)
    expect(second.output.some((item) => item.type === 'function_call')).toBe(false)
    expect(second.output_text).toContain('18')
  })

  it.each(modes)('reasoning comes back as a reasoning item and round-trips (stream: %s)', async (stream) => {
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Think, then answer' }]
    const first = await respond(
      { input, reasoning: { effort: 'high', summary: 'auto' }, tools: [functionTool] },
      stream,
    )
    const reasoning = first.output.find((item) => item.type === 'reasoning')
    expect(reasoning).toBeDefined()
    if (reasoning?.type !== 'reasoning') throw new Error('no reasoning')
    expect(reasoning.summary.length).toBeGreaterThan(0)
    expect(first.usage?.output_tokens_details.reasoning_tokens).toBeGreaterThan(0)
    const call = first.output.find((item) => item.type === 'function_call')
    if (call?.type !== 'function_call') throw new Error('no call')
    // Codex's way: items without ids, reasoning as summary + encrypted_content.
    input.push(
      {
        type: 'reasoning',
        summary: reasoning.summary,
        encrypted_content: reasoning.encrypted_content ?? null,
      } as never,
      { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
      { type: 'function_call_output', call_id: call.call_id, output: 'sunny' },
    )
    const second = await respond({ input, reasoning: { effort: 'high' }, tools: [functionTool] }, stream)
    expect(second.output_text).toContain('sunny')
  })

  it.each(modes)(
    "Codex's custom apply_patch tool: the call comes back as custom_tool_call (stream: %s)",
    async (stream) => {
      const tools: OpenAI.Responses.Tool[] = [
        {
          type: 'custom',
          name: 'apply_patch',
          description: 'Apply a patch to the workspace',
          format: { type: 'grammar', syntax: 'lark', definition: 'start: /(.|\\n)+/' },
        },
      ]
      const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Fix the typo' }]
      const first = await respond({ input, tools }, stream)
      const call = first.output.find((item) => item.type === 'custom_tool_call')
      expect(call).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', input: 'example input' })
      expect(first.output.some((item) => item.type === 'function_call')).toBe(false)
      if (call?.type !== 'custom_tool_call') throw new Error('no custom call')
      input.push(
        { type: 'custom_tool_call', call_id: call.call_id, name: call.name, input: call.input },
        { type: 'custom_tool_call_output', call_id: call.call_id, output: 'patched 1 file' },
      )
      const second = await respond({ input, tools }, stream)
      expect(second.output_text).toContain('patched 1 file')
    },
  )

  it('previous_response_id is refused with previous_response_not_found (no store)', async () => {
    if (model === upstreamModels.responses) return // a Responses upstream gets it as sent (passthrough)
    const error = await client()
      .responses.create({ model, input: 'and then?', previous_response_id: 'resp_earlier' })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(OpenAI.BadRequestError)
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('previous_response_not_found')
  })
})

describe.each(targets)('Vercel AI SDK (openai(model) = Responses) → %s', (_name, model, url) => {
  const provider = () => createOpenAI({ apiKey: 'client-key', baseURL: `${url()}/v1` })
  const tools = {
    get_weather: tool({
      description: weatherTool.description,
      inputSchema: jsonSchema<{ city: string }>(weatherTool.parameters as never),
      execute: async ({ city }) => ({ city, temperature_c: 21 }),
    }),
  }

  it('generateText with a tool round trip', async () => {
    const result = await generateText({
      model: provider()(model),
      prompt: 'Weather in Paris?',
      tools,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    })
    expect(result.steps[0]?.toolCalls[0]?.toolName).toBe('get_weather')
    expect(result.steps[0]?.finishReason).toBe('tool-calls')
    expect(result.text).toContain('21')
    expect(result.finishReason).toBe('stop')
    expect(result.totalUsage.inputTokens).toBeGreaterThan(0)
  })

  it('streamText with a tool round trip', async () => {
    const result = streamText({
      model: provider()(model),
      prompt: 'Weather in Paris?',
      tools,
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    })
    let text = ''
    for await (const delta of result.textStream) text += delta
    const steps = await result.steps
    expect(steps[0]?.toolCalls[0]?.toolName).toBe('get_weather')
    expect(text).toContain('21')
    expect(await result.finishReason).toBe('stop')
  })
})

describe.each(targets)('OpenAI Agents SDK → %s', (_name, model, url) => {
  it.each(modes)('run with a function tool (stream: %s)', async (stream) => {
    const client = new OpenAI({ apiKey: 'client-key', baseURL: `${url()}/v1`, maxRetries: 0 })
    const getWeather = agentTool({
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => `${city}: 19 degrees`,
    })
    const agent = new Agent({
      name: 'weather',
      instructions: 'Answer with the weather.',
      model: new OpenAIResponsesModel(client as never, model),
      tools: [getWeather],
    })
    const runner = new Runner({ tracingDisabled: true })
    if (stream) {
      const result = await runner.run(agent, 'Weather in Paris?', { stream: true, maxTurns: 4 })
      await result.completed
      expect(String(result.finalOutput)).toContain('19 degrees')
    } else {
      const result = await runner.run(agent, 'Weather in Paris?', { maxTurns: 4 })
      expect(String(result.finalOutput)).toContain('19 degrees')
      expect(result.newItems.some((item) => item.type === 'tool_call_item')).toBe(true)
    }
  })
})
