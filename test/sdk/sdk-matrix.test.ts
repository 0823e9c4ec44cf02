/**
 * Issue 4's matrix: each official SDK (openai, @anthropic-ai/sdk, @google/genai) against the gateway on 127.0.0.1,
 * routed to a local upstream of each format, streaming and not, for text, image input, a tool call with its
 * tool-result round trip, and reasoning.
 */
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pngBase64, type Running, startStack, upstreamModels, weatherTool } from './servers.js'

let gateway: Running
let upstream: Running
let upstreamKeys: string[]

beforeAll(async () => {
  ;({ gateway, upstream, upstreamKeys } = await startStack())
})
afterAll(async () => {
  await gateway?.close()
  await upstream?.close()
})

const upstreams = Object.entries(upstreamModels) as Array<[keyof typeof upstreamModels, string]>
const modes = [false, true] as const

describe.each(upstreams)('openai SDK → %s upstream', (_format, model) => {
  const client = () => new OpenAI({ apiKey: 'client-key', baseURL: `${gateway.url}/v1`, maxRetries: 0 })

  async function complete(params: Omit<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, 'model'>, stream: boolean) {
    if (!stream) return client().chat.completions.create({ ...params, model })
    return client()
      .chat.completions.stream({ ...params, model, stream: true, stream_options: { include_usage: true } })
      .finalChatCompletion()
  }

  it.each(modes)('text (stream: %s)', async (stream) => {
    const completion = await complete({ messages: [{ role: 'user', content: 'Say hello' }] }, stream)
    expect(completion.choices[0]?.message.content).toMatch(/\S/)
    expect(completion.choices[0]?.finish_reason).toBe('stop')
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0)
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0)
  })

  it.each(modes)('image input reaches the model (stream: %s)', async (stream) => {
    const completion = await complete(
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64}` } },
            ],
          },
        ],
      },
      stream,
    )
    expect(completion.choices[0]?.message.content).toMatch(/1 image/)
  })

  it.each(modes)('tool call and tool-result round trip (stream: %s)', async (stream) => {
    const tools: OpenAI.Chat.ChatCompletionTool[] = [
      { type: 'function', function: weatherTool as unknown as OpenAI.FunctionDefinition },
    ]
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }]
    const first = await complete({ messages, tools }, stream)
    const call = first.choices[0]?.message.tool_calls?.[0]
    expect(first.choices[0]?.finish_reason).toBe('tool_calls')
    expect(call?.type === 'function' && call.function.name).toBe('get_weather')
    const args = JSON.parse(call?.type === 'function' ? call.function.arguments : '') as Record<string, unknown>
    expect(typeof args.city).toBe('string')
    messages.push(first.choices[0]?.message as OpenAI.Chat.ChatCompletionMessageParam, {
      role: 'tool',
      tool_call_id: call?.id as string,
      content: '{"temperature_c":18}',
    })
    const second = await complete({ messages, tools }, stream)
    expect(second.choices[0]?.finish_reason).toBe('stop')
    expect(second.choices[0]?.message.content).toContain('18')
  })

  it.each(modes)('reasoning (stream: %s)', async (stream) => {
    const completion = await complete(
      { messages: [{ role: 'user', content: 'Think, then answer' }], reasoning_effort: 'high' },
      stream,
    )
    const message = completion.choices[0]?.message as unknown as {
      content: string
      reasoning_content?: string
      reasoning_details?: unknown[]
    }
    expect(message.content).toMatch(/\S/)
    expect(message.reasoning_details?.length).toBeGreaterThan(0)
    expect(completion.usage?.completion_tokens_details?.reasoning_tokens ?? 0).toBeGreaterThan(0)
  })
})

describe.each(upstreams)('@anthropic-ai/sdk → %s upstream', (_format, model) => {
  const client = () => new Anthropic({ apiKey: 'client-key', baseURL: gateway.url, maxRetries: 0 })

  async function create(
    params: Omit<Anthropic.MessageCreateParamsNonStreaming, 'model'>,
    stream: boolean,
  ): Promise<Anthropic.Message> {
    if (!stream) return client().messages.create({ ...params, model })
    return client()
      .messages.stream({ ...params, model })
      .finalMessage()
  }

  it.each(modes)('text (stream: %s)', async (stream) => {
    const message = await create({ max_tokens: 256, messages: [{ role: 'user', content: 'Say hello' }] }, stream)
    expect(message.content[0]?.type).toBe('text')
    expect(message.stop_reason).toBe('end_turn')
    expect(message.usage.input_tokens).toBeGreaterThan(0)
    expect(message.usage.output_tokens).toBeGreaterThan(0)
  })

  it.each(modes)('image input reaches the model (stream: %s)', async (stream) => {
    const message = await create(
      {
        max_tokens: 256,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngBase64 } },
              { type: 'text', text: 'What is this?' },
            ],
          },
        ],
      },
      stream,
    )
    const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('')
    expect(text).toMatch(/1 image/)
  })

  it.each(modes)('tool call and tool-result round trip (stream: %s)', async (stream) => {
    const tools: Anthropic.Tool[] = [
      {
        name: weatherTool.name,
        description: weatherTool.description,
        input_schema: weatherTool.parameters as unknown as Anthropic.Tool.InputSchema,
      },
    ]
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }]
    const first = await create({ max_tokens: 256, messages, tools }, stream)
    expect(first.stop_reason).toBe('tool_use')
    const use = first.content.find((block) => block.type === 'tool_use')
    expect(use?.type === 'tool_use' && use.name).toBe('get_weather')
    expect(typeof (use as Anthropic.ToolUseBlock).input).toBe('object')
    messages.push(
      { role: 'assistant', content: first.content },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: (use as Anthropic.ToolUseBlock).id, content: '{"temperature_c":18}' },
        ],
      },
    )
    const second = await create({ max_tokens: 256, messages, tools }, stream)
    expect(second.stop_reason).toBe('end_turn')
    expect(second.content.map((block) => (block.type === 'text' ? block.text : '')).join('')).toContain('18')
  })

  it.each(modes)('reasoning (stream: %s)', async (stream) => {
    const message = await create(
      {
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        messages: [{ role: 'user', content: 'Think, then answer' }],
      },
      stream,
    )
    const thinking = message.content.find((block) => block.type === 'thinking')
    expect(thinking?.type === 'thinking' && thinking.thinking).toMatch(/\S/)
    expect(message.content.some((block) => block.type === 'text')).toBe(true)
  })
})

describe.each(upstreams)('@google/genai → %s upstream', (_format, model) => {
  const client = () => new GoogleGenAI({ apiKey: 'client-key', httpOptions: { baseUrl: gateway.url } })

  async function generate(params: { contents: unknown; config?: Record<string, unknown> }, stream: boolean) {
    const request = { model, ...params } as Parameters<GoogleGenAI['models']['generateContent']>[0]
    if (!stream) {
      const response = await client().models.generateContent(request)
      return {
        text: response.text ?? '',
        calls: response.functionCalls ?? [],
        parts: response.candidates?.[0]?.content?.parts ?? [],
        finish: response.candidates?.[0]?.finishReason,
        usage: response.usageMetadata,
      }
    }
    let text = ''
    const calls: unknown[] = []
    const parts: unknown[] = []
    let finish: unknown
    let usage: unknown
    for await (const chunk of await client().models.generateContentStream(request)) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        parts.push(part)
        if (part.text && !part.thought) text += part.text
        if (part.functionCall) calls.push(part.functionCall)
      }
      finish = chunk.candidates?.[0]?.finishReason ?? finish
      usage = chunk.usageMetadata ?? usage
    }
    return {
      text,
      calls: calls as Array<{ name?: string; args?: Record<string, unknown> }>,
      parts: parts as Array<{ thought?: boolean; text?: string }>,
      finish,
      usage: usage as { promptTokenCount?: number; candidatesTokenCount?: number } | undefined,
    }
  }

  it.each(modes)('text (stream: %s)', async (stream) => {
    const answer = await generate({ contents: 'Say hello' }, stream)
    expect(answer.text).toMatch(/\S/)
    expect(answer.finish).toBe('STOP')
    expect(answer.usage?.promptTokenCount).toBeGreaterThan(0)
  })

  it.each(modes)('image input reaches the model (stream: %s)', async (stream) => {
    const answer = await generate(
      {
        contents: [
          {
            role: 'user',
            parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: pngBase64 } }],
          },
        ],
      },
      stream,
    )
    expect(answer.text).toMatch(/1 image/)
  })

  it.each(modes)('tool call and tool-result round trip (stream: %s)', async (stream) => {
    const tools = [
      {
        functionDeclarations: [
          {
            name: weatherTool.name,
            description: weatherTool.description,
            parametersJsonSchema: weatherTool.parameters,
          },
        ],
      },
    ]
    const contents: Array<Record<string, unknown>> = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }]
    const first = await generate({ contents, config: { tools } }, stream)
    expect(first.calls[0]?.name).toBe('get_weather')
    expect(typeof first.calls[0]?.args?.city).toBe('string')
    contents.push(
      { role: 'model', parts: first.calls.map((call) => ({ functionCall: call })) },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature_c: 18 } } }] },
    )
    const second = await generate({ contents, config: { tools } }, stream)
    expect(second.calls).toEqual([])
    expect(second.text).toContain('18')
  })

  it.each(modes)('reasoning (stream: %s)', async (stream) => {
    const answer = await generate(
      { contents: 'Think, then answer', config: { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } } },
      stream,
    )
    expect(answer.parts.some((part) => part.thought === true && Boolean(part.text))).toBe(true)
    expect(answer.text).toMatch(/\S/)
  })
})

describe('secrets', () => {
  it('the upstream only ever sees the gateway’s own upstream keys, never the client key', () => {
    expect(upstreamKeys.length).toBeGreaterThan(0)
    for (const key of upstreamKeys) expect(key).not.toContain('client-key')
    expect(upstreamKeys.some((key) => key.includes('upstream-openai-key'))).toBe(true)
    expect(upstreamKeys.some((key) => key.includes('upstream-anthropic-key'))).toBe(true)
    expect(upstreamKeys.some((key) => key.includes('upstream-gemini-key'))).toBe(true)
  })
})
