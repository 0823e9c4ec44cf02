/// <reference types="node" />
/**
 * @module interlingua/node
 * Serve a gateway (or any Fetch handler, `(request: Request) => Promise<Response>`) from `node:http`, with streaming,
 * backpressure and disconnect handling.
 *
 * Given a gateway (`toNodeListener(gateway)` or `toNodeListener(gateway.fetch)`), the listener takes the fast path:
 * it drives the gateway's core straight from `IncomingMessage` to `ServerResponse` (no `Request`/`Response` per
 * request) and reaches upstreams with the keep-alive `node:http` client — unless the gateway was given its own
 * `fetch`, which is then used. Any other Fetch handler goes through `Request`/`Response`.
 *
 * @example
 * import { createServer } from 'node:http'
 * import { createGateway } from 'interlingua/gateway'
 * import { toNodeListener } from 'interlingua/node'
 * createServer(toNodeListener(createGateway())).listen(8787, '127.0.0.1')
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { InterlinguaError } from './errors.js'
import { getFormat } from './formats/index.js'
import { errorInfo } from './gateway/errors.js'
import { guessClientFormat } from './gateway/routing.js'
import { type ExchangeHandler, type ExchangeRuntime, exchangeHandler } from './http/exchange.js'
import { createNodeMediaFetch } from './node/media-fetch.js'
import { endAfterBody, serveExchange, writeRefusal } from './node/serve.js'
import { createNodeTransport } from './node/upstream.js'

/** Anything with the Fetch handler shape. */
export type FetchHandler = (request: Request) => Response | Promise<Response>

/** What `toNodeListener` serves: a Fetch handler, or an object with a `fetch` method (a gateway). */
export type Servable = FetchHandler | { fetch: FetchHandler }

/** The gateway's exchange handler, when `target` is a gateway or its `fetch`. */
function exchangeOf(target: Servable): ExchangeHandler | undefined {
  const handler = (target as unknown as Record<symbol, unknown>)[exchangeHandler]
  return typeof handler === 'function' ? (handler as ExchangeHandler) : undefined
}

/** The process-wide runtime of the fast path: one keep-alive upstream client, made on first use. */
let nodeRuntime: ExchangeRuntime | undefined

export interface NodeListenerOptions {
  /**
   * Request bodies are buffered (they are JSON documents); beyond this many bytes the bridge stops reading and
   * answers 413 itself. The gateway's own `maxBodyBytes` (which answers in the client's format) should be lower.
   * @defaultValue 64 MiB
   */
  maxBodyBytes?: number
  /** Called when the handler throws or writing the response fails. @defaultValue logs to console.error */
  onError?: (error: unknown) => void
}

const noBody = new Set(['GET', 'HEAD'])

const tooLargeMessage = (limit: number) => `The request body is larger than ${limit} bytes`

/**
 * The request body as a pull-based stream: read only as the handler reads it (so a handler that refuses a request
 * from its headers — a gateway checking the key — never reads the body). Beyond `limit` bytes it errors with a 413
 * `InterlinguaError` (the gateway answers it in the client's format) and `onTooLarge` is called.
 */
function bodyStream(req: IncomingMessage, limit: number, onTooLarge: () => void): ReadableStream<Uint8Array> {
  let size = 0
  let finished = false
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          if (finished) return
          size += chunk.length
          if (size > limit) {
            finished = true
            req.pause()
            onTooLarge()
            controller.error(new InterlinguaError('request-too-large', tooLargeMessage(limit)))
            return
          }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
          if ((controller.desiredSize ?? 0) <= 0) req.pause()
        })
        req.on('end', () => {
          if (finished) return
          finished = true
          controller.close()
        })
        req.on('error', (error) => {
          if (finished) return
          finished = true
          controller.error(error)
        })
        req.pause()
      },
      pull() {
        req.resume()
      },
      cancel() {
        finished = true
      },
    },
    // Up to 64 KiB read ahead of the handler, then the socket is paused (backpressure).
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  )
}

/**
 * Node 20's `Request` constructor registers a WeakRef/FinalizationRegistry entry per request when given a `signal`
 * (tens of ms of p99 under load). Instead the request is built without one and `signal` is installed as an own
 * property shadowing `Request.prototype.signal`: `request.signal` is still the given signal (it aborts when the client
 * goes away), only copies made with `new Request(request)` / `request.clone()` do not follow it.
 */
function withSignal(request: Request, signal: AbortSignal): Request {
  Object.defineProperty(request, 'signal', { value: signal, enumerable: false, configurable: true })
  return request
}

/**
 * Builds the Fetch `Request` for an incoming message (`signal` aborts when the client goes away). The body is streamed
 * to the handler as it reads it, not buffered first; `undefined` when the declared length is over `maxBodyBytes`, and
 * a body that grows past it errors the handler's read (`onTooLarge` is called).
 */
