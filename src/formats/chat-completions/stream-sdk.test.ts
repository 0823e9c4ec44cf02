import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import OpenAI from 'openai'
import { afterEach, describe, expect, it } from 'vitest'
import type * as ir from '../../ir/index.js'
import type { SseFrame } from '../format.js'
import { createEncodeStream } from './encode-stream.js'

/** Official-SDK acceptance: the encoder's frames, served over loopback, read by the real `openai` client. */

function streamOf<T>(items: readonly T[]): ReadableStream<T> {
  let next = 0
  return new ReadableStream<T>({
    pull(controller) {
      if (next < items.length) controller.enqueue(items[next++] as T)
      else controller.close()
    },
  })
}

async function encode(events: ir.StreamEvent[], includeUsage: boolean): Promise<SseFrame[]> {
  const out: SseFrame[] = []
  await streamOf(events)
    .pipeThrough(createEncodeStream({ includeUsage }))
    .pipeTo(new WritableStream({ write: (frame) => void out.push(frame) }))
  return out
}

function serialize(frames: SseFrame[]): string {
  return frames
    .map((frame) => (frame.comment !== undefined ? `: ${frame.comment}\n\n` : `data: ${frame.data}\n\n`))
    .join('')
}

const servers: Server[] = []
const requests: unknown[] = []

afterEach(async () => {
  requests.length = 0
  const open = servers.splice(0)
  await Promise.all(
    open.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        }),
    ),
  )
})

