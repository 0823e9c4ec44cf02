/// <reference types="node" />
/**
 * The Node fast path: a gateway's exchange driven straight from `IncomingMessage` to `ServerResponse` — no `Request`,
 * `Response`, `Headers` or web stream per request. This is the one place where bytes for a Node client are written:
 * one `res.write` per chunk the core produced (frames ready together arrive coalesced), waiting for `drain` when the
 * socket is full, and the client going away cancels the body (which aborts the upstream).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  type ChunkSource,
  type ExchangeHandler,
  type ExchangeRequest,
  type ExchangeResult,
  type ExchangeRuntime,
  isChunkSource,
} from '../http/exchange.js'

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name]
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
}

/** A complete message emits no error; one that does anyway is not an uncaught exception. */
function ignoreError(): void {}

/** Reads a body as text; `undefined` (and `refused.bodyRefused` set) when it is larger than `maxBytes`. */
function readText(req: IncomingMessage, maxBytes: number, refused: MessageExchange): Promise<string | undefined> {
  const declared = Number(req.headers['content-length'] ?? Number.NaN)
  if (declared > maxBytes) {
    refused.bodyRefused = true
    req.resume()
    return Promise.resolve(undefined)
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) {
        req.off('data', onData)
        refused.bodyRefused = true
        req.resume()
        resolve(undefined)
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      if (size > maxBytes) return
      // Off the message, which lives until the answer is written: its listeners would keep the bytes and the text.
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', reject)
      req.on('error', ignoreError)
      resolve((chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8'))
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', reject)
  })
}

/** A Web `Request` with the incoming headers and URL (no body: hooks that take one read headers). */
function webRequestOf(req: IncomingMessage): Request {
  const headers = new Headers()
  const raw = req.rawHeaders
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string
    if (name.charCodeAt(0) !== 58 /* ':' HTTP/2 pseudo-header */) headers.append(name, raw[i + 1] as string)
  }
  return new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
  })
}

/** An `IncomingMessage` as an exchange request: one object per request, no closure per method. */
class MessageExchange implements ExchangeRequest {
  readonly method: string
  readonly path: string
  readonly query: string
  /** The body was over the limit and left unread: the answer is written with {@link writeRefusal}. */
  bodyRefused = false
  private web: Request | undefined

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    const url = req.url ?? '/'
    const queryAt = url.indexOf('?')
    this.method = req.method ?? 'GET'
    this.path = queryAt < 0 ? url : url.slice(0, queryAt)
    this.query = queryAt < 0 ? '' : url.slice(queryAt + 1)
  }

  header(name: string): string | null {
    return headerOf(this.req, name)
  }

  text(maxBytes: number): Promise<string | undefined> {
    return readText(this.req, maxBytes, this)
  }

  onClose(listener: () => void): () => void {
    const res = this.res
    const onClose = () => {
      if (!res.writableFinished) listener()
    }
    res.on('close', onClose)
    return () => res.removeListener('close', onClose)
  }

  toRequest(): Request {
    this.web ??= webRequestOf(this.req)
    return this.web
  }
}

/**
 * Past the body limit, the rest of a body is read and discarded for at most this many bytes or this long before the
 * connection closes (nginx's lingering close).
 */
const drainBytes = 64 * 1024 * 1024
const drainMs = 5000

/**
 * Ends `res`, an answer sent before the request's body was read (it was over the body limit): Node closes such a
 * connection as soon as the answer ends, and a client still uploading then fails with EPIPE or ECONNRESET instead of
 * reading the answer. So the end waits until the rest of the body has arrived (discarded as it comes), or for
 * {@link drainBytes} or {@link drainMs}, whichever comes first; then the connection closes.
 */
export function endAfterBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete || req.destroyed) {
    res.end()
    return
  }
  let size = 0
  const finish = () => {
    clearTimeout(timer)
    req.off('data', onData)
    req.off('end', finish)
    req.off('close', finish)
    res.end()
  }
  const onData = (chunk: Buffer) => {
    size += chunk.length
    if (size > drainBytes) finish()
  }
  const timer = setTimeout(finish, drainMs)
  req.on('data', onData)
  req.once('end', finish)
  req.once('close', finish)
  req.resume()
}

/** A whole (not streamed) answer. */
type WholeResult = ExchangeResult & { body: Exclude<ExchangeResult['body'], ChunkSource> }

/** Writes the answer (a 413) to a request whose body was refused unread, and ends it with {@link endAfterBody}. */
export function writeRefusal(result: WholeResult, req: IncomingMessage, res: ServerResponse): void {
  const body = result.body
  const headers = result.headers
  const length = body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength
  headers['content-length'] = String(length)
  headers.connection = 'close'
  res.writeHead(result.status, headers)
  if (body !== null) res.write(body)
  endAfterBody(req, res)
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

async function pump(source: ChunkSource, res: ServerResponse): Promise<void> {
  const onClose = () => {
    if (!res.writableFinished) source.cancel()
  }
  res.on('close', onClose)
  const flush = (res as unknown as { flush?: () => void }).flush
  try {
    for (;;) {
      const chunk = await source.next()
      if (chunk === undefined) break
      if (res.destroyed) {
        source.cancel()
        return
      }
      // Backpressure: wait until the socket drains (or closes).
      if (!res.write(chunk)) await drained(res)
      // Flush compression or other buffering middleware when present (Express + compression).
      flush?.call(res)
    }
    if (!res.destroyed) res.end()
  } finally {
    res.off('close', onClose)
  }
}

/** Writes an exchange result: a string or bytes in one `end` (with its length), a chunk source chunk by chunk. */
export function writeResult(result: ExchangeResult, res: ServerResponse): Promise<void> | undefined {
  const body = result.body
  const headers = result.headers
  if (body === null) {
    res.writeHead(result.status, headers)
    res.end()
    return undefined
  }
  if (!isChunkSource(body)) {
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength)
    res.writeHead(result.status, headers)
    res.end(body)
    return undefined
  }
  res.writeHead(result.status, headers)
  return pump(body, res)
}

export interface ServeOptions {
  onError: (error: unknown) => void
  runtime: ExchangeRuntime
}

/** The listener for a gateway's exchange handler. */
export function serveExchange(
  handler: ExchangeHandler,
  options: ServeOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const fail = (res: ServerResponse, error: unknown) => {
    options.onError(error)
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: 'Internal error' } }))
    } else res.destroy()
  }
  return (req, res) => {
    const exchange = new MessageExchange(req, res)
    handler(exchange, options.runtime).then(
      (result) =>
        exchange.bodyRefused && !isChunkSource(result.body)
          ? writeRefusal(result as WholeResult, req, res)
          : writeResult(result, res)?.catch((error: unknown) => fail(res, error)),
      (error: unknown) => fail(res, error),
    )
  }
}
