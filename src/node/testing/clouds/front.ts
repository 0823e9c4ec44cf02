/**
 * What every cloud stand-in shares: a server on 127.0.0.1 that records each call (method, raw path and query, headers,
 * body) and hands it to the cloud's own checks, and the "backend" a cloud forwards an accepted call to — the model
 * behind the cloud, spoken in its format (the strict stand-in of `../strict-upstream.ts`, or, in the project's own
 * tests, the library's mock model).
 */
import type { Json } from '../json.js'
import { type RunningServer, serveStandIn } from '../server.js'
import { type ScriptTurn, type StandIn, startStandIn } from '../strict-upstream.js'

/** One call as the cloud received it. */
export interface CloudReceived {
  method: string
  /** The raw path (percent-encoding as sent) and query. */
  path: string
  headers: Record<string, string>
  body: Json
}

export interface CloudCall extends CloudReceived {
  url: URL
  request: Request
  /** The body's text as received (signatures cover it byte for byte). */
  text: string
}

/**
 * The model behind a cloud: a POST of `body` to a first-party `path` of its format (`/v1/messages`,
 * `/v1/chat/completions`, `/v1beta/models/{m}:generateContent`…), answered in that format.
 */
export type Backend = (path: string, body: string, headers?: Record<string, string>) => Promise<Response>

export interface CloudServer extends RunningServer {
  received: CloudReceived[]
}

/** Serves `handle` on 127.0.0.1, recording each call first (but those to the path `unrecorded`: a token endpoint). */
export async function serveCloud(
  handle: (call: CloudCall) => Promise<Response>,
  port?: number,
  unrecorded?: string,
): Promise<CloudServer> {
  const received: CloudReceived[] = []
  const running = await serveStandIn(async (request) => {
    const url = new URL(request.url)
    const headers: Record<string, string> = {}
    request.headers.forEach((value, name) => {
      headers[name] = value
    })
    const text = await request.text()
    let body: Json
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
    const call: CloudReceived = { method: request.method, path: `${url.pathname}${url.search}`, headers, body }
    if (url.pathname !== unrecorded) received.push(call)
    return handle({ ...call, url, request, text })
  }, port)
  return { ...running, received }
}

/** A strict stand-in of every format as a cloud's backend (any key: the cloud checked its own credentials). */
export async function strictBackend(script?: ScriptTurn[]): Promise<{ backend: Backend; standIn: StandIn }> {
  const standIn = await startStandIn({ validate: true, ...(script ? { script } : {}) })
  const backend: Backend = (path, body, headers = {}) =>
    fetch(`${standIn.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    })
  return { backend, standIn }
}

/** Estimated input tokens of a body (token-counting endpoints): four characters a token, at least 1. */
export function countOf(body: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(body ?? '').length / 4))
}
