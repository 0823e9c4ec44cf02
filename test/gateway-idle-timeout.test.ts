/**
 * The idle timeout of streamed upstream answers (issue 12): an upstream that sends stream headers and then nothing,
 * or stalls mid-stream, used to hold the client forever. Real HTTP on both transports (the Node adapter's node:http
 * client, and fetch) against a local upstream that stalls: a 504 in the client's format when nothing was sent yet,
 * else the client format's in-stream timeout error and a clean end, within the configured idle time.
 */
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../src/gateway/create-gateway.js'
import type { GatewayOptions } from '../src/gateway/options.js'
import { toNodeListener } from '../src/node.js'

const firstChunk =
  'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}\n\n'

let upstream: Server
let upstreamPort = 0
const held: ServerResponse[] = []

beforeAll(async () => {
  // `stall-first`: headers, then nothing. `stall-mid`: one chunk, then nothing. Both hold the connection open.
  upstream = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.flushHeaders()
      if (req.url?.startsWith('/stall-mid')) res.write(firstChunk)
      held.push(res)
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  upstreamPort = (upstream.address() as AddressInfo).port
})

afterAll(async () => {
  for (const res of held) res.destroy()
  upstream.closeAllConnections()
  await new Promise((resolve) => upstream.close(resolve))
})

function gatewayOptions(mode: 'stall-first' | 'stall-mid'): GatewayOptions {
  return {
    upstreams: {
      openai: { format: 'chat-completions', baseURL: `http://127.0.0.1:${upstreamPort}/${mode}/v1`, apiKey: 'k' },
    },
    idleTimeoutMs: 150,
  }
}

const requests = {
  'chat-completions': {
    path: '/v1/chat/completions',
    body: { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] },
  },
  messages: {
    path: '/v1/messages',
    body: { model: 'm', stream: true, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
  },
}

type Transport = 'node adapter (node:http upstream)' | 'fetch'

async function call(transport: Transport, mode: 'stall-first' | 'stall-mid', client: keyof typeof requests) {
  const gateway = createGateway(gatewayOptions(mode))
  const { path, body } = requests[client]
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
  const started = Date.now()
  if (transport === 'fetch') {
    const response = await gateway.fetch(new Request(`http://gateway.test${path}`, init))
    return { status: response.status, text: await response.text(), elapsed: Date.now() - started }
  }
  const front = createServer(toNodeListener(gateway))
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  try {
    const response = await fetch(`http://127.0.0.1:${(front.address() as AddressInfo).port}${path}`, init)
    return { status: response.status, text: await response.text(), elapsed: Date.now() - started }
  } finally {
    front.closeAllConnections()
    await new Promise((resolve) => front.close(resolve))
  }
}

describe.each<Transport>(['node adapter (node:http upstream)', 'fetch'])('%s', (transport) => {
  it('translated, stalled before the first byte: 504 in the client format', async () => {
    const { status, text, elapsed } = await call(transport, 'stall-first', 'messages')
    expect(status).toBe(504)
    expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'timeout_error' } })
    expect(text).toContain('sent nothing for 150 ms')
    expect(elapsed).toBeLessThan(5000)
  })

  it('translated, stalled mid-stream: the in-stream timeout error, then a clean end', async () => {
    const { status, text } = await call(transport, 'stall-mid', 'messages')
    expect(status).toBe(200)
    expect(text).toContain('"text":"Hel"')
    expect(text).toMatch(
      /event: error\ndata: \{"type":"error","error":\{"type":"timeout_error","message":"The upstream \\"openai\\" sent nothing for 150 ms"/,
    )
  })

  it('passthrough, stalled before the first byte: 504 in the client format (nothing was committed yet)', async () => {
    const { status, text } = await call(transport, 'stall-first', 'chat-completions')
    expect(status).toBe(504)
    expect(JSON.parse(text).error).toMatchObject({ type: 'server_error', code: 'timeout' })
    expect(text).toContain('sent nothing for 150 ms')
  })

  it('passthrough, stalled mid-stream: the in-stream timeout error, then a clean end', async () => {
    const { status, text } = await call(transport, 'stall-mid', 'chat-completions')
    expect(status).toBe(200)
    expect(text.startsWith(firstChunk)).toBe(true)
    expect(text).toContain('sent nothing for 150 ms')
    expect(text).toContain('"code":"timeout"')
  })
})
