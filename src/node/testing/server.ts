/**
 * The strict stand-ins' HTTP server on 127.0.0.1: a Fetch handler served through `node:http`, which can also do what a
 * Fetch handler cannot: drop the connection before any byte (`drop`), or cut an answer's body mid-way (`break`, the
 * handler's body stream errors) — and `close()` ends stalled answers too.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A handler's answer: a Response, `'drop'` (the socket is destroyed before any byte of an answer) or `'hang'` (nothing
 * is sent; the connection stays open until the client leaves or the server closes).
 */
export type StandInHandler = (request: Request) => Promise<Response | 'drop' | 'hang'>

export interface RunningServer {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** Requests received, and those still open (neither answered in full nor closed). */
  stats: { received: number; open: number }
  close(): Promise<void>
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

async function answer(handler: StandInHandler, req: IncomingMessage, res: ServerResponse, origin: string) {
  const body = await readBody(req)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === 'string') headers.set(name, value)
    else if (value) for (const item of value) headers.append(name, item)
  const method = req.method ?? 'GET'
  const hasBody = method !== 'GET' && method !== 'HEAD'
  const request = new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    body: hasBody ? new Uint8Array(body) : null,
  })
  const response = await handler(request)
  if (response === 'drop') {
    req.socket.destroy()
    return
  }
  if (response === 'hang') return
  const head: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    head[name] = value
  })
  res.writeHead(response.status, head)
  // The status and headers go now, even when the body is slow to come (or never does).
  res.flushHeaders()
  if (!response.body) {
    res.end()
    return
  }
  const reader = response.body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      res.write(value)
    }
    res.end()
  } catch {
    res.destroy()
  }
}

/** Serves `handler` on 127.0.0.1 (`port` 0: any free port). */
export function serveStandIn(handler: StandInHandler, port = 0): Promise<RunningServer> {
  let origin = ''
  const stats = { received: 0, open: 0 }
  const server = createServer((req, res) => {
    stats.received++
    stats.open++
    let open = true
    const done = () => {
      if (open) stats.open--
      open = false
    }
    res.on('finish', done)
    res.on('close', done)
    answer(handler, req, res, origin).catch(() => res.destroy())
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      resolve({
        url: origin,
        stats,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    })
  })
}
