/// <reference types="node" />
/**
 * `createNodeFetch()`: the subset of `fetch` the gateway uses (string/URL input, method, headers, a string or byte
 * body, `signal`, `redirect`), over `node:http`/`node:https` with keep-alive agents. Node 20's global `fetch` (undici)
 * costs far more per request at the tail. `toNodeListener(gateway)` already reaches upstreams over `node:http` (see
 * `createNodeTransport`); this `fetch` is for code that needs a `fetch` function, e.g. `createGateway({ fetch })` elsewhere.
 * The response body is a web `ReadableStream` that pulls from the socket (backpressure) and errors when the signal
 * aborts. Anything outside the subset (a `Request` input, a stream or form body) falls back to `globalThis.fetch`.
 *
 * @example
 * const gateway = createGateway({ upstreams, fetch: createNodeFetch() })
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'

export interface NodeFetchOptions {
  /** Agent for `http:` URLs. @defaultValue a keep-alive agent */
  httpAgent?: HttpAgent
  /** Agent for `https:` URLs. @defaultValue a keep-alive agent */
  httpsAgent?: HttpsAgent
}

const maxRedirects = 20
const nullBodyStatus = new Set([101, 204, 205, 304])
const redirectStatus = new Set([301, 302, 303, 307, 308])

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError')
}

function toHeaderObject(init: HeadersInit | undefined): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {}
  if (!init) return out
  if (init instanceof Headers) {
    init.forEach((value, name) => {
      out[name] = value
    })
  } else if (Array.isArray(init)) {
    for (const [name, value] of init) out[(name as string).toLowerCase()] = value
  } else {
    for (const name of Object.keys(init)) out[name.toLowerCase()] = (init as Record<string, string>)[name]
  }
  return out
}

function toBytes(body: BodyInit | null | undefined): string | Uint8Array | undefined | false {
  if (body === undefined || body === null) return undefined
  if (typeof body === 'string') return body
  if (body instanceof Uint8Array) return body
  if (body instanceof ArrayBuffer) return new Uint8Array(body)
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
  return false
}

function responseHeaders(message: IncomingMessage): Headers {
  const headers = new Headers()
  const raw = message.rawHeaders
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string)
  return headers
}

/** The message's bytes as a pull-based web stream (the socket is paused between reads). */
function bodyStream(message: IncomingMessage, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  const encoding = (message.headers['content-encoding'] ?? '').trim().toLowerCase()
  const source: NodeJS.ReadableStream & { destroy(error?: Error): void } =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? message.pipe(createGunzip())
      : encoding === 'deflate'
        ? message.pipe(createInflate())
        : encoding === 'br'
          ? message.pipe(createBrotliDecompress())
          : message
  let onAbort: (() => void) | undefined
  let finished = false
  const detach = () => {
    finished = true
    if (onAbort) signal?.removeEventListener('abort', onAbort)
    onAbort = undefined
  }
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        source.pause()
        source.on('data', (chunk: Buffer) => {
          if (finished) return
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
          if ((controller.desiredSize ?? 0) <= 0) source.pause()
        })
        source.on('end', () => {
          if (finished) return
          detach()
          controller.close()
        })
        source.on('error', (error) => {
          if (finished) return
          detach()
          controller.error(error)
        })
        // A socket closed before the end (upstream reset) errors the body.
        message.on('close', () => {
          if (finished || message.complete) return
          detach()
          controller.error(new Error('The upstream connection closed before the body ended'))
        })
        if (signal) {
          onAbort = () => {
            const reason = abortReason(signal)
            if (finished) return
            detach()
            controller.error(reason)
            message.destroy()
            if (source !== message) source.destroy()
          }
          signal.addEventListener('abort', onAbort, { once: true })
        }
      },
      pull() {
        if (source.isPaused()) source.resume()
      },
      cancel() {
        detach()
        message.destroy()
        if (source !== message) source.destroy()
      },
    },
    // Up to 64 KiB buffered ahead of the reader, then the socket is paused (backpressure).
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  )
}

/** Errors of a kept-alive socket the upstream closed before answering (no byte of a response was read). */
export function staleSocketError(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED'
}

/** Creates a `fetch` over `node:http`/`node:https` with keep-alive agents (see the module doc). */
export function createNodeFetch(options: NodeFetchOptions = {}): typeof fetch {
  const httpAgent = options.httpAgent ?? new HttpAgent({ keepAlive: true })
  const httpsAgent = options.httpsAgent ?? new HttpsAgent({ keepAlive: true })

  function send(
    url: URL,
    method: string,
    headers: OutgoingHttpHeaders,
    body: string | Uint8Array | undefined,
    init: RequestInit,
    redirects: number,
    retried = false,
  ): Promise<Response> {
    const signal = init.signal ?? undefined
    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal))
        return
      }
      const https = url.protocol === 'https:'
      if (body !== undefined && headers['content-length'] === undefined)
        headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength
      if (body !== undefined && headers['content-type'] === undefined && typeof body === 'string')
        headers['content-type'] = 'text/plain;charset=UTF-8'
      const request = (https ? httpsRequest : httpRequest)(url, {
        method,
        headers,
        agent: https ? httpsAgent : httpAgent,
      })
      let settled = false
      const onAbort = () => {
        if (settled) return
        settled = true
        request.destroy()
        reject(abortReason(signal as AbortSignal))
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      request.on('error', (error) => {
        signal?.removeEventListener('abort', onAbort)
        if (settled) return
        settled = true
        // The keep-alive race (an idle connection closed by the upstream as this request was written): once more on
        // a new connection, as Node's `reusedSocket` documentation advises.
        if (!retried && request.reusedSocket && staleSocketError(error)) {
          resolve(send(url, method, headers, body, init, redirects, true))
          return
        }
        reject(new TypeError('fetch failed', { cause: error }))
      })
      request.on('response', (message) => {
        signal?.removeEventListener('abort', onAbort)
        if (settled) {
          message.destroy()
          return
        }
        settled = true
        const status = message.statusCode ?? 502
        const location = message.headers.location
        if (redirectStatus.has(status) && location && init.redirect !== 'manual') {
          message.resume()
          if (init.redirect === 'error') {
            reject(new TypeError('fetch failed', { cause: new Error('unexpected redirect') }))
            return
          }
          if (redirects >= maxRedirects) {
            reject(new TypeError('fetch failed', { cause: new Error('redirect count exceeded') }))
            return
          }
          const next = new URL(location, url)
          const toGet = status === 303 || ((status === 301 || status === 302) && method === 'POST')
          const nextHeaders = { ...headers }
          if (toGet) {
            delete nextHeaders['content-length']
            delete nextHeaders['content-type']
          }
          if (next.origin !== url.origin) delete nextHeaders.authorization
          resolve(send(next, toGet ? 'GET' : method, nextHeaders, toGet ? undefined : body, init, redirects + 1))
          return
        }
        const empty = nullBodyStatus.has(status) || method === 'HEAD'
        if (empty) message.resume()
        resolve(
          new Response(empty ? null : bodyStream(message, signal), {
            status,
            statusText: message.statusMessage ?? '',
            headers: responseHeaders(message),
          }),
        )
      })
      if (body === undefined) request.end()
      else request.end(body)
    })
  }

  return (input, init = {}) => {
    const body = toBytes(init.body)
    if (input instanceof Request || body === false) return globalThis.fetch(input, init)
    const url = typeof input === 'string' ? new URL(input) : input
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return globalThis.fetch(input, init)
    const method = (init.method ?? 'GET').toUpperCase()
    return send(url, method, toHeaderObject(init.headers), body, init, 0)
  }
}
