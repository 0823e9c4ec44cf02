/**
 * One upstream call's cancellation (the client going away, the timeout until the answer's headers) and the client's
 * error when the call failed before an answer.
 */
import type { ExchangeResult } from '../http/exchange.js'
import { errorResult } from '../http/respond.js'
import { type Cancel, cancel, createCancel } from '../http/upstream.js'
import type { Deadline, DeadlineList } from './deadlines.js'
import { errorInfo } from './errors.js'
import type { Exchange } from './exchange-state.js'

/**
 * One upstream call's cancellation: the client going away or the timeout (until the answer's headers; a stream's
 * total time is not bounded once it started). One object per call with methods, not a closure each: a closure keeps
 * its whole context alive (every local of `forward`'s frame), and these outlive young-generation collections while the
 * call waits for the upstream (see `RouteView` in exchange.ts).
 */
export class CallGuard {
  readonly handle: Cancel = createCancel()
  timedOut = false
  /** Stops listening for the client going away (called once the answer ended, or failed). */
  readonly unsubscribe: () => void
  private readonly deadline: Deadline | undefined
  private readonly timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    exchange: Exchange,
    private readonly timeouts: DeadlineList | undefined,
    ms: number,
  ) {
    const handle = this.handle
    this.unsubscribe = exchange.request.onClose(() => cancel(handle))
    const onTimeout = () => this.expire()
    this.deadline = timeouts?.add(onTimeout)
    this.timer = this.deadline ? undefined : setTimeout(onTimeout, ms)
  }

  private expire(): void {
    this.timedOut = true
    cancel(this.handle)
  }

  stopTimer(): void {
    if (this.deadline) this.timeouts?.remove(this.deadline)
    else clearTimeout(this.timer)
  }

  release(): void {
    this.stopTimer()
    this.unsubscribe()
  }
}

/** The client's error when the call failed before an answer: timed out, cancelled by the client, or unreachable. */
export function callFailure(exchange: Exchange, guard: CallGuard, name: string): ExchangeResult {
  guard.release()
  exchange.error = guard.timedOut ? 'timeout' : 'upstream'
  const info = guard.timedOut
    ? errorInfo('timeout', `The upstream "${name}" did not answer in time`)
    : guard.handle.cancelled
      ? { code: 'upstream' as const, status: 499, message: 'The client closed the request' }
      : errorInfo('upstream', `The upstream "${name}" is unreachable`)
  return errorResult(exchange.format, info, exchange.headers)
}