export async function toRequest(
  req: IncomingMessage,
  signal: AbortSignal,
  maxBodyBytes = 64 * 1024 * 1024,
  onTooLarge: () => void = () => {},
): Promise<Request | undefined> {
  const headers = new Headers()
  const raw = req.rawHeaders
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string
    if (name.charCodeAt(0) === 58 /* ':' HTTP/2 pseudo-header */) continue
    headers.append(name, raw[i + 1] as string)
  }
  const method = req.method ?? 'GET'
  const host = req.headers.host ?? '127.0.0.1'
  const url = `http://${host}${req.url ?? '/'}`
  if (noBody.has(method)) return withSignal(new Request(url, { method, headers }), signal)
  if (Number(req.headers['content-length'] ?? Number.NaN) > maxBodyBytes) return undefined
  const body = bodyStream(req, maxBodyBytes, onTooLarge)
  return withSignal(new Request(url, { method, headers, body, duplex: 'half' } as RequestInit), signal)
}

/** Writes a Fetch `Response` to a `ServerResponse`, honouring backpressure; cancels the body if the client leaves. */
export function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  return pipeResponse(response, res, () => res.end())
}

/** {@link writeResponse}, ending the answer with `end`. */
async function pipeResponse(response: Response, res: ServerResponse, end: () => void): Promise<void> {
  const headers: string[] = []
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return
    headers.push(name, value)
  })
  for (const cookie of response.headers.getSetCookie()) headers.push('set-cookie', cookie)
  res.writeHead(response.status, response.statusText || undefined, headers)
  const body = response.body
  if (!body) {
    end()
    return
  }
  const reader = body.getReader()
  const onClose = () => {
    if (!res.writableFinished) reader.cancel().catch(() => {})
  }
  res.on('close', onClose)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (res.destroyed) break
      if (!res.write(value)) {
        // Backpressure: wait until the socket drains (or closes).
        await new Promise<void>((resolve) => {
          const finish = () => {
            res.off('drain', finish)
            res.off('close', finish)
            resolve()
          }
          res.on('drain', finish)
          res.on('close', finish)
        })
      }
      // Flush compression or other buffering middleware when present (Express + compression).
      ;(res as unknown as { flush?: () => void }).flush?.()
    }
    if (!res.destroyed) end()
  } finally {
    res.off('close', onClose)
    reader.releaseLock()
  }
}

/**
 * Turns a gateway or a Fetch handler into a `node:http` request listener (see the module doc for the gateway fast
 * path). A client disconnect aborts the upstream request and cancels the response body.
 */
export function toNodeListener(
  target: Servable,
  options: NodeListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const onError = options.onError ?? ((error: unknown) => console.error('[interlingua]', error))
  const exchange = exchangeOf(target)
  if (exchange) {
    nodeRuntime ??= { transport: createNodeTransport(), mediaFetch: createNodeMediaFetch(), sharedTimers: true }
    return serveExchange(exchange, { onError, runtime: nodeRuntime })
  }
  const handler: FetchHandler = typeof target === 'function' ? target : (request) => target.fetch(request)
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024 * 1024
  /** The adapter's own 413, in the format the client most likely speaks (like the gateway's own). */
  const refuseTooLarge = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const headers = new Headers()
    for (const name of ['anthropic-version', 'x-api-key', 'x-goog-api-key']) {
      const value = req.headers[name]
      if (typeof value === 'string') headers.set(name, value)
    }
    const info = errorInfo('request-too-large', tooLargeMessage(maxBodyBytes))
    const encoded = getFormat(guessClientFormat(url, headers)).encodeError(info)
    const result = {
      status: encoded.status,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(encoded.body),
    }
    writeRefusal(result, req, res)
  }
  return (req, res) => {
    const controller = new AbortController()
    res.on('close', () => {
      if (!res.writableFinished) controller.abort()
    })
    let tooLarge = false
    void (async () => {
      try {
        const request = await toRequest(req, controller.signal, maxBodyBytes, () => {
          tooLarge = true
        })
        if (!request) {
          refuseTooLarge(req, res)
          return
        }
        const response = await handler(request)
        // The handler answered a body over the limit itself (the gateway's 413): ended once the upload has arrived.
        await pipeResponse(response, res, tooLarge ? () => endAfterBody(req, res) : () => res.end())
      } catch (error) {
        if (controller.signal.aborted) return
        if (tooLarge && !res.headersSent) {
          refuseTooLarge(req, res)
          return
        }
        onError(error)
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ error: { message: 'Internal error' } }))
        } else {
          res.destroy()
        }
      }
    })()
  }
}

export { type CliConfig, type CloudRoute, loadCliConfig } from './node/cli-config.js'
export { createNodeFetch, type NodeFetchOptions } from './node/fetch.js'
export { createNodeMediaFetch, type NodeMediaFetchOptions } from './node/media-fetch.js'
export { createNodeTransport, type NodeTransportOptions } from './node/upstream.js'
