/**
 * One very large streamed answer through the gateway (issue 21, item 5): `BIG_STREAM_MB` (default 200) of text in
 * `BIG_STREAM_DELTA_KB` (default 16) deltas, read by a client as fast as it can, for each pair of `BIG_STREAM_PAIRS`
 * (comma-separated `client>upstream` format ids; default passthrough chat-completions and four translated pairs;
 * `BIG_STREAM_STORE=0`: the gateway's response store off). The
 * gateway runs alone in a child process (`toNodeListener(gateway)` on 127.0.0.1, a fresh one per pair); this process
 * is the upstream and the client. Its memory is read from `/proc/<pid>/status`: the RSS once warmed up and the peak
 * (`VmHWM`) after the stream. Prints one JSON line per pair: `{ pair, baselineMB, peakMB, growthMB, seconds, bytes }`.
 *
 * `npx tsx bench/big-stream.ts`; `test/reliability/big-stream.test.ts` runs it for a passthrough and translated pairs.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, request, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'

type FormatId = 'chat-completions' | 'messages' | 'content-generation' | 'responses'

const totalBytes = Number(process.env.BIG_STREAM_MB ?? 200) * 2 ** 20
const delta = 'abcdefghijklmnop'.repeat((Number(process.env.BIG_STREAM_DELTA_KB ?? 16) * 1024) / 16)
const deltas = Math.ceil(totalBytes / delta.length)
const pairs = (
  process.env.BIG_STREAM_PAIRS ??
  'chat-completions>chat-completions,chat-completions>messages,messages>chat-completions,content-generation>messages,responses>chat-completions'
)
  .split(',')
  .map((pair) => pair.split('>') as [FormatId, FormatId])

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10

/** An upstream's stream of `format`: head, one event per delta, tail. */
const upstreamFrames: Record<string, { head: string; delta: string; tail: string }> = {
  'chat-completions': {
    head: `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\n\n`,
    delta: `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"${delta}"},"finish_reason":null}]}\n\n`,
    tail: `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}\n\ndata: [DONE]\n\n`,
  },
  messages: {
    head: `event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}\n\nevent: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n`,
    delta: `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${delta}"}}\n\n`,
    tail: `event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\nevent: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":2}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n`,
  },
  'content-generation': {
    head: '',
    delta: `data: {"candidates":[{"content":{"parts":[{"text":"${delta}"}],"role":"model"},"index":0}],"modelVersion":"m"}\n\n`,
    tail: `data: {"candidates":[{"content":{"parts":[{"text":"."}],"role":"model"},"index":0,"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":2,"totalTokenCount":3},"modelVersion":"m"}\n\n`,
  },
}

const clientRequests: Record<FormatId, { path: string; body: unknown }> = {
  'chat-completions': {
    path: '/v1/chat/completions',
    body: { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] },
  },
  messages: {
    path: '/v1/messages',
    body: { model: 'm', stream: true, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
  },
  'content-generation': {
    path: '/v1beta/models/m:streamGenerateContent?alt=sse',
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  },
  responses: { path: '/v1/responses', body: { model: 'm', stream: true, input: 'hi' } },
}

/** Writes the upstream stream with backpressure: the gateway's reading pace sets the pace. */
async function writeStream(res: ServerResponse, format: string, count: number): Promise<void> {
  const frames = upstreamFrames[format] as (typeof upstreamFrames)[string]
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  const write = (text: string) =>
    res.write(text) ? Promise.resolve() : new Promise<void>((resolve) => res.once('drain', resolve))
  if (frames.head) await write(frames.head)
  const frame = Buffer.from(frames.delta)
  for (let i = 0; i < count && !res.destroyed; i++) {
    if (!res.write(frame)) await new Promise<void>((resolve) => res.once('drain', resolve))
  }
  res.end(frames.tail)
}

function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') }
}

/** Reads the client's stream as fast as it can; resolves its byte count. */
function readAll(port: number, client: FormatId): Promise<number> {
  const { path, body } = clientRequests[client]
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        let bytes = 0
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length
        })
        res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`HTTP ${res.statusCode}`))))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}

async function gatewayChild(): Promise<void> {
  const { createGateway } = await import('../src/gateway/create-gateway.js')
  const { toNodeListener } = await import('../src/node.js')
  const upstream = process.env.UPSTREAM_URL as string
  const format = process.env.UPSTREAM_FORMAT as FormatId
  const gateway = createGateway({
    upstreams: {
      up: { format, baseURL: format === 'chat-completions' ? `${upstream}/v1` : upstream, apiKey: 'k' },
    },
    ...(process.env.BIG_STREAM_STORE === '0' ? { responseStore: false } : {}),
  })
  const server = createServer(toNodeListener(gateway))
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }))
}

async function main(): Promise<void> {
  let upstreamFormat = 'chat-completions'
  /** Deltas of the next upstream answer: a few for the warm-up, then the big one. */
  let count = 10
  const upstream: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => void writeStream(res, upstreamFormat, count))
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  const upstreamURL = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
  for (const [client, upstreamFormatOfPair] of pairs) {
    upstreamFormat = upstreamFormatOfPair
    const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BIG_STREAM_CHILD: '1', UPSTREAM_URL: upstreamURL, UPSTREAM_FORMAT: upstreamFormat },
    })
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.once('message', (message: { port: number }) => resolve(message.port))
        child.once('exit', (code) => reject(new Error(`the gateway exited (${code})`)))
      })
      // Warm-up: one small stream each way loads and compiles the code paths before the baseline is read.
      count = 10
      for (let i = 0; i < 3; i++) await readAll(port, client)
      count = deltas
      const before = memoryOf(child.pid as number)
      const started = performance.now()
      const bytes = await readAll(port, client)
      const seconds = (performance.now() - started) / 1000
      const after = memoryOf(child.pid as number)
      console.log(
        JSON.stringify({
          pair: `${client}>${upstreamFormat}`,
          baselineMB: mb(before.rss),
          peakMB: mb(after.hwm),
          growthMB: mb(after.hwm - before.rss),
          seconds: Math.round(seconds * 10) / 10,
          bytes,
        }),
      )
    } finally {
      child.kill()
    }
  }
  upstream.closeAllConnections()
  upstream.close()
}

if (process.env.BIG_STREAM_CHILD === '1') void gatewayChild()
else
  main().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
