/**
 * OpenAI's end-user id (`safety_identifier`, and `user` before it) holds at most 64 characters; Anthropic's
 * `metadata.user_id` has no such bound, and Claude Code sends a JSON document there (device, account and session
 * ids, ~150 characters), which OpenAI would refuse with a 400. A longer id is sent as a stable digest of itself — the
 * same id always gives the same digest, so OpenAI can still tell users apart — with a `changed` warning.
 */
import type { Warning } from '../ir/warning.js'

export const maxEndUserIdLength = 64

/** Two FNV-1a 32-bit hashes with different seeds, as 16 hex digits (no `node:crypto` in src/). */
function digest(text: string): string {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    a = Math.imul(a ^ code, 0x01000193)
    b = Math.imul(b ^ code, 0x5bd1e995)
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0')
}

/** `id` as OpenAI accepts it: itself when short enough, else `il-` and its digest. */
export function endUserId(id: string, path: string, warnings: Warning[]): string {
  if (id.length <= maxEndUserIdLength) return id
  warnings.push({
    type: 'changed',
    path,
    message: `an end-user id of ${id.length} characters (over OpenAI's ${maxEndUserIdLength}) was sent as its digest`,
  })
  return `il-${digest(id)}`
}
