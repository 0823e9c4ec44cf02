/**
 * Reading a fetched media body into base64 under two limits — the item's own (`maxBytes`) and what is left of the
 * request's total (`MediaBudget`, shared by every fetch of one request and charged as bytes arrive, so concurrent
 * fetches cannot overshoot it). The base64 is produced chunk by chunk as the bytes arrive (3-byte aligned, the 0–2
 * left-over bytes carried to the next chunk): no whole-body copy, and no single multi-megabyte synchronous encode
 * blocking the event loop at the end.
 */
import { invalidRequest } from '../errors.js'

/** What one request may still fetch, in bytes, across all its media; `limit` is the configured total. */
export interface MediaBudget {
  remaining: number
  limit: number
}

type BufferLike = { from(bytes: Uint8Array): { toString(encoding: 'base64'): string } }
// Node, Bun and Deno have a native base64 encoder on Buffer; elsewhere btoa over 32 KiB pieces.
const nativeBuffer = (globalThis as { Buffer?: BufferLike }).Buffer

function encodeBase64(bytes: Uint8Array): string {
  if (nativeBuffer) return nativeBuffer.from(bytes).toString('base64')
  let out = ''
  // 32,766 is a multiple of 3: each piece encodes without padding.
  for (let i = 0; i < bytes.length; i += 32_766) {
    const piece = bytes.subarray(i, i + 32_766)
    let binary = ''
    for (let j = 0; j < piece.length; j++) binary += String.fromCharCode(piece[j] as number)
    out += btoa(binary)
  }
  return out
}

/** Reads `body` as base64; throws `invalid-request` naming `path` beyond `maxBytes` or the request's budget. */
export async function readBase64Limited(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  path: string,
  budget?: MediaBudget,
): Promise<string> {
  const reader = body.getReader()
  const pieces: string[] = []
  let carry = new Uint8Array(0)
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (budget) budget.remaining -= value.length
    const overItem = size > maxBytes
    if (overItem || (budget && budget.remaining < 0)) {
      await reader.cancel().catch(() => {})
      if (overItem) invalidRequest(path, `media is larger than the limit of ${maxBytes} bytes`)
      invalidRequest(path, `the media of this request are larger than the total limit of ${budget?.limit} bytes`)
    }
    let bytes = value
    if (carry.length > 0) {
      bytes = new Uint8Array(carry.length + value.length)
      bytes.set(carry)
      bytes.set(value, carry.length)
    }
    const aligned = bytes.length - (bytes.length % 3)
    if (aligned > 0) pieces.push(encodeBase64(bytes.subarray(0, aligned)))
    carry = bytes.slice(aligned)
  }
  if (carry.length > 0) pieces.push(encodeBase64(carry))
  return pieces.join('')
}
