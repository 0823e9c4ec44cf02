/// <reference types="node" />
/**
 * The `node:http`/`node:https` upstream transport with keep-alive agents: the default when the gateway is served
 * through `interlingua/node` (and has no `fetch` option). The answer's body is read straight off the socket with
 * `readable`/`read()` — what arrived since the last read comes back as one chunk, and nothing is read ahead beyond the
 * stream's own buffer (backpressure reaches the upstream's TCP window).
 */
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import type { Cancel, UpstreamAnswer, UpstreamCall, UpstreamTransport } from '../http/upstream.js'
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

interface Waiter {
  resolve(chunk: Uint8Array | undefined): void
  reject(error: unknown): void
}

const answerOf = Symbol('interlingua.answer')
type AnswerMessage = IncomingMessage & { [answerOf]?: MessageAnswer }

/** An answer's `close` listener: a module function (the message is `this`), not a closure per answer. */
function onAnswerClose(this: AnswerMessage): void {
  this[answerOf]?.closed()
}

/**
 * An answer over an `IncomingMessage`. `next()` pulls with `read()` (what arrived since the last read, one chunk);
 * `text()`/`bytes()` on an answer nothing was read from collect the body in flowing mode (no promise per chunk). Listeners are
 * attached when reading starts; one object per answer, no closure per method.
 */
class MessageAnswer implements UpstreamAnswer {
  readonly status: number
  private source: Readable | undefined
  private ended = false
  private failed: unknown
  private waiting: Waiter | undefined
  /** `text()` collecting in flowing mode. */
  private collected: Buffer[] | undefined

  constructor(
    private readonly message: IncomingMessage,
    private readonly handle: Cancel,
  ) {
    this.status = message.statusCode ?? 502
    handle.onCancel = () => this.close()
    ;(message as AnswerMessage)[answerOf] = this
    message.on('close', onAnswerClose)
  }

  /** The socket closed: before the end (upstream reset, or cancelled), that fails the body. */
  closed(): void {
    const handle = this.handle
    if (this.message.complete && !handle.cancelled) return
    this.fail(handle.cancelled ? aborted() : new Error('The upstream connection closed before the body ended'))
  }

  header(name: string): string | null {
    const value = this.message.headers[name]
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
  }

  forEachHeader(each: (value: string, name: string) => void): void {
    const raw = this.message.rawHeaders
    for (let i = 0; i < raw.length; i += 2) each(raw[i + 1] as string, (raw[i] as string).toLowerCase())
  }

  /** The decoded body, with its end and error listened to (made on the first read). */
  private start(): Readable {
    if (this.source) return this.source
    const source = decoded(this.message)
    this.source = source
    source.on('end', () => {
      this.ended = true
      this.settle()
    })
    source.on('error', (error) => this.fail(error))
    return source
  }

  private fail(error: unknown): void {
    this.failed ??= error
    this.settle()
  }

  private settle(): void {
    const wait = this.waiting
    if (!wait) return
    if (this.collected) {
      if (this.failed !== undefined) wait.reject(this.failed)
      else if (this.ended) wait.resolve(undefined)
      else return
    } else {
      const chunk = this.source?.read() as Buffer | null | undefined
      if (chunk) wait.resolve(chunk)
      else if (this.failed !== undefined) wait.reject(this.failed)
      else if (this.ended) wait.resolve(undefined)
      else return
    }
    this.waiting = undefined
  }

  next(): Promise<Uint8Array | undefined> {
    const source = this.source ?? this.start()
    if (source.listenerCount('readable') === 0) source.on('readable', () => this.settle())
    const chunk = source.read() as Buffer | null
    if (chunk !== null) return Promise.resolve(chunk)
    if (this.failed !== undefined) return Promise.reject(this.failed)
    if (this.ended) return Promise.resolve(undefined)
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject }
    })
  }

  /** The whole body's chunks: collected in flowing mode when nothing was read yet, else pulled. */
  private async chunks(): Promise<Buffer[]> {
    const chunks: Buffer[] = []
    if (this.source === undefined && this.failed === undefined) {
      const source = this.start()
      this.collected = chunks
      source.on('data', (chunk: Buffer) => chunks.push(chunk))
      await new Promise<Uint8Array | undefined>((resolve, reject) => {
        this.waiting = { resolve, reject }
        this.settle()
      })
    } else {
      for (let chunk = await this.next(); chunk !== undefined; chunk = await this.next()) chunks.push(chunk as Buffer)
    }
    return chunks
  }

  async text(): Promise<string> {
    const chunks = await this.chunks()
    return (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8')
  }

  async bytes(): Promise<Uint8Array> {
    const chunks = await this.chunks()
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
  }

  close(): void {
    this.failed ??= aborted()
    this.message.destroy()
    if (this.source !== undefined && this.source !== this.message) this.source.destroy()
    this.settle()
  }
}

