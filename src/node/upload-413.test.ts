/**
 * A body over the limit through the Node adapter (issue 21, item 5): the 413 used to be written and the connection
 * closed at once, so a client still uploading failed with EPIPE (or ECONNRESET, without ever reading the answer). A
 * real node:http client uploads 20 MB to a 1 MB limit, several times, with a declared length and chunked, on the
 * gateway's fast path and on the Fetch-handler path: it always reads a 413 and its write never fails.
 */
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../gateway/create-gateway.js'
import { toNodeListener } from '../node.js'

const limit = 1024 * 1024
const upload = Buffer.alloc(20 * 1024 * 1024, 'a')
const servers: Record<'gateway' | 'fetch handler', { server?: Server; port: number }> = {
  gateway: { port: 0 },
  'fetch handler': { port: 0 },
}

beforeAll(async () => {
  const gateway = createGateway({ maxBodyBytes: limit })
  const listeners = {
    gateway: toNodeListener(gateway),
    'fetch handler': toNodeListener((request: Request) => gateway.fetch(request), { maxBodyBytes: limit }),
  }
  for (const name of Object.keys(servers) as Array<keyof typeof servers>) {
    const server = createServer(listeners[name])
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    servers[name] = { server, port: (server.address() as AddressInfo).port }
  }
})

afterAll(async () => {
  for (const { server } of Object.values(servers)) {
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
  }
})

interface Outcome {
  status?: number
  body: string
  /** An error of the request (writing the upload) or of the response. */
  error?: string
}

/**
 * Uploads 20 MB in 64 KB writes (honouring backpressure), as a client would. Settles 200 ms after the answer has been
 * read (node:http closes a `connection: close` socket then, whatever is left to upload) or at the first error.
 */
function uploadTooLarge(port: number, chunked: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { body: '' }
    const settle = () => setTimeout(() => resolve(outcome), 200)
    const fail = (error: NodeJS.ErrnoException) => {
      outcome.error ??= error.code ?? error.message
      resolve(outcome)
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (!chunked) headers['content-length'] = String(upload.length)
    const req = request(
      { host: '127.0.0.1', port, path: '/v1/chat/completions', method: 'POST', headers, agent: false },
      (res) => {
        outcome.status = res.statusCode
        res.setEncoding('utf8')
        res.on('data', (text: string) => {
          outcome.body += text
        })
        res.on('end', settle)
        res.on('error', fail)
      },
    )
    req.on('error', fail)
    let at = 0
    const write = () => {
      while (at < upload.length) {
        const more = req.write(upload.subarray(at, at + 65536))
        at += 65536
        if (!more) {
          req.once('drain', write)
          return
        }
      }
      req.end()
    }
    write()
  })
}

describe.each(['gateway', 'fetch handler'] as const)('%s: 20 MB uploaded to a 1 MB limit', (name) => {
  it.each([
    ['with content-length', false],
    ['chunked', true],
  ])('%s, 5 times: always the 413, never EPIPE or ECONNRESET', async (_, chunked) => {
    for (let i = 0; i < 5; i++) {
      const outcome = await uploadTooLarge(servers[name].port, chunked)
      expect(outcome.error, `upload ${i + 1}`).toBeUndefined()
      expect(outcome.status, `upload ${i + 1}`).toBe(413)
      expect(JSON.parse(outcome.body).error).toMatchObject({ code: 'request_too_large' })
    }
  })
})
