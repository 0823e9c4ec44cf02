/**
 * Tool-call ids (policy 4). messages requires `^[a-zA-Z0-9_-]+$`; content-generation often has none.
 * Generated ids are deterministic (a hash of the position and name) so the same conversation converts to
 * the same ids every time, which is what lets a later turn's tool result find its call again.
 */

const validMessagesId = /^[a-zA-Z0-9_-]+$/

/** FNV-1a, 32-bit, as base36: short, stable, not cryptographic. */
function hash(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0).toString(36)
}

/** A stable id for a call that has none. `seed` should identify the call (e.g. turn index, part index, name). */
export function generateToolCallId(prefix: string, seed: string): string {
  return `${prefix}${hash(seed)}${hash(`${seed}#`)}`
}

/**
 * An id valid for messages. Valid ids are returned unchanged; others are rewritten deterministically
 * (invalid characters replaced, plus a hash of the original so distinct ids stay distinct).
 */
export function toMessagesToolId(id: string): string {
  if (validMessagesId.test(id)) return id
  const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 48)
  return `${cleaned || 'toolu'}_${hash(id)}`
}
