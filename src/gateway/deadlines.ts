/**
 * Per-request timeouts without a timer per request (the Node fast path): every entry of a list has the same timeout,
 * so entries are added in deadline order and the list is FIFO. One timer per list, armed for the oldest entry; an entry
 * that finishes unlinks itself in O(1), and a timer that fires early (its entry finished) re-arms for the new oldest.
 * The timer keeps the process alive only while an entry is pending. Not for runtimes that tie a timer to the request
 * that set it (workerd): the gateway uses it only when the serving runtime says so (`ExchangeRuntime.sharedTimers`).
 */

export interface Deadline {
  readonly at: number
  fire: (() => void) | undefined
  prev: Deadline | undefined
  next: Deadline | undefined
}

interface NodeTimer {
  ref?(): void
  unref?(): void
}

export class DeadlineList {
  private head: Deadline | undefined
  private tail: Deadline | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly check = () => this.expire()

  constructor(readonly ms: number) {}

  /** Calls `fire` in `ms` unless the entry is removed first. */
  add(fire: () => void): Deadline {
    const entry: Deadline = { at: Date.now() + this.ms, fire, prev: this.tail, next: undefined }
    if (this.tail) this.tail.next = entry
    else {
      this.head = entry
      if (this.timer !== undefined) (this.timer as NodeTimer).ref?.()
    }
    this.tail = entry
    if (this.timer === undefined) this.arm(entry.at)
    return entry
  }

  remove(entry: Deadline): void {
    if (entry.fire === undefined) return
    entry.fire = undefined
    const { prev, next } = entry
    if (prev) prev.next = next
    else this.head = next
    if (next) next.prev = prev
    else this.tail = prev
    entry.prev = undefined
    entry.next = undefined
    // Nothing pending: the armed timer stays (re-arming per request is what this avoids) but no longer holds the process.
    if (this.head === undefined && this.timer !== undefined) (this.timer as NodeTimer).unref?.()
  }

  private arm(at: number): void {
    this.timer = setTimeout(this.check, Math.max(0, at - Date.now()))
    if (this.head === undefined) (this.timer as NodeTimer).unref?.()
  }

  private expire(): void {
    this.timer = undefined
    const now = Date.now()
    for (let entry = this.head; entry !== undefined && entry.at <= now; entry = this.head) {
      const fire = entry.fire
      this.remove(entry)
      fire?.()
    }
    if (this.head) this.arm(this.head.at)
  }
}
