/**
 * The keep-alive race: an upstream closes an idle kept-alive connection just as the next request is written on it,
 * so that request is never answered. Both Node clients (the gateway's transport and `createNodeFetch`) send it once
 * more on a new connection; a request that fails on a fresh connection is not repeated.
 */
import { Agent, createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { createGateway } from '../gateway/create-gateway.js'
import { toNodeListener } from '../node.js'
import { createNodeFetch } from './fetch.js'

let upstream: Server
let base = ''
/** Requests the upstream received, and how many it dropped by closing their (reused) connection. */
let received = 0
let dropped = 0
/** 'reused': drop the next request that arrives on a connection that already served one. 'all': drop everything. */
let mode: 'none' | 'reused' | 'all' = 'none'
const served = new WeakMap<Socket, number>()

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      received++
      const before = served.get(req.socket) ?? 0
      served.set(req.socket, before + 1)
      if (mode === 'all' || (mode === 'reused' && before > 0)) {
        if (mode === 'reused') mode = 'none'
        dropped++
        req.socket.destroy()
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'm',
          choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      )
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())))

beforeEach(() => {
  received = 0
  dropped = 0
  mode = 'none'
})

const chatBody = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello' }] })

it('createNodeFetch sends a request once more when the upstream drops it on a reused connection', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const fetch = createNodeFetch({ httpAgent: agent })
  const first = await fetch(`${base}/v1/chat/completions`, { method: 'POST', body: chatBody })
  expect(first.status).toBe(200)
  await first.text()
  mode = 'reused'
  const second = await fetch(`${base}/v1/chat/completions`, { method: 'POST', body: chatBody })
  expect(second.status).toBe(200)
  expect(JSON.parse(await second.text()).choices[0].message.content).toBe('hi')
  expect({ received, dropped }).toEqual({ received: 3, dropped: 1 })
  agent.destroy()
})

it('createNodeFetch does not repeat a request that failed on a fresh connection, nor a second time', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const fetch = createNodeFetch({ httpAgent: agent })
  mode = 'all'
  await expect(fetch(`${base}/v1/chat/completions`, { method: 'POST', body: chatBody })).rejects.toThrow('fetch failed')
  expect({ received, dropped }).toEqual({ received: 1, dropped: 1 })

  mode = 'none'
  await (await fetch(`${base}/v1/chat/completions`, { method: 'POST', body: chatBody })).text()
  mode = 'all'
  received = 0
  dropped = 0
  // Reused connection dropped, then the new connection dropped too: two attempts, then the error.
  await expect(fetch(`${base}/v1/chat/completions`, { method: 'POST', body: chatBody })).rejects.toThrow('fetch failed')
  expect({ received, dropped }).toEqual({ received: 2, dropped: 2 })
  agent.destroy()
})

it('the gateway on toNodeListener answers 200 when its upstream drops a request on a reused connection', async () => {
  const gateway = createGateway({
    upstreams: { local: { format: 'chat-completions', baseURL: `${base}/v1`, apiKey: 'sk-local' } },
    models: { m: { upstream: 'local', model: 'real' } },
  })
  const front = createServer(toNodeListener(gateway))
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}/v1/messages`
  const ask = () =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hello' }] }),
    })
  try {
    expect((await ask()).status).toBe(200)
    mode = 'reused'
    const answer = await ask()
    expect(answer.status).toBe(200)
    expect((await answer.json()).content[0].text).toBe('hi')
    expect(dropped).toBe(1)
  } finally {
    await new Promise<void>((resolve) => front.close(() => resolve()))
  }
})
