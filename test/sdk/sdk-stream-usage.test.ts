/**
 * Usage of a chat-completions passthrough stream whose client did not ask for it (the OpenAI SDKs' default): with
 * `onResponse` set, the gateway asks the upstream for `stream_options.include_usage` and cuts the usage-only chunk
 * out of the forwarded bytes. The official `openai` SDK on 127.0.0.1, through `gateway.fetch` and
 * `toNodeListener(gateway)`, in front of a stand-in that streams like OpenAI (`"usage":null` on every chunk and a
 * final `choices: []` usage chunk, only when asked).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { GatewayOptions, GatewayResponseEvent } from '../../src/gateway/options.js'
import { toNodeListener } from '../../src/node.js'
import { type Running, serve } from './servers.js'

const upstreamUsage = {
  prompt_tokens: 13,
  completion_tokens: 7,
  total_tokens: 20,
  prompt_tokens_details: { cached_tokens: 4, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 2, audio_tokens: 0 },
}
const pieces = ['Hel', 'lo ', 'wor', 'ld']

/** What the stand-in received: the raw body text of each request. */
const received: string[] = []

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => {
      text += chunk
    })
    request.on('end', () => resolve(text))
  })
}

/** An OpenAI-like chat-completions upstream: usage in the stream only with `stream_options.include_usage`. */
function startStandIn(): Promise<{ url: string; server: Server }> {
  const server = createServer(async (request, response) => {
    const text = await readBody(request)
    received.push(text)
    const body = JSON.parse(text)
    const withUsage = body.stream_options?.include_usage === true
    const frame = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-standin',
        object: 'chat.completion.chunk',
        created: 1700000000,
        model: body.model,
        choices,
        ...(withUsage ? { usage: null } : {}),
        ...extra,
      })}\n\n`
    response.writeHead(200, { 'content-type': 'text/event-stream' })
    response.write(frame([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]))
    for (const piece of pieces) response.write(frame([{ index: 0, delta: { content: piece }, finish_reason: null }]))
    const finish = frame([{ index: 0, delta: {}, finish_reason: 'stop' }])
    // The usage chunk shares its write with the finish chunk and [DONE]: the cut keeps the events around it.
    response.end(`${finish}${withUsage ? frame([], { usage: upstreamUsage }) : ''}data: [DONE]\n\n`)
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })
    })
  })
}

function serveNode(options: GatewayOptions): Promise<Running> {
  const server = createServer(toNodeListener(createGateway(options)))
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    })
  })
}

let standIn: { url: string; server: Server }
const events: GatewayResponseEvent[] = []
const running: Running[] = []

const options = (onResponse: boolean): GatewayOptions => ({
  upstreams: { openai: { format: 'chat-completions', baseURL: `${standIn.url}/v1`, apiKey: 'upstream-key' } },
  ...(onResponse ? { onResponse: (event: GatewayResponseEvent) => events.push(event) } : {}),
})

const gateways: Record<string, { listening: string; silent: string }> = {}

beforeAll(async () => {
  standIn = await startStandIn()
  const web = await serve(createGateway(options(true)).fetch)
  const webSilent = await serve(createGateway(options(false)).fetch)
  const node = await serveNode(options(true))
  const nodeSilent = await serveNode(options(false))
  running.push(web, webSilent, node, nodeSilent)
  gateways['gateway.fetch'] = { listening: web.url, silent: webSilent.url }
  gateways['toNodeListener(gateway)'] = { listening: node.url, silent: nodeSilent.url }
})
afterAll(async () => {
  for (const server of running) await server.close()
  await new Promise<void>((done) => {
    standIn?.server.closeAllConnections()
    standIn?.server.close(() => done())
  })
})

const client = (url: string) => new OpenAI({ apiKey: 'client-key', baseURL: `${url}/v1`, maxRetries: 0 })
const request = {
  model: 'gpt-standin',
  messages: [{ role: 'user' as const, content: 'Say hello' }],
  stream: true as const,
}

async function chunksOf(url: string, extra: Partial<OpenAI.ChatCompletionCreateParamsStreaming> = {}) {
  const chunks: OpenAI.ChatCompletionChunk[] = []
  const stream = await client(url).chat.completions.create({ ...request, ...extra })
  for await (const chunk of stream) chunks.push(chunk)
  return chunks
}

/** The chunks without the `"usage": null` the upstream adds to every chunk once usage is asked for. */
function withoutNullUsage(chunks: OpenAI.ChatCompletionChunk[]): OpenAI.ChatCompletionChunk[] {
  return chunks.map((chunk) => {
    const { usage, ...rest } = chunk
    expect(usage).toBeNull()
    return rest as OpenAI.ChatCompletionChunk
  })
}

const expectedUsage = {
  inputTokens: 13,
  outputTokens: 7,
  cachedInputTokens: 4,
  reasoningTokens: 2,
  totalTokens: 20,
}

describe.each(['gateway.fetch', 'toNodeListener(gateway)'])('%s', (path) => {
  it('a stream without include_usage: the usage chunk is asked for, cut out, and reaches onResponse', async () => {
    const direct = await chunksOf(standIn.url)
    expect(direct.every((chunk) => chunk.usage === undefined)).toBe(true)
    received.length = 0
    events.length = 0
    const via = await chunksOf(gateways[path]?.listening as string)
    // The client sees the upstream's chunks as without include_usage: no usage chunk, same content and order.
    expect(via.some((chunk) => chunk.choices.length === 0)).toBe(false)
    expect(withoutNullUsage(via)).toEqual(direct)
    expect(via.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(pieces.join(''))
    // The upstream got the client's bytes with include_usage appended.
    expect(received).toHaveLength(1)
    expect(received[0]).toMatch(/,"stream_options":\{"include_usage":true\}\}$/)
    expect(JSON.parse(received[0] as string)).toEqual({ ...request, stream_options: { include_usage: true } })
    await expect.poll(() => events.length).toBe(1)
    expect(events[0]).toMatchObject({ stream: true, status: 200, usage: expectedUsage })
  })

  it('a stream with include_usage: the usage chunk is forwarded as the upstream sent it', async () => {
    received.length = 0
    events.length = 0
    const via = await chunksOf(gateways[path]?.listening as string, { stream_options: { include_usage: true } })
    const last = via.at(-1)
    expect(last?.choices).toEqual([])
    expect(last?.usage).toEqual(upstreamUsage)
    expect(JSON.parse(received[0] as string).stream_options).toEqual({ include_usage: true })
    await expect.poll(() => events.length).toBe(1)
    expect(events[0]?.usage).toEqual(expectedUsage)
  })

  it('include_usage: false is overridden upstream and the client still sees no usage chunk', async () => {
    received.length = 0
    events.length = 0
    const direct = await chunksOf(standIn.url)
    const via = await chunksOf(gateways[path]?.listening as string, { stream_options: { include_usage: false } })
    expect(withoutNullUsage(via)).toEqual(direct)
    expect(JSON.parse(received.at(-1) as string).stream_options).toEqual({ include_usage: true })
    await expect.poll(() => events.length).toBe(1)
    expect(events[0]?.usage).toEqual(expectedUsage)
  })

  it('without onResponse the request is forwarded as the client sent it', async () => {
    received.length = 0
    const direct = await chunksOf(standIn.url)
    const via = await chunksOf(gateways[path]?.silent as string)
    expect(via).toEqual(direct)
    expect(JSON.parse(received.at(-1) as string)).toEqual(request)
  })
})