/** An answer over an `IncomingMessage`. */
export function answerOfMessage(message: IncomingMessage, handle: Cancel): UpstreamAnswer {
  return new MessageAnswer(message, handle)
}

interface Endpoint {
  https: boolean
  options: RequestOptions
  /** The `Host` header (`url.host`: IPv6 bracketed, the port only when not the scheme's default). */
  host: string
  /** Header lists by the call's header record (the gateway passes one frozen record per target). */
  lists: WeakMap<object, string[]>
}

/**
 * The request's headers as the flat list `node:http` writes as is (no `setHeader` per header): `host`, the call's
 * headers, then room for `content-length`.
 */
function headerList(endpoint: Endpoint, headers: Readonly<Record<string, string>>): string[] {
  let list = endpoint.lists.get(headers)
  if (!list) {
    list = []
    if (headers.host === undefined) list.push('host', endpoint.host)
    for (const name of Object.keys(headers)) if (name !== 'content-length') list.push(name, headers[name] as string)
    endpoint.lists.set(headers, list)
  }
  return list
}

/**
 * Destroys an upstream request when the call is cancelled (its `error` listener then rejects the call). Made here, not
 * inside the transport's closures: a closure keeps its whole context chain alive (the call's promise, and through it
 * every awaiting frame of the request), and the cancel handle outlives young-generation collections.
 */
function destroyer(request: { destroy(error?: Error): unknown }): () => void {
  return () => request.destroy(aborted())
}

const pendingOf = Symbol('interlingua.pendingCall')
type Tagged = ClientRequest & { [pendingOf]?: PendingCall }

/**
 * One upstream call until its answer's headers: the request (sent once more on a fresh connection when a reused one was
 * stale) and how the call's promise settles. Its listeners are module functions that find it on the request (`this`
 * of an emitter's listener), not closures per call: a closure keeps its context alive while the call waits.
 */
class PendingCall {
  settled = false
  retried = false

  constructor(
    readonly call: UpstreamCall,
    private readonly endpoint: Endpoint,
    private readonly headers: string[],
    readonly resolve: (answer: UpstreamAnswer) => void,
    readonly reject: (error: unknown) => void,
  ) {}

  send(retried: boolean): void {
    this.retried = retried
    const endpoint = this.endpoint
    const request: Tagged = (endpoint.https ? httpsRequest : httpRequest)({
      ...endpoint.options,
      headers: this.headers,
    })
    request[pendingOf] = this
    this.call.cancel.onCancel = destroyer(request)
    request.on('error', onCallError)
    request.on('response', onCallResponse)
    request.end(this.call.body)
  }
}

function onCallError(this: Tagged, error: Error): void {
  const pending = this[pendingOf]
  if (!pending || pending.settled) return
  if (pending.call.cancel.cancelled) {
    pending.settled = true
    pending.reject(aborted())
    return
  }
  // The keep-alive race: the upstream closed an idle connection just as this request was written on it, so it was
  // never answered. Sent once more on a new connection (Node's documented `reusedSocket` pattern); a fresh connection
  // that fails is an error.
  if (!pending.retried && this.reusedSocket && staleSocketError(error)) {
    pending.send(true)
    return
  }
  pending.settled = true
  pending.reject(new TypeError('fetch failed', { cause: error }))
}

function onCallResponse(this: Tagged, message: IncomingMessage): void {
  const pending = this[pendingOf]
  if (!pending || pending.settled) {
    message.destroy()
    return
  }
  pending.settled = true
  // The request no longer needs its call (its `error` listener stays, and finds it settled).
  this[pendingOf] = undefined
  pending.resolve(answerOfMessage(message, pending.call.cancel))
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
        host: url.host,
        lists: new WeakMap(),
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
      const endpoint = endpointOf(call.url)
      const headers = headerList(endpoint, call.headers).slice()
      headers.push('content-length', String(Buffer.byteLength(call.body)))
      new PendingCall(call, endpoint, headers, resolve, reject).send(false)
    })
}
