/**
 * The recorder the clients talk to (`npm run clients:record`): a server on 127.0.0.1 that keeps every request it is
 * sent — method, path, query, the headers that matter, the body as sent — and answers like a plausible upstream so the
 * client goes on through a tool round trip: a generation request goes to a strict stand-in of its own format
 * (test/sdk/strict-upstreams.ts: turn 1 answers reasoning, with that service's kind of signature, and the tool call the
 * scenario scripts; turn 2, after the tool result, answers text), anything else (token counts, model listings) to the
 * library's own gateway on its mock model. Keys are never written: key headers are redacted, and so is any occurrence
 * of the key the client was given.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { createGateway } from '../../src/gateway/create-gateway.js'
import { type Running, serve } from '../../test/sdk/servers.js'
import {
  type FormatId,
  type StrictUpstream,
  startStrictUpstream,
  type ToolCallScript,
} from '../../test/sdk/strict-upstreams.js'
import { replaceStrings } from './fixtures.js'

/** One request as a fixture holds it (`test/fixtures/clients/<client>/<version>/<scenario>.json`). */
export interface RecordedRequest {
  /** The wire format of a generation request (what the replay sends it as); absent for anything else. */
  format?: FormatId
  method: string
  path: string
  query: Record<string, string>
  headers: Record<string, string>
  body: unknown
}

export interface Recorder extends Running {
  requests: RecordedRequest[]
  /** Answers of the stand-in it refused (a client sent what the real service rejects). */
  rejections: string[]
  /** Sets the tool call the next turn-1 answers script (per client). */
  script(toolCall: ToolCallScript): void
}

/** Headers that say nothing about what the client sends, or that only the transport sets. */
const transportHeaders = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding'])
const secretHeader = /authorization|api-key|apikey|token|secret|cookie/i

export const REDACTED = '[redacted]'

/** The generation route of a request, by path (the four formats' own). */
export function generationFormat(method: string, path: string): FormatId | undefined {
  if (method !== 'POST') return undefined
  if (/\/chat\/completions$/.test(path)) return 'chat-completions'
  if (/\/messages$/.test(path)) return 'messages'
  if (/\/responses$/.test(path)) return 'responses'
  if (/\/models\/[^/]+:(stream)?[gG]enerateContent$/.test(path)) return 'content-generation'
  return undefined
}

function decodeBody(bytes: Buffer, encoding: string | null): Buffer {
  if (encoding === 'gzip') return gunzipSync(bytes)
  if (encoding === 'deflate') return inflateSync(bytes)
  if (encoding === 'br') return brotliDecompressSync(bytes)
  return bytes
}

export async function startRecorder(secrets: readonly string[]): Promise<Recorder> {
  const redactions = new Map(secrets.map((secret) => [secret, REDACTED]))
  let toolCall: ToolCallScript = () => undefined
  const strict: StrictUpstream = await startStrictUpstream({ toolCall: (names) => toolCall(names) })
  const mock = createGateway({})
  const requests: RecordedRequest[] = []
  const running = await serve(async (request) => {
    const url = new URL(request.url)
    const bytes = Buffer.from(await request.arrayBuffer())
    const encoding = request.headers.get('content-encoding')
    const text = decodeBody(bytes, encoding).toString('utf8')
    let body: unknown = text === '' ? null : text
    try {
      body = text === '' ? null : JSON.parse(text)
    } catch {}
    const headers: Record<string, string> = {}
    request.headers.forEach((value, name) => {
      if (transportHeaders.has(name)) return
      headers[name] = secretHeader.test(name) ? REDACTED : value
    })
    const format = generationFormat(request.method, url.pathname)
    const recorded: RecordedRequest = {
      ...(format ? { format } : {}),
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: replaceStrings(headers, redactions) as Record<string, string>,
      body: replaceStrings(body, redactions),
    }
    requests.push(recorded)
    const forward = new Headers(request.headers)
    forward.delete('content-encoding')
    forward.delete('content-length')
    const init: RequestInit = { method: request.method, headers: forward }
    if (request.method !== 'GET' && request.method !== 'HEAD') init.body = text
    if (format) return fetch(`${strict.url}${url.pathname}${url.search}`, init)
    return mock.fetch(new Request(url, init))
  })
  return {
    ...running,
    requests,
    rejections: strict.rejections,
    script(next) {
      toolCall = next
    },
    async close() {
      await running.close()
      await strict.close()
    },
  }
}