async function serve(events: ir.StreamEvent[], includeUsage = true): Promise<OpenAI> {
  const body = serialize(await encode(events, includeUsage))
  const server = createServer((request, response) => {
    let text = ''
    request.on('data', (piece) => {
      text += piece
    })
    request.on('end', () => {
      requests.push(JSON.parse(text))
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      // Write in small pieces to exercise the SDK's own SSE reassembly.
      for (let i = 0; i < body.length; i += 37) response.write(body.slice(i, i + 37))
      response.end()
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as AddressInfo
  return new OpenAI({ apiKey: 'test', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 })
}

const params = {
  model: 'gpt-4o',
  messages: [{ role: 'user' as const, content: 'hi' }],
  stream_options: { include_usage: true },
}
const start: ir.StreamEvent = { type: 'message-start', id: 'chatcmpl-sdk', model: 'gpt-4o', created: 1700000000 }
const usage = { inputTokens: 10, outputTokens: 5, cachedInputTokens: 4, reasoningTokens: 2 }
const wireUsage = {
  prompt_tokens: 10,
  completion_tokens: 5,
  total_tokens: 15,
  prompt_tokens_details: { cached_tokens: 4, audio_tokens: 0 },
  completion_tokens_details: {
    reasoning_tokens: 2,
    audio_tokens: 0,
    accepted_prediction_tokens: 0,
    rejected_prediction_tokens: 0,
  },
}

const textEvents: ir.StreamEvent[] = [
  start,
  { type: 'text-start', index: 0 },
  { type: 'text-delta', index: 0, text: 'Ça ' },
  { type: 'ping' },
  { type: 'text-delta', index: 0, text: 'marche 👍' },
  { type: 'text-end', index: 0 },
  { type: 'finish', finishReason: { unified: 'stop' }, usage },
]

const toolEvents: ir.StreamEvent[] = [
  start,
  { type: 'reasoning-start', index: 0 },
  { type: 'reasoning-delta', index: 0, text: 'Two cities, ' },
  { type: 'reasoning-delta', index: 0, text: 'two calls.' },
  { type: 'reasoning-end', index: 0, providerData: { messages: { signature: 'EqQBsig==' } } },
  { type: 'tool-call-start', index: 1, id: 'call_paris', name: 'get_weather' },
  { type: 'tool-call-start', index: 2, id: 'call_tokyo', name: 'get_weather' },
  { type: 'tool-call-delta', index: 1, argumentsDelta: '{"city":' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '{"city":"Tōkyō"}' },
  { type: 'tool-call-delta', index: 1, argumentsDelta: '"Paris"}' },
  { type: 'tool-call-end', index: 1 },
  { type: 'tool-call-end', index: 2, providerData: { 'content-generation': { thoughtSignature: 'dGhvdWdodA==' } } },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use', rawFormat: 'messages' }, usage },
]

const reasoningDetails = [
  {
    type: 'reasoning.text',
    text: 'Two cities, two calls.',
    index: 0,
    format: 'messages',
    signature: 'EqQBsig==',
    provider_data: { messages: { signature: 'EqQBsig==' } },
  },
  {
    type: 'provider-data',
    index: 2,
    id: 'call_tokyo',
    provider_data: { 'content-generation': { thoughtSignature: 'dGhvdWdodA==' } },
  },
]

describe('chat-completions encode stream × official openai SDK', () => {
  it('create({stream: true}) yields the text, finish_reason and usage', async () => {
    const client = await serve(textEvents)
    const stream = await client.chat.completions.create({ ...params, stream: true })
    let text = ''
    const finishes: Array<string | null> = []
    let finalUsage: unknown
    for await (const chunk of stream) {
      for (const choice of chunk.choices) {
        text += choice.delta.content ?? ''
        if (choice.finish_reason) finishes.push(choice.finish_reason)
      }
      if (chunk.usage) finalUsage = chunk.usage
    }
    expect(text).toBe('Ça marche 👍')
    expect(finishes).toEqual(['stop'])
    expect(finalUsage).toEqual(wireUsage)
    expect(requests).toEqual([{ ...params, stream: true }])
  })

  it('stream().finalChatCompletion() assembles the text message', async () => {
    const client = await serve(textEvents)
    const completion = await client.chat.completions.stream(params).finalChatCompletion()
    expect(completion.id).toBe('chatcmpl-sdk')
    expect(completion.choices).toEqual([
      {
        index: 0,
        finish_reason: 'stop',
        logprobs: null,
        message: { role: 'assistant', content: 'Ça marche 👍', refusal: null, parsed: null },
      },
    ])
    expect(completion.usage).toEqual(wireUsage)
  })

  it('parallel tool calls and the reasoning carrier survive finalChatCompletion()', async () => {
    const client = await serve(toolEvents)
    const completion = await client.chat.completions.stream(params).finalChatCompletion()
    const choice = completion.choices[0]
    expect(choice?.finish_reason).toBe('tool_calls')
    expect(choice?.message.tool_calls).toEqual([
      { id: 'call_paris', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'call_tokyo', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Tōkyō"}' } },
    ])
    const message = choice?.message as unknown as Record<string, unknown>
    expect(message.reasoning_details).toEqual(reasoningDetails)
    expect(completion.usage).toEqual(wireUsage)
  })

  it('create({stream: true}) yields the tool-call deltas by index', async () => {
    const client = await serve(toolEvents, false)
    const stream = await client.chat.completions.create({ ...params, stream: true, stream_options: undefined })
    const args = ['', '']
    const ids: string[] = []
    let finish: string | null = null
    for await (const chunk of stream) {
      expect(chunk.usage).toBeUndefined()
      const choice = chunk.choices[0]
      for (const call of choice?.delta.tool_calls ?? []) {
        if (call.id) ids.push(call.id)
        args[call.index] += call.function?.arguments ?? ''
      }
      finish = choice?.finish_reason ?? finish
    }
    expect(ids).toEqual(['call_paris', 'call_tokyo'])
    expect(args).toEqual(['{"city":"Paris"}', '{"city":"Tōkyō"}'])
    expect(finish).toBe('tool_calls')
  })

  it('an error event makes the SDK throw an APIError with the message', async () => {
    const events: ir.StreamEvent[] = [
      start,
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'partial' },
      { type: 'error', error: { code: 'overloaded', status: 503, message: 'Upstream overloaded' } },
    ]
    const client = await serve(events)
    const stream = await client.chat.completions.create({ ...params, stream: true })
    let text = ''
    const iterate = async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
    }
    const error = await iterate().then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(error).toBeInstanceOf(OpenAI.APIError)
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toBe('Upstream overloaded')
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toEqual({
      message: 'Upstream overloaded',
      type: 'server_error',
      param: null,
      code: 'overloaded',
    })
    expect(text).toBe('partial')

    const again = await serve(events)
    await expect(again.chat.completions.stream(params).finalChatCompletion()).rejects.toThrow('Upstream overloaded')
  })
})
