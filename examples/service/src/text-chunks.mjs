/**
 * Text collected between writes (log lines, request-log entries) as UTF-8 in buffers outside the JS heap: a batch of
 * answers' lines (src/gateway.mjs, 5 ms) is encoded once, at the batch's end, and nothing of it stays on the heap. Kept
 * as objects or strings until the next write (100 ms, 1 s), thousands of them a second would outlive the young
 * generation's collections and be copied into the old one, whose collections then pause every request (tens of ms at
 * p99 under load).
 */
const chunkBytes = 64 * 1024
const empty = Buffer.alloc(0)

/**
 * @param {{ firstBytes?: number }} [options] the first buffer's size; each next one is twice the last, up to 64 KiB
 * (a collection per key starts small: most keys make a few requests a second).
 */
export function textChunks({ firstBytes = chunkBytes } = {}) {
  let size = Math.min(firstBytes, chunkBytes)
  let chunk = empty
  let used = 0
  let full = []
  let bytes = 0
  return {
    /** Bytes collected since the last `take`. */
    get bytes() {
      return bytes + used
    },
    append(text) {
      const most = text.length * 3 // UTF-16 units → at most 3 UTF-8 bytes each
      if (used + most > chunk.length) {
        if (used > 0) {
          full.push(chunk.subarray(0, used))
          bytes += used
        }
        chunk = Buffer.allocUnsafeSlow(Math.max(size, most))
        size = Math.min(size * 2, chunkBytes)
        used = 0
      }
      used += chunk.write(text, used)
    },
    /** What was collected, as buffers (none when empty); the collection starts over (its next buffer made when needed). */
    take() {
      if (used > 0) {
        full.push(chunk.subarray(0, used))
        chunk = empty
        used = 0
      }
      const taken = full
      full = []
      bytes = 0
      return taken
    },
  }
}
