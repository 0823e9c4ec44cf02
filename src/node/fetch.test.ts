import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../gateway/create-gateway.js'
import { toNodeListener } from '../node.js'
import { createNodeFetch } from './fetch.js'

let server: Server
let base = ''
const seen: Array<{ method: string; url: string; headers: Record<string, unknown>; body: string }> = []
let closedEarly = 0

function handler(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString()
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
    if (req.url === '/json') {
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-a': '1' })
      res.end(JSON.stringify({ echo: body }))
    } else if (req.url === '/gzip') {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' })
      res.end(gzipSync('hello gzip'))
    } else if (req.url === '/redirect') {
      res.writeHead(302, { location: '/json' })
      res.end()
    } else if (req.url === '/empty') {
      res.writeHead(204)
      res.end()
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      const chunk = Buffer.alloc(64 * 1024, 97)
      let sent = 0
      const write = () => {
        while (sent < 64) {
          sent++
          if (!res.write(chunk)) {
            res.once('drain', write)
            return
          }
        }
        res.end()
      }
      write()
    } else if (req.url === '/hang' || req.url === '/hang/chat/completions') {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: first\n\n')
      res.on('close', () => {
        if (!res.writableFinished) closedEarly++
      })
    } else if (req.url === '/reset') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('partial')
      setTimeout(() => res.destroy(), 10)
    } else {
      res.writeHead(404)
      res.end()
    }
  })
}

beforeAll(async () => {
  server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

const nodeFetch = createNodeFetch()

describe('createNodeFetch', () => {
  it('posts a string body with headers and reads status, headers and JSON', async () => {
    const response = await nodeFetch(`${base}/json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', authorization: 'Bearer k' },
      body: '{"a":1}',
    })
    expect(response.status).toBe(201)
    expect(response.statusText).toBe('Made')
    expect(response.headers.get('x-a')).toBe('1')
    expect(await response.json()).toEqual({ echo: '{"a":1}' })
    const last = seen.at(-1)
    expect(last?.headers['content-type']).toBe('application/json')
    expect(last?.headers.authorization).toBe('Bearer k')
    expect(last?.headers['content-length']).toBe('7')
  })

  it('accepts a Headers object and a byte body', async () => {
    const response = await nodeFetch(new URL(`${base}/json`), {
      method: 'POST',
      headers: new Headers({ 'x-b': '2' }),
      body: new TextEncoder().encode('bytes'),
    })
    expect(await response.json()).toEqual({ echo: 'bytes' })
    expect(seen.at(-1)?.headers['x-b']).toBe('2')
  })

  it('decompresses gzip bodies', async () => {
    expect(await (await nodeFetch(`${base}/gzip`)).text()).toBe('hello gzip')
  })

  it('follows redirects unless redirect is manual', async () => {
    const followed = await nodeFetch(`${base}/redirect`)
    expect(followed.status).toBe(201)
    await followed.text()
    const manual = await nodeFetch(`${base}/redirect`, { redirect: 'manual' })
    expect(manual.status).toBe(302)
    expect(manual.headers.get('location')).toBe('/json')
  })

  it('gives a null body for 204', async () => {
    const response = await nodeFetch(`${base}/empty`)
    expect(response.status).toBe(204)
    expect(response.body).toBe(null)
  })

  it('streams a large body completely', async () => {
    const response = await nodeFetch(`${base}/big`)
    expect((await response.arrayBuffer()).byteLength).toBe(64 * 64 * 1024)
  })

  it('rejects with TypeError when the upstream is unreachable', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    await expect(nodeFetch(`http://127.0.0.1:${port}/`)).rejects.toBeInstanceOf(TypeError)
  })

  it('rejects at once for an already aborted signal', async () => {
    const controller = new AbortController()
    controller.abort(new Error('stop'))
    await expect(nodeFetch(`${base}/json`, { signal: controller.signal })).rejects.toThrow('stop')
  })

  it('aborting mid-body errors the stream and closes the upstream connection', async () => {
    const controller = new AbortController()
    const before = closedEarly
    const response = await nodeFetch(`${base}/hang`, { signal: controller.signal })
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n')
    controller.abort()
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' })
    const deadline = Date.now() + 2000
    while (closedEarly === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(closedEarly).toBe(before + 1)
  })

  it('errors the body when the upstream resets mid-body', async () => {
    const response = await nodeFetch(`${base}/reset`)
    await expect(response.text()).rejects.toThrow()
  })

  it('serves the gateway end to end, and a client disconnect aborts the upstream request', async () => {
    const gateway = createGateway({
      upstreams: { up: { format: 'chat-completions', baseURL: `${base}/hang`, apiKey: 'up-key' } },
      models: { m: { upstream: 'up', model: 'real' } },
      fetch: nodeFetch,
    })
    const front = createServer(toNodeListener(gateway.fetch))
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`
    try {
      const before = closedEarly
      const controller = new AbortController()
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
        signal: controller.signal,
      })
      expect(response.status).toBe(200)
      const reader = (response.body as ReadableStream<Uint8Array>).getReader()
      expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n')
      controller.abort()
      const deadline = Date.now() + 2000
      while (closedEarly === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(closedEarly).toBe(before + 1)
      expect(seen.at(-1)?.headers.authorization).toBe('Bearer up-key')
    } finally {
      front.closeAllConnections()
      await new Promise<void>((resolve) => front.close(() => resolve()))
    }
  })
})
