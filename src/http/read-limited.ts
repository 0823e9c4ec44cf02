/**
 * Reading a whole upstream answer (a non-streaming JSON body, an error body) under a size cap: a 200 MB upstream body
 * used to be read whole (1+ GB of RSS). With a `content-length` within the cap the transport's own `text()` (or
 * `bytes()`, when it has one) is used (HTTP framing guarantees the length); otherwise the body is decoded chunk by
 * chunk and refused past the cap.
 */
import { InterlinguaError } from '../errors.js'
import type { UpstreamAnswer } from './upstream.js'

/** The default cap on a whole upstream answer read into memory. */
export const defaultMaxResponseBytes = 64 * 1024 * 1024

function tooLargeError(answer: UpstreamAnswer, maxBytes: number): InterlinguaError {
  answer.close()
  return new InterlinguaError('upstream', `The upstream's answer is larger than ${maxBytes} bytes`, { status: 502 })
}

/**
 * The body's length when the upstream declared it and it is the length read (NaN otherwise). A compressed body's
 * `content-length` is its compressed size: its decoded size is only known by counting, so it is never trusted then
 * (a small gzip can decode to gigabytes).
 */
function declaredLength(answer: UpstreamAnswer): number {
  const encoding = answer.header('content-encoding')
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return Number.NaN
  return Number(answer.header('content-length') ?? Number.NaN)
}

/**
 * The answer's bytes as they came (passthrough forwards them without decoding); throws like {@link readAnswerText}
 * beyond `maxBytes`.
 */
export async function readAnswerBytes(answer: UpstreamAnswer, maxBytes = defaultMaxResponseBytes): Promise<Uint8Array> {
  const declared = declaredLength(answer)
  if (declared > maxBytes) throw tooLargeError(answer, maxBytes)
  if (declared >= 0 && answer.bytes) return answer.bytes()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const chunk = await answer.next()
    if (chunk === undefined) break
    size += chunk.length
    if (size > maxBytes) throw tooLargeError(answer, maxBytes)
    chunks.push(chunk)
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array
  const out = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.length
  }
  return out
}

/** The answer's text; throws `InterlinguaError('upstream', 502)` (and closes the answer) beyond `maxBytes`. */
export async function readAnswerText(answer: UpstreamAnswer, maxBytes = defaultMaxResponseBytes): Promise<string> {
  const tooLarge = () => tooLargeError(answer, maxBytes)
  const declared = declaredLength(answer)
  if (declared > maxBytes) throw tooLarge()
  if (declared >= 0) return answer.text()
  const decoder = new TextDecoder()
  let size = 0
  let out = ''
  for (;;) {
    const chunk = await answer.next()
    if (chunk === undefined) break
    size += chunk.length
    if (size > maxBytes) throw tooLarge()
    out += decoder.decode(chunk, { stream: true })
  }
  return out + decoder.decode()
}
