/// <reference types="node" />
/**
 * The `node:http`/`node:https` upstream transport with keep-alive agents: the default when the gateway is served
 * through `interlingua/node` (and has no `fetch` option). The answer's body is read straight off the socket with
 * `readable`/`read()` — what arrived since the last read comes back as one chunk, and nothing is read ahead beyond the
 * stream's own buffer (backpressure reaches the upstream's TCP window).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import type { Cancel, UpstreamAnswer, UpstreamTransport } from '../gateway/upstream.js'
import { staleSocketError } from './fetch.js'

export interface NodeTransportOptions {
  /** Agent for `http:` URLs. @defaultValue a keep-alive agent shared by the process */
  httpAgent?: HttpAgent
  /** Agent for `https:` URLs. @defaultValue a keep-alive agent shared by the process */
  httpsAgent?: HttpsAgent
}

const aborted = () => new DOMException('The operation was aborted', 'AbortError')

function decoded(message: IncomingMessage): Readable {
  const encoding = message.headers['content-encoding']?.trim().toLowerCase()
  if (encoding === 'gzip' || encoding === 'x-gzip') return message.pipe(createGunzip())
  if (encoding === 'deflate') return message.pipe(createInflate())
  if (encoding === 'br') return message.pipe(createBrotliDecompress())
  return message
}

/** An answer over an `IncomingMessage`, pulled with `read()`. */
export function answerOfMessage(message: IncomingMessage, handle: Cancel): UpstreamAnswer {
  const source = decoded(message)
  let ended = false
  let failed: unknown
  let waiting: { resolve: (chunk: Uint8Array | undefined) => void; reject: (error: unknown) => void } | undefined
  const settle = () => {
    const wait = waiting
    if (!wait) return
    const chunk = source.read() as Buffer | null
    if (chunk !== null) wait.resolve(chunk)
    else if (failed !== undefined) wait.reject(failed)
    else if (ended) wait.resolve(undefined)
    else return
    waiting = undefined
  }
  source.on('readable', settle)
  source.on('end', () => {
    ended = true
    settle()
  })
  source.on('error', (error) => {
    failed ??= error
    settle()
  })
  // A socket closed before the end (upstream reset, or cancelled) fails the body.
  message.on('close', () => {
    if (message.complete && !handle.cancelled) return
    failed ??= handle.cancelled ? aborted() : new Error('The upstream connection closed before the body ended')
    settle()
  })
  const close = () => {
    failed ??= aborted()
    message.destroy()
    if (source !== message) source.destroy()
    settle()
  }
  handle.onCancel = close
  const next = (): Promise<Uint8Array | undefined> => {
    const chunk = source.read() as Buffer | null
    if (chunk !== null) return Promise.resolve(chunk)
    if (failed !== undefined) return Promise.reject(failed)
    if (ended) return Promise.resolve(undefined)
    return new Promise((resolve, reject) => {
      waiting = { resolve, reject }
    })
  }
  return {
    status: message.statusCode ?? 502,
    header(name) {
      const value = message.headers[name]
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
    },
    *headerEntries() {
      const raw = message.rawHeaders
      for (let i = 0; i < raw.length; i += 2) yield [(raw[i] as string).toLowerCase(), raw[i + 1] as string]
    },
    next,
    async text() {
      const chunks: Buffer[] = []
      for (let chunk = await next(); chunk !== undefined; chunk = await next()) chunks.push(chunk as Buffer)
      return (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8')
    },
    close,
  }
}

interface Endpoint {
  https: boolean
  options: RequestOptions
}

/** Creates the transport. Parsed upstream URLs are kept (they come from the gateway's per-model target cache). */
export function createNodeTransport(options: NodeTransportOptions = {}): UpstreamTransport {
  const httpAgent = options.httpAgent ?? new HttpAgent({ keepAlive: true })
  const httpsAgent = options.httpsAgent ?? new HttpsAgent({ keepAlive: true })
  const endpoints = new Map<string, Endpoint>()
  const endpointOf = (href: string): Endpoint => {
    let endpoint = endpoints.get(href)
    if (!endpoint) {
      const url = new URL(href)
      const https = url.protocol === 'https:'
      endpoint = {
        https,
        options: {
          protocol: url.protocol,
          hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
          port: url.port || (https ? 443 : 80),
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          agent: https ? httpsAgent : httpAgent,
        },
      }
      if (endpoints.size >= 1000) endpoints.clear()
      endpoints.set(href, endpoint)
    }
    return endpoint
  }
  return (call) =>
    new Promise<UpstreamAnswer>((resolve, reject) => {
      if (call.cancel.cancelled) {
        reject(aborted())
        return
      }
      const { https, options: base } = endpointOf(call.url)
      const headers: Record<string, string | number> = { ...call.headers }
      headers['content-length'] = Buffer.byteLength(call.body)
      let settled = false
      const send = (retried: boolean) => {
        const request = (https ? httpsRequest : httpRequest)({ ...base, headers })
        call.cancel.onCancel = () => {
          request.destroy()
          if (settled) return
          settled = true
          reject(aborted())
        }
        request.on('error', (error) => {
          if (settled) return
          // The keep-alive race: the upstream closed an idle connection just as this request was written on it, so
          // it was never answered. Sent once more on a new connection (Node's documented `reusedSocket` pattern);
          // a fresh connection that fails is an error.
          if (!retried && request.reusedSocket && staleSocketError(error)) {
            send(true)
            return
          }
          settled = true
          reject(new TypeError('fetch failed', { cause: error }))
        })
        request.on('response', (message) => {
          if (settled) {
            message.destroy()
            return
          }
          settled = true
          resolve(answerOfMessage(message, call.cancel))
        })
        request.end(call.body)
      }
      send(false)
    })
}
