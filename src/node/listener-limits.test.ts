/**
 * `toNodeListener(fetchHandler, { maxBodyBytes })` answers a body over its own limit in the format the client speaks
 * (issue 12), like the gateway's own 413 — it used to send `{"error":{"message":…}}`, which no SDK parses as its error.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../gateway/create-gateway.js'
import { toNodeListener } from '../node.js'

let server: Server
let base = ''

beforeAll(async () => {
  const gateway = createGateway()
  server = createServer(toNodeListener((request) => gateway.fetch(request), { maxBodyBytes: 100 }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const big = 'x'.repeat(500)

describe('the Node adapter 413 (Fetch-handler path)', () => {
  it('chat-completions shape', async () => {
    const response = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: big }] }),
    })
    expect(response.status).toBe(413)
    expect((await response.json()).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'request_too_large',
      message: 'The request body is larger than 100 bytes',
    })
  })

  it('messages shape (anthropic-version)', async () => {
    const response = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      headers: { 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: big }] }),
    })
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } })
  })

  it('content-generation shape (x-goog-api-key)', async () => {
    const response = await fetch(`${base}/v1beta/models/m:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': 'k' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: big }] }] }),
    })
    expect(response.status).toBe(413)
    expect((await response.json()).error).toMatchObject({
      code: 413,
      message: 'The request body is larger than 100 bytes',
    })
  })
})
