/**
 * The Node fast path (issue 11): `toNodeListener(gateway)` drives the gateway's core from IncomingMessage to
 * ServerResponse and reaches upstreams over node:http by default. Real servers on 127.0.0.1.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createGateway } from '../gateway/create-gateway.js'
import type { GatewayOptions } from '../gateway/options.js'
import { toNodeListener } from '../node.js'

const servers: Server[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler)
  servers.push(server)
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  )
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
const start = sse('message_start', {
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'm',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 3, output_tokens: 1 },
  },
})
const blockStart = sse('content_block_start', {
  type: 'content_block_start',
  index: 0,
  content_block: { type: 'text', text: '' },
})
const delta = (text: string) =>
  sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })
const end =
  sse('content_block_stop', { type: 'content_block_stop', index: 0 }) +
  sse('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 2 },
  }) +
  sse('message_stop', { type: 'message_stop' })

async function gatewayFor(upstream: string, extra: GatewayOptions = {}): Promise<string> {
  const gateway = createGateway({
    upstreams: { a: { format: 'messages', baseURL: upstream, apiKey: 'sk-up' } },
    ...extra,
  })
  return listen(toNodeListener(gateway))
}

interface Received {
  status: number
  headers: Record<string, unknown>
  chunks: string[]
}

/** POSTs a chat-completions request and collects the body chunk by chunk (as the socket delivered them). */
function post(
  base: string,
  body: unknown,
  onChunk?: (chunk: string, req: ReturnType<typeof httpRequest>) => void,
): Promise<Received> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    })
    req.on('response', (res) => {
      const chunks: string[] = []
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        chunks.push(chunk)
        onChunk?.(chunk, req)
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks }))
      res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks }))
    })
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}

const chatBody = (stream: boolean) => ({ model: 'm', stream, messages: [{ role: 'user', content: 'hi' }] })
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** At least `ms`, and at least `turns` turns of the event loop (each polls for I/O): stretched on a starved process. */
async function settle(ms: number, turns = 30): Promise<void> {
  const until = Date.now() + ms
  for (let turn = 0; turn < turns || Date.now() < until; turn++) await sleep(10)
}

