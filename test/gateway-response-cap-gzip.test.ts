/**
 * `maxResponseBytes` counts decoded bytes: a compressed answer's `content-length` is its compressed size, so a small
 * gzip body that decodes to megabytes is still refused (a 502 in the client's format), on the Node fast path and on
 * the Fetch path, passthrough and translated.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../src/gateway.js'
import { toNodeListener } from '../src/node.js'

const big = JSON.stringify({
  id: 'c1',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'x'.repeat(2_000_000) }, finish_reason: 'stop' }],
})
const small = JSON.stringify({
  id: 'c2',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'fits' }, finish_reason: 'stop' }],
})
const zipped = { big: gzipSync(big), small: gzipSync(small) }

let upstream: Server
let front: Server
let upstreamUrl = ''
let frontUrl = ''

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const body = req.url?.includes('small') ? zipped.small : zipped.big
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': body.length,
      })
      res.end(body)
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
  front = createServer(toNodeListener(gateway()))
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise<void>((resolve) => front.close(() => resolve()))
  await new Promise<void>((resolve) => upstream.close(() => resolve()))
})

function gateway() {
  return createGateway({
    upstreams: {
      big: { format: 'chat-completions', baseURL: `${upstreamUrl}/big/v1`, apiKey: 'sk-up' },
      small: { format: 'chat-completions', baseURL: `${upstreamUrl}/small/v1`, apiKey: 'sk-up' },
    },
    models: { big: { upstream: 'big', model: 'm' }, small: { upstream: 'small', model: 'm' } },
    maxResponseBytes: 100_000,
  })
}

const requests = {
  passthrough: (model: string) =>
    new Request('http://127.0.0.1/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    }),
  translated: (model: string) =>
    new Request('http://127.0.0.1/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    }),
}

describe.each(['node', 'fetch'] as const)('%s path', (path) => {
  const send = (request: Request): Promise<Response> =>
    path === 'fetch'
      ? gateway().fetch(request)
      : fetch(`${frontUrl}${new URL(request.url).pathname}`, {
          method: 'POST',
          headers: request.headers,
          body: request.body,
          duplex: 'half',
        } as RequestInit)

  it.each(['passthrough', 'translated'] as const)('%s: 50 KB of gzip decoding to 2 MB is a 502', async (kind) => {
    expect(zipped.big.length).toBeLessThan(100_000)
    const response = await send(requests[kind]('big'))
    expect(response.status).toBe(502)
    expect((await response.json()).error.message).toBe("The upstream's answer is larger than 100000 bytes")
  })

  it.each(['passthrough', 'translated'] as const)('%s: a gzip answer within the cap is served', async (kind) => {
    const response = await send(requests[kind]('small'))
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('fits')
  })
})
