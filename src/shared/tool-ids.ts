/**
 * Tool-call ids (policy 4). messages requires `^[a-zA-Z0-9_-]+$`; content-generation often has none.
 * Generated ids are deterministic (a hash of the position and name) so the same conversation converts to
 * the same ids every time, which is what lets a later turn's tool result find its call again.
 */

const digits = '0123456789abcdefghijklmnopqrstuvwxyz'

/** An unsigned 32-bit number in base 36 (what `n.toString(36)` gives, without the slow radix conversion). */
function base36(n: number): string {
  let out = ''
  do {
    out = (digits[n % 36] as string) + out
    n = (n / 36) >>> 0
  } while (n > 0)
  return out
}

/** FNV-1a, 32-bit, of `text` (as a signed int; `>>> 0` gives the unsigned value). */
function fnv(text: string): number {
  let h = 0x811c9dc5 | 0
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h
}

/** FNV-1a, 32-bit, as base36: short, stable, not cryptographic. */
function hash(text: string): string {
  return base36(fnv(text) >>> 0)
}

/** A stable id for a call that has none. `seed` should identify the call (e.g. turn index, part index, name). */
export function generateToolCallId(prefix: string, seed: string): string {
  const h = fnv(seed)
  // The second half is the hash of `${seed}#`: FNV-1a continued by one more character ('#' = 35).
  return prefix + base36(h >>> 0) + base36(Math.imul(h ^ 35, 0x01000193) >>> 0)
}

/** True for an id messages accepts: `^[a-zA-Z0-9_-]+$`. */
function isValidMessagesId(id: string): boolean {
  if (id.length === 0) return false
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i)
    // 0-9, A-Z, a-z, '_' and '-'
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45)) return false
  }
  return true
}

/**
 * An id valid for messages. Valid ids are returned unchanged; others are rewritten deterministically
 * (invalid characters replaced, plus a hash of the original so distinct ids stay distinct).
 */
export function toMessagesToolId(id: string): string {
  if (isValidMessagesId(id)) return id
  const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 48)
  return `${cleaned || 'toolu'}_${hash(id)}`
}
