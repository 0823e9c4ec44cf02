/**
 * Security checklist (issue 12), the gaps not covered elsewhere (SECURITY.md lists which test covers each guarantee):
 * - the client's key is checked from the headers before the request body is read — on the Node fast path
 *   (`toNodeListener(gateway)`, what the CLI serves), on the Node Fetch-handler path (`toNodeListener(handler)`), and
 *   on `gateway.fetch` itself: a wrong key with a 60 MB body gets its 401 while the client has sent 1 MB of it;
 * - a media URL that redirects to a name resolving to a private address is refused (each hop's connect is checked).
 */
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js'
import { createMediaFetcher } from '../../src/gateway/media.js'
import { createNodeMediaFetch, toNodeListener } from '../../src/node.js'

const declaredBytes = 60 * 1024 * 1024
const sentBytes = 1024 * 1024

/** Declares a 60 MB body, sends 1 MB of it, and waits (bounded) for an answer that must come before the rest. */
function postHuge(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(declaredBytes) },
    })
    const timer = setTimeout(() => {
      req.destroy()
      reject(new Error('no answer before the body was sent: the body is read before the key is checked'))
    }, 5000)
    req.on('response', (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        body += chunk
      })
      res.on('end', () => {
        clearTimeout(timer)
        req.destroy()
        resolve({ status: res.statusCode ?? 0, body })
      })
    })
    req.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    req.write(`{"model":"m","messages":[{"role":"user","content":"${' '.repeat(sentBytes)}`)
  })
}

const servers: Server[] = []
async function listen(listener: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(listener)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

let gateway: Gateway
beforeAll(() => {
  gateway = createGateway({ apiKeys: ['right-key'] })
})
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

describe('key check before the body is read', () => {
  const listeners = {
    'toNodeListener(gateway) — the fast path, what the CLI serves': () => toNodeListener(gateway),
    'toNodeListener(gateway.fetch)': () => toNodeListener(gateway.fetch),
    'toNodeListener(request => gateway.fetch(request)) — the Fetch-handler path': () =>
      toNodeListener((r: Request) => gateway.fetch(r)),
  }
  it.each(Object.keys(listeners))('%s: a wrong key with a 60 MB body is a 401 after 1 MB', async (name) => {
    const base = await listen(listeners[name as keyof typeof listeners]())
    const { status, body } = await postHuge(base, '/v1/chat/completions', { authorization: 'Bearer wrong-key' })
    expect(status).toBe(401)
    expect(JSON.parse(body).error).toMatchObject({ code: 'invalid_api_key' })
  })

  it('the Fetch-handler path still reads a body for a right key, and refuses one over its limit natively', async () => {
    const base = await listen(toNodeListener((r: Request) => gateway.fetch(r), { maxBodyBytes: 4096 }))
    const ok = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer right-key', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(ok.status).toBe(200)
    expect((await ok.json()).choices[0].message.content).toContain('mock model')
    // Chunked (no content-length): the limit holds while streaming the body to the handler.
    const chunks = [
      new TextEncoder().encode(`{"model":"m","messages":[{"role":"user","content":"${'x'.repeat(9000)}"}]}`),
    ]
    const big = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      headers: { authorization: 'Bearer right-key', 'anthropic-version': '2023-06-01' },
      body: new ReadableStream({
        pull(controller) {
          const chunk = chunks.shift()
          if (chunk) controller.enqueue(chunk)
          else controller.close()
        },
      }),
      duplex: 'half',
    } as RequestInit)
    expect(big.status).toBe(413)
    expect(await big.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } })
  })

  it('gateway.fetch: a wrong key is answered without pulling the body', async () => {
    let pulls = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++
        controller.enqueue(new Uint8Array(1024))
      },
    })
    const response = await gateway.fetch(
      new Request('http://gateway.test/v1/messages', {
        method: 'POST',
        headers: { 'x-api-key': 'wrong-key', 'anthropic-version': '2023-06-01' },
        body,
        duplex: 'half',
      } as RequestInit),
    )
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } })
    // The stream's own high-water mark may pull once; the gateway reads nothing more.
    expect(pulls).toBeLessThanOrEqual(1)
  })
})

describe('media: a redirect to a name that resolves to a private address', () => {
  it('is refused at the redirect hop (the connect is checked after DNS), nothing fetched', async () => {
    let inside = 0
    const insideBase = await listen((_req, res) => {
      inside++
      res.writeHead(200, { 'content-type': 'image/png' })
      res.end('png')
    })
    const port = new URL(insideBase).port
    // `inside.test` resolves to 127.0.0.1 (as /etc/hosts or DNS could make any name do).
    const nodeFetch = createNodeMediaFetch({
      lookup: ((hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
        const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all
        if (hostname !== 'inside.test') return callback(new Error(`unexpected lookup of ${hostname}`))
        if (all) callback(null, [{ address: '127.0.0.1', family: 4 }])
        else callback(null, '127.0.0.1', 4)
      }) as never,
    })
    // The first hop (a public CDN) answers a redirect to that name; the redirect hop goes through the Node fetch.
    const hops: string[] = []
    const doFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input)
      hops.push(url)
      if (url.startsWith('https://cdn.example.com/'))
        return new Response(null, { status: 302, headers: { location: `http://inside.test:${port}/cat.png` } })
      return nodeFetch(input, init)
    }) as typeof fetch
    const fetchMedia = createMediaFetcher({ fetch: doFetch })
    const error = await fetchMedia('https://cdn.example.com/cat.png', 'messages[0].content[1]').catch((e: unknown) => e)
    expect(hops).toEqual(['https://cdn.example.com/cat.png', `http://inside.test:${port}/cat.png`])
    expect(error).toMatchObject({ name: 'InterlinguaError', status: 400 })
    expect(String((error as Error).message)).toContain('inside.test resolves to a private or loopback address')
    expect(inside).toBe(0)
  })
})
