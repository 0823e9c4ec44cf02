/**
 * `npx tsx bench/clouds-bedrock.ts`: the latency a Bedrock upstream adds over a first-party one (issue 23). Canned
 * upstreams on 127.0.0.1 answer instantly with the same content: Anthropic's API (JSON, SSE), Bedrock InvokeModel
 * (JSON, event-stream `chunk` frames) and Converse (JSON, typed frames). The same gateway options serve each (SigV4
 * signing with static credentials, body rewriting, event-stream framing are what differ). One connection, requests in
 * sequence; p50 over `BEDROCK_BENCH_N` (default 400) after a warm-up, the median of 3 interleaved rounds, and its ratio to the first-party
 * upstream's.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EventStreamCodec } from '@smithy/core/event-streams'
import { createGateway } from '../src/gateway/create-gateway.js'
import type { UpstreamOptions } from '../src/gateway/options.js'
import { toNodeListener } from '../src/node.js'

const n = Number(process.env.BEDROCK_BENCH_N ?? 400)
const text = 'The quick brown fox jumps over the lazy dog. '.repeat(4)
const message = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude',
  content: [{ type: 'text', text }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 12, output_tokens: 40 },
}
const words = text.split(' ').map((word) => `${word} `)
const anthropicEvents = [
  {
    type: 'message_start',
    message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 12, output_tokens: 1 } },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  ...words.map((word) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: word } })),
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 40 } },
  { type: 'message_stop' },
]
const converseJson = {
  output: { message: { role: 'assistant', content: [{ text }] } },
  stopReason: 'end_turn',
  usage: { inputTokens: 12, outputTokens: 40, totalTokens: 52 },
  metrics: { latencyMs: 1 },
}
const converseEvents: Array<[string, unknown]> = [
  ['messageStart', { role: 'assistant' }],
  ...words.map((word): [string, unknown] => ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: word } }]),
  ['contentBlockStop', { contentBlockIndex: 0 }],
  ['messageStop', { stopReason: 'end_turn' }],
  ['metadata', { usage: converseJson.usage, metrics: { latencyMs: 1 } }],
]
const codec = new EventStreamCodec(
  (b) => new TextDecoder().decode(b),
  (s) => new TextEncoder().encode(s),
)
const h = (value: string) => ({ type: 'string' as const, value })
const frame = (type: string, payload: unknown) =>
  Buffer.from(
    codec.encode({
      headers: { ':message-type': h('event'), ':event-type': h(type), ':content-type': h('application/json') },
      body: new TextEncoder().encode(JSON.stringify(payload)),
    }),
  )
const sse = Buffer.from(
  anthropicEvents.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join(''),
)
const invokeFrames = Buffer.concat(
  anthropicEvents.map((event) => frame('chunk', { bytes: Buffer.from(JSON.stringify(event)).toString('base64') })),
)
const converseFrames = Buffer.concat(converseEvents.map(([type, payload]) => frame(type, payload)))

function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler)
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  )
}

const upstream = await listen((req, res) => {
  req.resume()
  req.on('end', () => {
    const url = req.url ?? ''
    const stream = url.includes('stream') || (url === '/v1/messages' && req.headers.accept === 'text/event-stream')
    if (url.startsWith('/model/') && url.includes('converse')) {
      if (stream) res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' }).end(converseFrames)
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(converseJson))
    } else if (url.startsWith('/model/')) {
      if (stream) res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' }).end(invokeFrames)
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message))
    } else if (stream) res.writeHead(200, { 'content-type': 'text/event-stream' }).end(sse)
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message))
  })
})

const bedrock = {
  provider: 'bedrock' as const,
  region: 'us-east-1',
  baseURL: upstream,
  auth: { accessKeyId: 'AKIABENCH', secretAccessKey: 'bench-secret' },
}
const gateways: Record<string, UpstreamOptions> = {
  'first-party messages': { format: 'messages', baseURL: upstream, apiKey: 'sk-ant-bench' },
  'bedrock invoke (SigV4)': { format: 'messages', ...bedrock },
  'bedrock converse (SigV4)': { format: 'converse', ...bedrock },
}
const urls: Record<string, string> = {}
for (const [name, options] of Object.entries(gateways))
  urls[name] = await listen(toNodeListener(createGateway({ upstreams: { up: options } }).fetch))

const model = 'anthropic.claude-sonnet-4-5-20250929-v1:0'
const bodies = {
  'messages client': (stream: boolean) =>
    ['/v1/messages', { model, max_tokens: 256, stream, messages: [{ role: 'user', content: 'hi' }] }] as const,
  'chat client': (stream: boolean) =>
    ['/v1/chat/completions', { model, stream, messages: [{ role: 'user', content: 'hi' }] }] as const,
}

async function p50(base: string, path: string, body: unknown): Promise<number> {
  const once = async () => {
    const started = performance.now()
    const answer = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(body),
    })
    await answer.arrayBuffer()
    if (answer.status !== 200) throw new Error(`${base}${path}: HTTP ${answer.status}`)
    return performance.now() - started
  }
  for (let i = 0; i < 50; i++) await once()
  const times: number[] = []
  for (let i = 0; i < n; i++) times.push(await once())
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)] as number
}

console.log(['case', ...Object.keys(gateways).map((name) => `${name} p50 ms`)].join('\t'))
for (const [client, make] of Object.entries(bodies)) {
  for (const stream of [false, true]) {
    const [path, body] = make(stream)
    // Interleaved rounds, the median of each gateway's p50s (the machine is shared: one run alone is noisy).
    const runs = new Map<string, number[]>()
    for (let round = 0; round < 3; round++)
      for (const name of Object.keys(gateways))
        runs.set(name, [...(runs.get(name) ?? []), await p50(urls[name] as string, path, body)])
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1] as number
    const firstParty = median(runs.get('first-party messages') ?? [])
    console.log(
      [
        `${client} ${stream ? 'stream' : 'JSON'}`,
        ...Object.keys(gateways).map((name) => {
          const value = median(runs.get(name) ?? [])
          return `${value.toFixed(3)} (${(value / firstParty).toFixed(2)}×)`
        }),
      ].join('\t'),
    )
  }
}
process.exit(0)
