/**
 * Same-format answers (policy 1): the upstream's bytes forwarded as they come — streams at SSE event boundaries with
 * an optional synchronous watcher, JSON bodies whole, error bodies masked or made native — and the in-stream error
 * frame that may follow them.
 */
import type { ForwardedStreamWatcher, GatewayFormat } from '../formats/format.js'
import type * as ir from '../ir/index.js'
import { maskSecrets } from '../shared/mask.js'
import type { ChunkSource, ExchangeResult } from './exchange.js'
import { readAnswerBytes, readAnswerText } from './read-limited.js'
import { errorResult, isJsonObject, keptHeaders, opaqueErrorInfo, parseJson, type RespondOptions } from './respond.js'
import type { UpstreamAnswer } from './upstream.js'

/** Where the last complete SSE event of `bytes` ends (after its blank line), or 0. */
function lastEventEnd(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i > 0; i--) {
    if (bytes[i] !== 10) continue
    if (bytes[i - 1] === 10) return i + 1
    if (bytes[i - 1] === 13 && i >= 3 && bytes[i - 2] === 10 && bytes[i - 3] === 13) return i + 1
  }
  return 0
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** Sees a passthrough stream's chunks as they are forwarded, synchronously (no promise of its own per chunk). */
export interface ChunkWatcher {
  chunk(bytes: string | Uint8Array): void
  /** The stream ended, failed or was cancelled (called once). */
  end(): void
  /**
   * Rewrites an SSE stream's chunks (whole events) before they are forwarded and watched; `undefined`: nothing left to
   * forward. @defaultValue the bytes as they are
   */
  edit?(bytes: Uint8Array): Uint8Array | undefined
}

/** `watcher` that also shows every forwarded chunk to `tail` (after `watcher`'s edit). */
export function withTail(
  watcher: ChunkWatcher | undefined,
  tail: ForwardedStreamWatcher | undefined,
): ChunkWatcher | undefined {
  if (!tail) return watcher
  if (!watcher) return { chunk: (bytes) => tail.chunk(bytes), end() {} }
  const both: ChunkWatcher = {
    chunk(bytes) {
      tail.chunk(bytes)
      watcher.chunk(bytes)
    },
    end: () => watcher.end(),
  }
  if (watcher.edit) both.edit = (bytes) => watcher.edit?.(bytes)
  return both
}

/**
 * The upstream's bytes as they come; a failure writes `failure()` (the format's in-stream error frame), then ends.
 * With `sse`, bytes are forwarded up to the last complete event: a partial event is held until it completes, so when
 * the upstream is cut mid-event the error frame follows a clean event boundary (never `data: {"mod…data: {"error"…`).
 */
export function bytesSource(
  answer: UpstreamAnswer,
  failure: () => string | Uint8Array | undefined,
  sse = false,
  first?: { chunk: Uint8Array | undefined },
  watcher?: ChunkWatcher,
): ChunkSource {
  let done = false
  let pending: Uint8Array | undefined
  let primed = first
  /** The last chunk (if any), shown to the watcher with the end. */
  const last = (chunk: string | Uint8Array | undefined) => {
    if (watcher) {
      if (chunk !== undefined) watcher.chunk(chunk)
      watcher.end()
      watcher = undefined
    }
    return chunk
  }
  return {
    async next() {
      if (done) return undefined
      try {
        for (;;) {
          let chunk: Uint8Array | undefined
          if (primed) {
            chunk = primed.chunk
            primed = undefined
          } else chunk = await answer.next()
          if (chunk === undefined) {
            done = true
            return last(pending && watcher?.edit ? watcher.edit(pending) : pending)
          }
          let out: Uint8Array | undefined = chunk
          if (sse) {
            const bytes = pending ? concatBytes(pending, chunk) : chunk
            const end = lastEventEnd(bytes)
            pending = end < bytes.length ? bytes.slice(end) : undefined
            out = end === 0 ? undefined : end === bytes.length ? bytes : bytes.subarray(0, end)
            if (out && watcher?.edit) out = watcher.edit(out)
          }
          if (out) {
            watcher?.chunk(out)
            return out
          }
        }
      } catch {
        if (done) return undefined
        done = true
        pending = undefined
        answer.close()
        return last(failure())
      }
    },
    cancel() {
      done = true
      answer.close()
      last(undefined)
    },
  }
}

/**
 * Same format: the upstream's answer untouched (policy 1), with allow-listed headers. A stream is forwarded chunk by
 * chunk, once its first bytes are in (so a stall or a reset before them is a 504/502, not a 200 with an error frame);
 * a JSON body is read whole (it is one document) and sent as is; an error body has key-shaped text masked, and one
 * that is not JSON (a proxy's HTML page) becomes `format`'s native error of the same status.
 */
export async function passthroughAnswer(
  answer: UpstreamAnswer,
  stream: boolean,
  options: Pick<RespondOptions, 'secrets' | 'relayHeaders' | 'maxResponseBytes' | 'upstreamAt'>,
  failure: () => string | Uint8Array | undefined,
  format?: GatewayFormat,
  watcher?: ChunkWatcher,
): Promise<ExchangeResult> {
  const headers = keptHeaders(answer, true, options.relayHeaders)
  const ok = answer.status >= 200 && answer.status < 300
  if (stream && ok) {
    const sse = (answer.header('content-type') ?? '').includes('text/event-stream')
    // Throws (timeout, reset) before anything is committed to the client.
    const chunk = await answer.next()
    return { status: answer.status, headers, body: bytesSource(answer, failure, sse, { chunk }, watcher) }
  }
  // Beyond the cap: InterlinguaError 502, answered in the client's format by the gateway. A success is forwarded as the
  // upstream's bytes; an error body is read as text, for masking.
  if (ok) return { status: answer.status, headers, body: await readAnswerBytes(answer, options.maxResponseBytes) }
  const text = await readAnswerText(answer, options.maxResponseBytes)
  if (format && !isJsonObject(parseJson(text))) {
    const info = opaqueErrorInfo(format, answer, text, options.upstreamAt)
    info.message = maskSecrets(info.message, options.secrets)
    const kept = keptHeaders(answer)
    return errorResult(format, info, kept)
  }
  return { status: answer.status, headers, body: maskSecrets(text, options.secrets) }
}

/**
 * The in-stream error frame bytes of a format (used after passthrough bytes, where no encoder runs); `tail`: the
 * format's watcher of the forwarded chunks, when it has one.
 */
export function inStreamErrorText(format: GatewayFormat, error: ir.ErrorInfo, tail?: ForwardedStreamWatcher): string {
  const frames = tail ? tail.encodeError(error) : format.encodeStreamError?.(error)
  if (frames) {
    return frames
      .map((frame) => `${frame.event ? `event: ${frame.event}\n` : ''}data: ${frame.data ?? ''}\n\n`)
      .join('')
  }
  const body = JSON.stringify(format.encodeError(error).body)
  const text = format.id === 'messages' ? `event: error\ndata: ${body}\n\n` : `data: ${body}\n\n`
  return text
}
