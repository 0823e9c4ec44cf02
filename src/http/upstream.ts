/**
 * How the gateway talks to an upstream: one POST with a string body, an answer whose body is read chunk by chunk.
 * Two transports implement it: {@link fetchTransport} over any `fetch` (every runtime; the default outside Node and
 * whenever `options.fetch` is given) and the `node:http` keep-alive client in `src/node/upstream.ts` (the default
 * when the gateway is served through `interlingua/node`). This is the one place where upstream bytes are read.
 */

/** A cancellation handle: cheaper than an `AbortController`, set up only where something can be cancelled. */
export interface Cancel {
  cancelled: boolean
  /** Set by the transport while the call is in flight; run once by `cancel()`. */
  onCancel?: (() => void) | undefined
}

export function createCancel(): Cancel {
  return { cancelled: false, onCancel: undefined }
}

export function cancel(handle: Cancel): void {
  if (handle.cancelled) return
  handle.cancelled = true
  const run = handle.onCancel
  handle.onCancel = undefined
  run?.()
}

export interface UpstreamCall {
  url: string
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>
  body: string
  cancel: Cancel
}

/** An upstream's answer. The body is pulled: nothing is read ahead beyond the transport's own buffer. */
export interface UpstreamAnswer {
  status: number
  /** A header by lower-case name. */
  header(name: string): string | null
  /** Calls `each` with every header (lower-case names), in order; no entry pairs or iterator made. */
  forEachHeader(each: (value: string, name: string) => void): void
  /** The next body chunk; `undefined` at the end. Rejects when the connection fails or the call is cancelled. */
  next(): Promise<Uint8Array | undefined>
  /** The whole body as text. */
  text(): Promise<string>
  /** The whole body's bytes, when the transport reads them faster than chunk by chunk. */
  bytes?(): Promise<Uint8Array>
  /** Stops reading and releases the connection. */
  close(): void
}

export type UpstreamTransport = (call: UpstreamCall) => Promise<UpstreamAnswer>

const cancelled = () => new DOMException('The operation was aborted', 'AbortError')

/** An answer over a Fetch `Response`. */
export function answerOfResponse(response: Response, handle?: Cancel): UpstreamAnswer {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  const close = () => {
    if (reader) reader.cancel().catch(() => {})
    else response.body?.cancel().catch(() => {})
  }
  if (handle) handle.onCancel = close
  return {
    status: response.status,
    header: (name) => response.headers.get(name),
    forEachHeader: (each) => response.headers.forEach(each),
    async next() {
      if (handle?.cancelled) throw cancelled()
      if (!response.body) return undefined
      reader ??= response.body.getReader()
      const result = await reader.read()
      return result.done ? undefined : result.value
    },
    text: () => response.text(),
    close,
  }
}

/** The transport over a `fetch` (an `AbortController` per call: the Fetch path is not the Node fast path). */
export function fetchTransport(doFetch: typeof fetch): UpstreamTransport {
  return async (call) => {
    const controller = new AbortController()
    if (call.cancel.cancelled) controller.abort()
    call.cancel.onCancel = () => controller.abort()
    const aborted = new Promise<never>((_, reject) =>
      controller.signal.addEventListener('abort', () => reject(cancelled()), { once: true }),
    )
    aborted.catch(() => {})
    const init: RequestInit = { method: 'POST', headers: call.headers, body: call.body, signal: controller.signal }
    // A fetch that ignores its signal still stops waiting when the call is cancelled.
    const response = await Promise.race([doFetch(call.url, init), aborted])
    const answer = answerOfResponse(response)
    const close = () => {
      controller.abort()
      answer.close()
    }
    call.cancel.onCancel = close
    return { ...answer, close }
  }
}
