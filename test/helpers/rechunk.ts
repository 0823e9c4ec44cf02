/** Test helpers for byte streams: split bytes into chunks (random, fixed size, one byte each) and collect them back. */

/** A small deterministic PRNG (mulberry32) so failures reproduce from the seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Splits `bytes` into chunks of 1..maxChunk bytes at random (seeded) boundaries. */
export function randomChunks(bytes: Uint8Array, seed: number, maxChunk = 16): Uint8Array[] {
  const random = seededRandom(seed)
  const chunks: Uint8Array[] = []
  let offset = 0
  while (offset < bytes.length) {
    const size = 1 + Math.floor(random() * maxChunk)
    chunks.push(bytes.slice(offset, offset + size))
    offset += size
  }
  return chunks
}

/** Splits `bytes` into chunks of `size` bytes (`1` = byte by byte). */
export function fixedChunks(bytes: Uint8Array, size = 1): Uint8Array[] {
  const chunks: Uint8Array[] = []
  for (let offset = 0; offset < bytes.length; offset += size) chunks.push(bytes.slice(offset, offset + size))
  return chunks
}

/** A pull-based stream of the given chunks. */
export function streamOf<T>(chunks: Iterable<T>): ReadableStream<T> {
  const iterator = chunks[Symbol.iterator]()
  return new ReadableStream<T>(
    {
      pull(controller) {
        const next = iterator.next()
        if (next.done) controller.close()
        else controller.enqueue(next.value)
      },
    },
    { highWaterMark: 0 },
  )
}

/** Reads a stream to its end. */
export async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = []
  const reader = stream.getReader()
  for (;;) {
    const result = await reader.read()
    if (result.done) return out
    out.push(result.value)
  }
}

/** Concatenates byte chunks. */
export function concatBytes(chunks: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0)
  const out = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}

/** Reads a byte stream to one UTF-8 string. */
export async function collectText(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new TextDecoder().decode(concatBytes(await collect(stream)))
}
