/**
 * A misbehaving upstream on 127.0.0.1 for the reliability suites. The first path segment names the fault, the second
 * the upstream's format: `http://127.0.0.1:port/<fault>/<format>/v1/chat/completions`. The valid answer a fault
 * distorts comes from an in-process mock-model gateway asked the very request the gateway sent, so every format's
 * JSON and SSE is real. What was sent is recorded (`sent`), and every socket is tracked (`openSockets`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { getFormat } from '../../src/formats/index.js'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { FormatId } from '../../src/ir/index.js'

export const faults = [
  'refused',
  'reset-before-headers',
  'reset-mid-body',
  'reset-mid-event',
  'reset-between-events',
  'trickle',
  'hang',
  'stall-after-headers',
  'stall-mid-stream',
  'malformed-json',
  'malformed-sse',
  'wrong-content-type',
  'error-200',
  '429-retry-after',
  '500',
  '529',
  'html-error',
  'huge-body',
  'ok',
] as const
export type Fault = (typeof faults)[number]

/** Bytes of a huge answer: well over the suites' `maxResponseBytes`. */
export const hugeBytes = 600 * 1024

/** Where a stream is cut or stalled: inside, or right after, the event carrying the second text delta. */
function cutPoints(text: string): { midEvent: number; betweenEvents: number } {
  const marker = text.indexOf('mock model answering')
  if (marker < 0) return { midEvent: text.length >> 1, betweenEvents: text.length >> 1 }
  const start = text.lastIndexOf('\n\n', marker) + 2
  const end = text.indexOf('\n\n', marker) + 2
  return { midEvent: (start + marker) >> 1, betweenEvents: end }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

export interface FaultUpstream {
  base: string
  /** A base URL on which nothing listens (connection refused). */
  refusedBase: string
  /** What each fault sent, by `${fault}/${format}/${stream}`: status and every body (several clients map there). */
  sent: Map<string, { status: number; bodies: Set<string> }>
  /** Requests the upstream received, and those still open (neither finished nor closed). */
  stats: { received: number; open: number }
  openSockets(): number
  close(): Promise<void>
}

export async function startFaultUpstream(): Promise<FaultUpstream> {
  const mock = createGateway()
  const sent = new Map<string, { status: number; bodies: Set<string> }>()
  const sockets = new Set<Socket>()
  const timers = new Set<ReturnType<typeof setTimeout>>()
  const stats = { received: 0, open: 0 }
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      run()
    }, ms)
    timers.add(timer)
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/'
    const [, fault, format, ...rest] = url.split('/') as [string, Fault, FormatId, ...string[]]
    const body = await readBody(req)
    let stream = url.includes('alt=sse')
    try {
      stream ||= (JSON.parse(body) as { stream?: unknown }).stream === true
    } catch {}
    const key = `${fault}/${format}/${stream}`
    const record = (status: number, text: string) => {
      const seen = sent.get(key) ?? { status, bodies: new Set<string>() }
      seen.bodies.add(text)
      sent.set(key, seen)
    }
    const errorBody = (status: number, code: Parameters<ReturnType<typeof getFormat>['encodeError']>[0]['code']) =>
      JSON.stringify(getFormat(format).encodeError({ code, status, message: `upstream says ${status}` }).body)

    if (fault === 'reset-before-headers') {
      req.socket.resetAndDestroy()
      return
    }
    if (fault === 'hang') return
    if (fault === 'stall-after-headers') {
      res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' })
      res.flushHeaders()
      return
    }
    // Whole answers sent at once: status, content type, body (and extra headers).
    const canned: Partial<Record<Fault, () => [number, string, string, Record<string, string>?]>> = {
      'malformed-json': () => [
        200,
        'application/json',
        '{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"trunc',
      ],
      'malformed-sse': () => [200, 'text/event-stream', 'data: {not json at all\n\ndata: [DONE]\n\n'],
      'error-200': () => [200, 'application/json', errorBody(400, 'invalid-request')],
      '429-retry-after': () => [429, 'application/json', errorBody(429, 'rate-limit'), { 'retry-after': '7' }],
      '500': () => [500, 'application/json', errorBody(500, 'internal')],
      '529': () => [529, 'application/json', errorBody(529, 'overloaded')],
      'html-error': () => [
        502,
        'text/html',
        '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>',
      ],
    }
    const fixed = canned[fault]?.()
    if (fixed) {
      const [status, type, text, headers] = fixed
      record(status, text)
      res.writeHead(status, { 'content-type': type, ...headers })
      res.end(text)
      return
    }
    if (fault === 'huge-body') {
      // Chunked (no content-length): the cap must hold while reading, not only from a declared length.
      const piece = 'x'.repeat(64 * 1024)
      record(200, `{"pad":"${piece.repeat(Math.ceil(hugeBytes / piece.length))}"}`)
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write(`{"pad":"`)
      let written = 0
      const more = () => {
        while (written < hugeBytes) {
          written += piece.length
          if (!res.write(piece)) {
            res.once('drain', more)
            return
          }
        }
        res.end('"}')
      }
      res.on('error', () => {})
      more()
      return
    }

    // Faults on a valid answer: the mock model's, in the upstream's format.
    const answer = await mock.fetch(
      new Request(`http://mock/${rest.join('/')}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    )
    const text = await answer.text()
    const type = answer.headers.get('content-type') ?? 'application/json'
    const sse = type.includes('text/event-stream')
    const { midEvent, betweenEvents } = cutPoints(text)
    const cutAt = (at: number) => {
      res.writeHead(200, { 'content-type': type, ...(sse ? {} : { 'content-length': Buffer.byteLength(text) }) })
      res.write(text.slice(0, at))
    }
    if (fault === 'ok' || fault === 'wrong-content-type') {
      const header = fault === 'ok' ? type : 'text/html; charset=utf-8'
      record(200, text)
      res.writeHead(200, { 'content-type': header })
      res.end(text)
      return
    }
    if (fault === 'trickle') {
      record(200, text)
      res.writeHead(200, { 'content-type': type })
      let at = 0
      const drip = () => {
        if (res.destroyed) return
        if (at >= text.length) {
          res.end()
          return
        }
        res.write(text.slice(at, at + 64))
        at += 64
        later(8, drip)
      }
      drip()
      return
    }
    if (fault.startsWith('reset-')) {
      const at =
        !sse || fault === 'reset-mid-body' ? text.length >> 1 : fault === 'reset-mid-event' ? midEvent : betweenEvents
      cutAt(at)
      later(20, () => req.socket.resetAndDestroy())
      return
    }
    if (fault === 'stall-mid-stream') {
      cutAt(sse ? betweenEvents : text.length >> 1)
      return
    }
    throw new Error(`unknown fault ${fault}`)
  }

  const server: Server = createServer((req, res) => {
    stats.received++
    stats.open++
    let counted = true
    const done = () => {
      if (!counted) return
      counted = false
      stats.open--
    }
    res.on('finish', done)
    res.on('close', done)
    handle(req, res).catch((error: unknown) => {
      res.destroy(error as Error)
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  // A port that was just free: nothing listens on it.
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const refusedBase = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`
  await new Promise((resolve) => probe.close(resolve))

  return {
    base,
    refusedBase,
    sent,
    stats,
    openSockets: () => sockets.size,
    async close() {
      for (const timer of timers) clearTimeout(timer)
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** The base URL of an upstream of `format` behind `fault` (chat-completions and responses bases end in `/v1`). */
export function faultBase(upstream: FaultUpstream, fault: Fault, format: FormatId): string {
  const root = fault === 'refused' ? upstream.refusedBase : upstream.base
  const v1 = format === 'chat-completions' || format === 'responses' ? '/v1' : ''
  return `${root}/${fault}/${format}${v1}`
}