describe('toNodeListener(gateway): the fast path', () => {
  it('reaches the upstream over node:http, never the global fetch, and answers JSON with its length', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch')
    const seen: IncomingMessage[] = []
    const upstream = await listen((req, res) => {
      seen.push(req)
      req.resume()
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
        res.end(
          gzipSync(
            JSON.stringify({
              id: 'msg_1',
              type: 'message',
              role: 'assistant',
              model: 'm',
              content: [{ type: 'text', text: 'Hello' }],
              stop_reason: 'end_turn',
              stop_sequence: null,
              usage: { input_tokens: 3, output_tokens: 1 },
            }),
          ),
        )
      })
    })
    const received = await post(await gatewayFor(upstream), chatBody(false))
    expect(received.status).toBe(200)
    const text = received.chunks.join('')
    expect(JSON.parse(text).choices[0].message.content).toBe('Hello')
    expect(Number(received.headers['content-length'])).toBe(Buffer.byteLength(text))
    expect(received.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/)
    expect(seen[0]?.headers['x-api-key']).toBe('sk-up')
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('times out an upstream that does not answer (one shared timer), and sends the Host header', async () => {
    const hosts: Array<string | undefined> = []
    const upstream = await listen((req) => {
      hosts.push(req.headers.host)
      req.resume()
    })
    const base = await gatewayFor(upstream, { timeoutMs: 60 })
    const started = Date.now()
    const [first, second] = await Promise.all([post(base, chatBody(false)), post(base, chatBody(false))])
    expect(first.status).toBe(504)
    expect(second.status).toBe(504)
    expect(JSON.parse(first.chunks.join('')).error.message).toMatch(/did not answer in time/)
    expect(Date.now() - started).toBeLessThan(2000)
    expect(hosts).toEqual([new URL(upstream).host, new URL(upstream).host])
  })

  it('writes once per upstream chunk: the frames one chunk completes arrive together', async () => {
    const upstream = await listen(async (req, res) => {
      req.resume()
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(start + blockStart + delta('Hel'))
      await sleep(60)
      res.write(delta('lo') + delta(' there'))
      await sleep(60)
      res.end(end)
    })
    const received = await post(await gatewayFor(upstream), chatBody(true))
    expect(received.headers['content-type']).toContain('text/event-stream')
    expect(received.chunks).toHaveLength(3)
    const frames = received.chunks.map((chunk) => chunk.split('\n\n').filter((frame) => frame !== '').length)
    // Chunk 1: the role chunk and "Hel"; chunk 2: "lo" and " there"; chunk 3: finish, usage-less end, [DONE].
    expect(frames[0]).toBe(2)
    expect(frames[1]).toBe(2)
    expect(received.chunks[2]).toContain('[DONE]')
    expect(received.chunks.join('')).toContain('"content":" there"')
  })

  it('writes the first text on its own when a whole answer arrives in one upstream chunk', async () => {
    const upstream = await listen((req, res) => {
      req.resume()
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(start + blockStart + delta('Hel') + delta('lo') + delta(' there') + end)
    })
    const received = await post(await gatewayFor(upstream), chatBody(true))
    // The role chunk and "Hel" first, not held back until the rest of the read is translated; then the rest together.
    expect(received.chunks.length).toBeGreaterThanOrEqual(2)
    expect(received.chunks[0]).toContain('"content":"Hel"')
    expect(received.chunks[0]).not.toContain('"content":"lo"')
    expect(received.chunks.join('')).toContain('"content":" there"')
    expect(received.chunks.at(-1)).toContain('[DONE]')
  })

  it('a client disconnect closes the upstream connection', async () => {
    let upstreamClosed: () => void = () => {}
    const closed = new Promise<void>((resolve) => {
      upstreamClosed = resolve
    })
    const upstream = await listen((req, res) => {
      req.resume()
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(start + blockStart + delta('a'))
      res.on('close', () => {
        if (!res.writableFinished) upstreamClosed()
      })
    })
    await post(await gatewayFor(upstream), chatBody(true), (_chunk, req) => req.destroy())
    await closed
  })

  it('honours backpressure: a client that stops reading stops the upstream', { timeout: 60_000 }, async () => {
    let written = 0
    let blocked = false
    /** The upstream waits for a `drain` (its last write was refused) and has not had one since. */
    let held = false
    const upstream = await listen((req, res) => {
      req.resume()
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(start + blockStart)
      const piece = delta('x'.repeat(4096))
      const pump = () => {
        held = false
        while (!res.destroyed) {
          written += piece.length
          if (!res.write(piece)) {
            blocked = true
            held = true
            res.once('drain', pump)
            return
          }
        }
      }
      pump()
    })
    const base = await gatewayFor(upstream)
    const req = httpRequest(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    })
    const response = new Promise<IncomingMessage>((resolve) => req.on('response', resolve))
    req.end(JSON.stringify(chatBody(true)))
    const res = await response
    res.pause()
    // The buffers between the three fill at whatever pace a loaded machine allows. Stopped means: the upstream is held
    // (waiting for a drain) and nothing moved over a settling window (which ends only after enough turns of the event
    // loop, so a starved process sees its pending socket events first) — twice in a row. No deadline of its own: a
    // gateway that buffers without bound never gets there (and passes 64 MiB on the way), the test's timeout ends it.
    const stopped = async () => {
      const at = written
      await settle(300)
      return held && written === at
    }
    for (let calm = 0; calm < 2; calm = (await stopped()) ? calm + 1 : 0) expect(written).toBeLessThan(64 * 1024 * 1024)
    const before = written
    expect(blocked).toBe(true)
    await settle(300)
    expect(held).toBe(true)
    expect(written).toBe(before)
    expect(written).toBeLessThan(64 * 1024 * 1024)
    req.destroy()
  })

  it('toNodeListener(gateway.fetch) takes the same path; a gateway with its own fetch keeps using it', async () => {
    const upstream = await listen((req, res) => {
      req.resume()
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.end(start + blockStart + delta('ok') + end)
      })
    })
    const own = vi.fn((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init))
    const gateway = createGateway({ fetch: own, upstreams: { a: { format: 'messages', baseURL: upstream } } })
    const base = await listen(toNodeListener(gateway.fetch))
    const received = await post(base, chatBody(true))
    expect(received.chunks.join('')).toContain('"content":"ok"')
    expect(own).toHaveBeenCalledTimes(1)
  })

  it('answers 413 in the client format when the body is over maxBodyBytes, and 404 for unknown routes', async () => {
    const base = await listen(toNodeListener(createGateway({ maxBodyBytes: 64 })))
    const received = await post(base, { model: 'm', messages: [{ role: 'user', content: 'x'.repeat(500) }] })
    expect(received.status).toBe(413)
    expect(JSON.parse(received.chunks.join('')).error.message).toContain('larger than 64 bytes')
    const missing = await fetch(`${base}/v1/nope`, { method: 'POST', body: '{}' })
    expect(missing.status).toBe(404)
  })
})
