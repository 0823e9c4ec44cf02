/**
 * The DNS-resolution check for media on Node (issue 12): a name that resolves to loopback (here through a stub
 * resolver, as `/etc/hosts` or DNS would) is refused at connect time — the local server never sees the request — while
 * the same fetch reaches it when the check is off. End to end through the gateway: a native 400 naming the path.
 */
import { lookup } from 'node:dns/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo, LookupFunction } from 'node:net'
import { hostname } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../gateway/create-gateway.js'
import { createMediaFetcher, isPrivateHost } from '../gateway/media.js'
import { toNodeListener } from '../node.js'
import { createNodeMediaFetch, guardedLookup } from './media-fetch.js'

let server: Server
let port = 0
let hits = 0
const png = Buffer.from([137, 80, 78, 71])

/** Resolves every name to 127.0.0.1, as a hostile DNS record or an /etc/hosts entry would. */
const toLoopback: LookupFunction = (_hostname, options, callback) => {
  if ((options as { all?: boolean }).all)
    (callback as (e: null, a: unknown[]) => void)(null, [{ address: '127.0.0.1', family: 4 }])
  else callback(null, '127.0.0.1', 4)
}

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++
    res.writeHead(200, { 'content-type': 'image/png' })
    res.end(png)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

describe('createNodeMediaFetch', () => {
  it('refuses a public-looking name that resolves to loopback before connecting', async () => {
    const before = hits
    const fetcher = createMediaFetcher({ fetch: createNodeMediaFetch({ lookup: toLoopback }) })
    await expect(fetcher(`http://images.example.com:${port}/a.png`, 'messages[0].content[1]')).rejects.toThrow(
      'messages[0].content[1]: media URL refused: images.example.com resolves to a private or loopback address',
    )
    expect(hits).toBe(before)
  })

  it('reaches the same server when the check is off (the refusal is the check, not the network)', async () => {
    const before = hits
    const fetcher = createMediaFetcher({
      fetch: createNodeMediaFetch({ lookup: toLoopback, allowPrivate: true }),
    })
    const fetched = await fetcher(`http://images.example.com:${port}/a.png`, 'p')
    expect(fetched).toEqual({ mediaType: 'image/png', data: png.toString('base64') })
    expect(hits).toBe(before + 1)
  })

  it('the guarded lookup passes public addresses through, in both callback shapes', async () => {
    const toPublic: LookupFunction = (_hostname, options, callback) => {
      if ((options as { all?: boolean }).all)
        (callback as (e: null, a: unknown[]) => void)(null, [{ address: '93.184.216.34', family: 4 }])
      else callback(null, '93.184.216.34', 4)
    }
    const lookup = guardedLookup(toPublic)
    const single = await new Promise((resolve) =>
      lookup('example.com', {}, (error, address) => resolve({ error, address })),
    )
    expect(single).toEqual({ error: null, address: '93.184.216.34' })
    const all = await new Promise((resolve) =>
      lookup('example.com', { all: true }, (error, address) => resolve({ error, address })),
    )
    expect(all).toEqual({ error: null, address: [{ address: '93.184.216.34', family: 4 }] })
  })

  it('through the gateway: a native 400 naming the image, nothing sent upstream', async () => {
    const upstreamCalls: string[] = []
    const gateway = createGateway({
      upstreams: { gemini: { format: 'content-generation', baseURL: 'http://upstream.test', apiKey: 'k' } },
      fetch: (async (input: RequestInfo | URL) => {
        upstreamCalls.push(String(input))
        return new Response('{}')
      }) as typeof fetch,
      media: { fetch: createNodeMediaFetch({ lookup: toLoopback }) },
    })
    const before = hits
    const body = {
      model: 'gemini-model',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: `http://cdn.example.net:${port}/cat.png` } },
          ],
        },
      ],
    }
    const response = await gateway.fetch(
      new Request('http://gateway.test/v1/chat/completions', { method: 'POST', body: JSON.stringify(body) }),
    )
    expect(response.status).toBe(400)
    expect((await response.json()).error).toMatchObject({
      type: 'invalid_request_error',
      param: 'messages[0].content[1]',
    })
    expect(hits).toBe(before)
    expect(upstreamCalls).toEqual([])
  })
})

// This machine's own name resolves (through /etc/hosts) to a loopback or private address on CI containers and VMs.
const ownName = hostname()
const ownNameIsPrivate = await lookup(ownName).then(
  ({ address }) => isPrivateHost(address),
  () => false,
)

describe.skipIf(!ownNameIsPrivate)(
  'the Node adapter (toNodeListener(gateway)) checks resolved media addresses by default',
  () => {
    it(`refuses http://${ownName}/… (a name resolving to a private address) with a native 400; nothing fetched`, async () => {
      const gateway = createGateway({
        upstreams: { gemini: { format: 'content-generation', baseURL: `http://127.0.0.1:${port}`, apiKey: 'k' } },
      })
      const front = createServer(toNodeListener(gateway))
      await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
      const frontPort = (front.address() as AddressInfo).port
      const before = hits
      try {
        const body = {
          model: 'gemini-model',
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'look' },
                { type: 'image_url', image_url: { url: `http://${ownName}:${port}/cat.png` } },
              ],
            },
          ],
        }
        const response = await fetch(`http://127.0.0.1:${frontPort}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
        expect(response.status).toBe(400)
        const error = (await response.json()).error
        expect(error.param).toBe('messages[0].content[1]')
        expect(error.message).toContain(`${ownName} resolves to a private or loopback address`)
        expect(hits).toBe(before)
      } finally {
        await new Promise((resolve) => front.close(resolve))
      }
    })
  },
)
