/** The embedded mock model at the IR level: deterministic answers, tool calls from the schema, reasoning, media, usage, streams. */
import { describe, expect, it } from 'vitest'
import { createMockModel } from '../src/gateway/mock-model.js'
import type * as ir from '../src/ir/index.js'

const mock = createMockModel()
const user = (text: string, extra: ir.UserMessage['content'] = []): ir.UserMessage => ({
  role: 'user',
  content: [{ type: 'text', text }, ...extra],
})
const weather: ir.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      unit: { enum: ['c', 'f'] },
      days: { type: 'integer' },
      verbose: { type: 'boolean' },
    },
    required: ['city', 'unit', 'days'],
  },
}

async function collect(stream: ReadableStream<ir.StreamEvent>): Promise<ir.StreamEvent[]> {
  const out: ir.StreamEvent[] = []
  for await (const event of stream as unknown as AsyncIterable<ir.StreamEvent>) out.push(event)
  return out
}

describe('createMockModel().generate', () => {
  it('answers text deterministically, quoting the prompt, with usage', () => {
    const request: ir.Request = { model: 'm', messages: [user('Say hello')] }
    const first = mock.generate(request)
    expect(first).toEqual({
      id: first.id,
      model: 'm',
      created: 1_767_225_600,
      content: [{ type: 'text', text: 'This is the interlingua mock model answering "Say hello".' }],
      finishReason: { unified: 'stop' },
      usage: { inputTokens: 3, outputTokens: 15, totalTokens: 18 },
    })
    expect(first.id).toMatch(/^mock-[0-9a-f]{8}$/)
    expect(mock.generate(structuredClone(request))).toEqual(first)
    expect(mock.generate({ model: 'm', messages: [user('Other')] }).id).not.toBe(first.id)
  })

  it('calls the first tool with arguments built from the required properties', () => {
    const response = mock.generate({
      model: 'm',
      messages: [user('Weather?')],
      tools: [weather, { type: 'function', name: 'other' }],
    })
    expect(response.finishReason).toEqual({ unified: 'tool-calls' })
    expect(response.content).toEqual([
      {
        type: 'tool-call',
        id: expect.stringMatching(/^call_mock_[0-9a-f]{8}$/),
        name: 'get_weather',
        arguments: '{"city":"example city","unit":"c","days":1}',
      },
    ])
  })

  it('honours a named tool choice and tool choice none', () => {
    const named = mock.generate({
      model: 'm',
      messages: [user('x')],
      tools: [weather, { type: 'function', name: 'other' }],
      toolChoice: { type: 'tool', name: 'other' },
    })
    expect(named.content).toEqual([{ type: 'tool-call', id: expect.any(String), name: 'other', arguments: '{}' }])
    const none = mock.generate({ model: 'm', messages: [user('x')], tools: [weather], toolChoice: { type: 'none' } })
    expect(none.content[0]?.type).toBe('text')
  })

  it('quotes the tool result after a tool message', () => {
    const response = mock.generate({
      model: 'm',
      tools: [weather],
      messages: [
        user('Weather?'),
        {
          role: 'assistant',
          content: [{ type: 'tool-call', id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'get_weather',
              content: [{ type: 'text', text: '{"temperature_c":18}' }],
            },
          ],
        },
      ],
    })
    expect(response.finishReason).toEqual({ unified: 'stop' })
    expect(response.content).toEqual([
      { type: 'text', text: 'The tool results are in: get_weather returned {"temperature_c":18}.' },
    ])
  })

  it('describes the images it received', () => {
    const response = mock.generate({
      model: 'm',
      messages: [
        user('What is this?', [{ type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AAAA' } }]),
      ],
    })
    expect(response.content[0]).toEqual({
      type: 'text',
      text: 'This is the interlingua mock model answering "What is this?". I see 1 image (image/png).',
    })
  })

  it('reasons first, with a deterministic signature, when reasoning is requested', () => {
    for (const reasoning of [{ enabled: true }, { effort: 'high' as const }, { budgetTokens: 2048 }]) {
      const response = mock.generate({ model: 'm', messages: [user('Think')], reasoning })
      expect(response.content[0]).toEqual({
        type: 'reasoning',
        text: 'The user asked: "Think". A short, direct answer will do.',
        providerData: { messages: { signature: expect.stringMatching(/^mock-signature-[0-9a-f]{8}$/) } },
      })
      expect(response.usage?.reasoningTokens).toBe(14)
    }
    expect(
      mock.generate({ model: 'm', messages: [user('Think')], reasoning: { effort: 'none' } }).content[0]?.type,
    ).toBe('text')
    expect(
      mock.generate({ model: 'm', messages: [user('Think')], reasoning: { enabled: false, effort: 'high' } }).content[0]
        ?.type,
    ).toBe('text')
  })
})

describe('createMockModel().stream', () => {
  it('streams the same answer in several deltas, then finish with usage', async () => {
    const request: ir.Request = { model: 'm', messages: [user('Say hello')], reasoning: { effort: 'low' } }
    const events = await collect(mock.stream(request))
    const expected = mock.generate(request)
    expect(events[0]).toEqual({
      type: 'message-start',
      id: expected.id,
      model: 'm',
      created: 1_767_225_600,
      usage: { inputTokens: expected.usage?.inputTokens },
    })
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: { unified: 'stop' }, usage: expected.usage })
    const textDeltas = events.filter((event) => event.type === 'text-delta')
    expect(textDeltas.length).toBeGreaterThan(2)
    expect(textDeltas.map((event) => (event.type === 'text-delta' ? event.text : '')).join('')).toBe(
      (expected.content[1] as ir.TextPart).text,
    )
    expect(events.find((event) => event.type === 'reasoning-end')).toEqual({
      type: 'reasoning-end',
      index: 0,
      providerData: expected.content[0]?.providerData,
    })
  })

  it('streams a tool call in argument fragments', async () => {
    const events = await collect(mock.stream({ model: 'm', messages: [user('Weather?')], tools: [weather] }))
    const types = events.map((event) => event.type)
    expect(types[0]).toBe('message-start')
    expect(types[1]).toBe('tool-call-start')
    expect(types.at(-2)).toBe('tool-call-end')
    const args = events.map((event) => (event.type === 'tool-call-delta' ? event.argumentsDelta : '')).join('')
    expect(JSON.parse(args)).toEqual({ city: 'example city', unit: 'c', days: 1 })
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls' } })
  })
})
