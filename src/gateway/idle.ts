/**
 * The idle timeout of a streamed upstream answer: once the headers are in, the total timeout no longer applies, so
 * without this a stream that stalls — before its first byte or mid-way — would hold the client forever. One timer
 * per answer, re-armed lazily from the time of the last chunk (no timer churn per chunk). When it fires the upstream
 * call is cancelled and the next read rejects with an `InterlinguaError('timeout')`, which the stream decoders turn
 * into the client format's in-stream timeout error (or a 504 when nothing was sent yet).
 */
import { InterlinguaError } from '../errors.js'
import type { UpstreamAnswer } from './upstream.js'

export interface IdleWatchedAnswer extends UpstreamAnswer {
  /** True once the idle timeout fired. */
  readonly timedOut: boolean
}

/** Wraps `answer` so that `idleMs` without a chunk cancels it (`onIdle`) and fails the read with a timeout error. */
export function withIdleTimeout(
  answer: UpstreamAnswer,
  idleMs: number,
  upstreamName: string,
  onIdle: () => void,
): IdleWatchedAnswer {
  let last = Date.now()
  let fired = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeoutError = () =>
    new InterlinguaError('timeout', `The upstream "${upstreamName}" sent nothing for ${idleMs} ms`)
  const check = () => {
    const idle = Date.now() - last
    if (idle < idleMs) {
      timer = setTimeout(check, idleMs - idle)
      return
    }
    timer = undefined
    fired = true
    onIdle()
  }
  timer = setTimeout(check, idleMs)
  const stop = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
  }
  return {
    status: answer.status,
    header: (name) => answer.header(name),
    headerEntries: () => answer.headerEntries(),
    get timedOut() {
      return fired
    },
    async next() {
      if (fired) throw timeoutError()
      let chunk: Uint8Array | undefined
      try {
        chunk = await answer.next()
      } catch (error) {
        stop()
        throw fired ? timeoutError() : error
      }
      // A cancelled Web body ends as if done: that end is the timeout's, not the upstream's.
      if (fired) throw timeoutError()
      last = Date.now()
      if (chunk === undefined) stop()
      return chunk
    },
    async text() {
      try {
        return await answer.text()
      } finally {
        stop()
      }
    },
    close() {
      stop()
      answer.close()
    },
  }
}
