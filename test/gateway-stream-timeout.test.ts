/**
 * Translated stream timeouts, every client format × every other upstream format (issue 21, item 5): an upstream that
 * sends its stream headers and then nothing — or trickles bytes that never complete an event — until `timeoutMs` used
 * to answer 502 "The upstream stream failed before it finished". Before any content: a 504 in the client's format
 * (`timeout_error`, `DEADLINE_EXCEEDED`, `code: "timeout"`); once content was sent: the client format's in-stream
 * timeout error. Real HTTP through the Node adapter (node:http upstream client) against a local upstream.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../src/gateway/create-gateway.js'
import type { FormatId } from '../src/ir/format-id.js'
import { toNodeListener } from '../src/node.js'

const formats: FormatId[] = ['chat-completions', 'messages', 'content-generation', 'responses']

/** The upstream's recorded text stream, up to and including its first event that carries text. */
function firstTextEvents(format: FormatId): string {
  const events = readFileSync(join(import.meta.dirname, 'fixtures', format, 'text.sse'), 'utf8').split('\n\n')
  const first = events.findIndex((event) => /"(text|content|delta)":"[^"]/.test(event))
  return `${events.slice(0, first + 1).join('\n\n')}\n\n`
}

type Mode = 'silent' | 'trickle' | 'mid'

let upstream: Server
let upstreamPort = 0
const held = new Set<ServerResponse>()

beforeAll(async () => {
  // /<mode>/<format>/…: `silent` sends headers, then nothing; `trickle` one byte of an event every 20 ms that never
  // completes it; `mid` the first text event(s), then nothing. Each holds the connection open.
  upstream = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const [, mode, format] = (req.url ?? '').split('/') as [string, Mode, FormatId]
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.flushHeaders()
      held.add(res)
      res.on('close', () => held.delete(res))
      if (mode === 'mid') res.write(firstTextEvents(format))
      if (mode === 'trickle') {
        const partial = firstTextEvents(format).slice(0, 200)
        let at = 0
        const timer = setInterval(() => {
          if (at < partial.length) res.write(partial[at++] as string)
        }, 20)
        res.on('close', () => clearInterval(timer))
      }
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

const requestOf: Record<FormatId, (model: string) => { path: string; body: unknown }> = {
  'chat-completions': (model) => ({
    path: '/v1/chat/completions',
    body: { model, stream: true, messages: [{ role: 'user', content: 'hi' }] },
  }),
  messages: (model) => ({
    path: '/v1/messages',
    body: { model, stream: true, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
  }),
  'content-generation': (model) => ({
    path: `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  }),
  responses: (model) => ({ path: '/v1/responses', body: { model, stream: true, input: 'hi' } }),
}

const baseURLOf = (mode: Mode, format: FormatId) =>
  `http://127.0.0.1:${upstreamPort}/${mode}/${format}${format === 'chat-completions' || format === 'responses' ? '/v1' : ''}`

async function call(mode: Mode, client: FormatId, upstreamFormat: FormatId, transport: 'node' | 'fetch' = 'node') {
  const timeouts = mode === 'mid' ? { idleTimeoutMs: 200 } : { timeoutMs: 300, idleTimeoutMs: 30_000 }
  const gateway = createGateway({
    upstreams: { up: { format: upstreamFormat, baseURL: baseURLOf(mode, upstreamFormat), apiKey: 'k' } },
    ...timeouts,
  })
  const { path, body } = requestOf[client]('m')
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

/** The 504 body each client format's SDK reads as a timeout. */
const timeoutBody: Record<FormatId, object> = {
  'chat-completions': { error: { type: 'server_error', code: 'timeout' } },
  messages: { type: 'error', error: { type: 'timeout_error' } },
  'content-generation': { error: { code: 504, status: 'DEADLINE_EXCEEDED' } },
  responses: { error: { type: 'server_error', code: 'timeout' } },
}

/** The client format's in-stream timeout error, after content. */
const inStreamTimeout: Record<FormatId, RegExp> = {
  'chat-completions':
    /data: \{"error":\{"message":"The upstream \\"up\\" sent nothing for 200 ms","type":"server_error","param":null,"code":"timeout"\}\}\n\ndata: \[DONE\]\n\n$/,
  messages:
    /event: error\ndata: \{"type":"error","error":\{"type":"timeout_error","message":"The upstream \\"up\\" sent nothing for 200 ms"\}/,
  'content-generation':
    /data: \{"error":\{"code":504,"message":"The upstream \\"up\\" sent nothing for 200 ms","status":"DEADLINE_EXCEEDED"\}\}\n\n$/,
  responses:
    /event: error\ndata: \{"type":"error","sequence_number":\d+,"code":"server_error","message":"The upstream \\"up\\" sent nothing for 200 ms"[^\n]*\n\nevent: response.failed\n/,
}

const pairs = formats.flatMap((client) =>
  formats.filter((up) => up !== client).map((up) => [client, up] as [FormatId, FormatId]),
)

describe.each(pairs)('%s client, %s upstream (translated)', (client, upstreamFormat) => {
  it.concurrent.each<Mode>(['silent', 'trickle'])(
    '%s until timeoutMs, before any content: 504 in the client format',
    async (mode) => {
      const { status, text, elapsed } = await call(mode, client, upstreamFormat)
      expect(status).toBe(504)
      expect(JSON.parse(text)).toMatchObject(timeoutBody[client])
      expect(text).toContain('The upstream \\"up\\" did not answer in time')
      expect(elapsed).toBeLessThan(5000)
    },
  )

  it.concurrent('stalled after content: the in-stream timeout error, then a clean end', async () => {
    const { status, text } = await call('mid', client, upstreamFormat)
    expect(status).toBe(200)
    expect(text).toMatch(inStreamTimeout[client])
  })
})

describe.each(formats)('%s client over the fetch transport (gateway.fetch)', (client) => {
  const upstreamFormat = client === 'messages' ? 'chat-completions' : 'messages'
  it.concurrent.each<Mode>(['silent', 'trickle'])('%s until timeoutMs: 504 in the client format', async (mode) => {
    const { status, text } = await call(mode, client, upstreamFormat, 'fetch')
    expect(status).toBe(504)
    expect(JSON.parse(text)).toMatchObject(timeoutBody[client])
  })
})
