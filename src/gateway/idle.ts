/**
 * The idle timeout of a streamed upstream answer: once the headers are in, the total timeout no longer applies, so
 * without this a stream that stalls — before its first byte or mid-way — would hold the client forever. One timer
 * per answer, re-armed lazily from the time of the last chunk (no timer churn per chunk). When it fires the upstream
 * call is cancelled and the next read rejects with an `InterlinguaError('timeout')`, which the stream decoders turn
 * into the client format's in-stream timeout error (or a 504 when nothing was sent yet). The call's own timeout
 * (`timeoutMs`, which runs until the client's answer has started) cancels the call too: a read it interrupts rejects
 * with the same kind of error, never as an upstream failure (a 502).
 */
import { InterlinguaError } from '../errors.js'
import type { UpstreamAnswer } from '../http/upstream.js'

export interface IdleWatchedAnswer extends UpstreamAnswer {
  /** True once the idle timeout fired. */
  readonly timedOut: boolean
}

/**
 * An answer whose reads are bounded by the idle timeout. A class (one object per stream, methods on the prototype), not
 * an object literal with a `timedOut` getter: a literal's per-call getter gets a hidden class of its own in old space,
 * which keeps the whole stream alive through young-generation collections.
 */
class IdleAnswer implements IdleWatchedAnswer {
  readonly status: number
  timedOut = false
  private last = Date.now()
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly check = () => {
    const idle = Date.now() - this.last
    if (idle < this.idleMs) {
      this.timer = setTimeout(this.check, this.idleMs - idle)
      return
    }
    this.timer = undefined
    this.timedOut = true
    this.onIdle()
  }

  constructor(
    private readonly answer: UpstreamAnswer,
    private readonly idleMs: number,
    private readonly upstreamName: string,
    private readonly onIdle: () => void,
    private readonly call: CallTimeout | undefined,
  ) {
    this.status = answer.status
    this.timer = setTimeout(this.check, idleMs)
  }

  /** The error a read fails with once a timeout cancelled the call (the idle one, or the call's); else undefined. */
  private expired(): InterlinguaError | undefined {
    if (this.timedOut)
      return new InterlinguaError('timeout', `The upstream "${this.upstreamName}" sent nothing for ${this.idleMs} ms`)
    if (this.call?.timedOut)
      return new InterlinguaError('timeout', `The upstream "${this.upstreamName}" did not answer in time`)
    return undefined
  }

  private stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }

  header(name: string): string | null {
    return this.answer.header(name)
  }

  forEachHeader(each: (value: string, name: string) => void): void {
    this.answer.forEachHeader(each)
  }

  async next(): Promise<Uint8Array | undefined> {
    let expired = this.expired()
    if (expired) throw expired
    let chunk: Uint8Array | undefined
    try {
      chunk = await this.answer.next()
    } catch (error) {
      this.stop()
      throw this.expired() ?? error
    }
    // A cancelled Web body ends as if done: that end is the timeout's, not the upstream's.
    expired = this.expired()
    if (expired) throw expired
    this.last = Date.now()
    if (chunk === undefined) this.stop()
    return chunk
  }

  async text(): Promise<string> {
    try {
      return await this.answer.text()
    } finally {
      this.stop()
    }
  }

  close(): void {
    this.stop()
    this.answer.close()
  }
}

/** The call's own timeout, as the idle watch reads it: `timedOut` once it fired (and cancelled the call). */
export interface CallTimeout {
  readonly timedOut: boolean
}

/**
 * Wraps `answer` so that `idleMs` without a chunk cancels it (`onIdle`) and fails the read with a timeout error; a
 * read interrupted by `call`'s timeout fails with a timeout error as well.
 */
export function withIdleTimeout(
  answer: UpstreamAnswer,
  idleMs: number,
  upstreamName: string,
  onIdle: () => void,
  call?: CallTimeout,
): IdleWatchedAnswer {
  return new IdleAnswer(answer, idleMs, upstreamName, onIdle, call)
}
