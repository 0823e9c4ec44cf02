/**
 * Tool-call ids (policy 4). messages requires `^[a-zA-Z0-9_-]+$`; content-generation often has none.
 * Generated ids are deterministic (a hash of the position and name) so the same conversation converts to
 * the same ids every time, which is what lets a later turn's tool result find its call again.
 */

const digits = '0123456789abcdefghijklmnopqrstuvwxyz'
/** Every two-digit base-36 string, by value (0 → `00` … 1295 → `zz`). */
const pairs = /* @__PURE__ */ Array.from(
  { length: 36 * 36 },
  (_, n) => (digits[(n / 36) | 0] as string) + (digits[n % 36] as string),
)

/** An unsigned 32-bit number in base 36 (what `n.toString(36)` gives, two digits a step, without the slow radix conversion). */
function base36(n: number): string {
  if (n < 36) return digits[n] as string
  let out = ''
  while (n >= 1296) {
    out = (pairs[n % 1296] as string) + out
    n = (n / 1296) >>> 0
  }
  return (n < 36 ? (digits[n] as string) : (pairs[n] as string)) + out
}

const fnvOffset = 0x811c9dc5 | 0
const fnvPrime = 0x01000193

/** FNV-1a, 32-bit, of `text` continuing from `h` (as a signed int; `>>> 0` gives the unsigned value). */
function fnv(text: string, h = fnvOffset): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), fnvPrime)
  return h
}

/** FNV-1a continued by the decimal digits of the non-negative integer `n` (what hashing `String(n)` gives). */
function fnvDecimal(n: number, h: number): number {
  if (n >= 10) h = fnvDecimal(Math.floor(n / 10), h)
  return Math.imul(h ^ (48 + (n % 10)), fnvPrime)
}

/** FNV-1a, 32-bit, as base36: short, stable, not cryptographic. */
function hash(text: string): string {
  return base36(fnv(text) >>> 0)
}

/** The id for FNV state `h` of a seed: the seed's hash, then the hash of `${seed}#` (FNV-1a continued by '#' = 35). */
function idFromHash(prefix: string, h: number): string {
  return prefix + base36(h >>> 0) + base36(Math.imul(h ^ 35, fnvPrime) >>> 0)
}

/** A stable id for a call that has none. `seed` should identify the call (e.g. turn index, part index, name). */
export function generateToolCallId(prefix: string, seed: string): string {
  return idFromHash(prefix, fnv(seed))
}

/**
 * `generateToolCallId(prefix, \`${a}:${b}:${name}\`)` for non-negative integers `a` and `b`, without building the
 * seed string (decoders call it for every call that has no id).
 */
export function generateToolCallIdAt(prefix: string, a: number, b: number, name: string): string {
  const h = fnvDecimal(b, Math.imul(fnvDecimal(a, fnvOffset) ^ 58, fnvPrime))
  return idFromHash(prefix, fnv(name, Math.imul(h ^ 58, fnvPrime)))
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

/** The longest function name every format accepts (chat-completions and Gemini: 64; messages: 128). */
const maxPortableName = 64
/** A function name every format accepts: chat-completions and messages `^[a-zA-Z0-9_-]+$`, Gemini a letter or `_` first. */
const portableName = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/

/**
 * A function name every format accepts, for a name built by the gateway (a Responses namespace function flattened to
 * `namespace__name`). A portable name not in `taken` is returned unchanged; otherwise invalid characters are replaced
 * and a hash of the original is appended (within 64 characters), so distinct names stay distinct and the same name
 * always maps to the same result.
 */
export function toPortableToolName(name: string, taken?: ReadonlySet<string>): string {
  if (portableName.test(name) && !taken?.has(name)) return name
  let cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_')
  if (!/^[a-zA-Z_]/.test(cleaned)) cleaned = `_${cleaned}`
  for (let n = 0; ; n++) {
    const suffix = `_${hash(n === 0 ? name : `${name}#${n}`)}`
    const candidate = cleaned.slice(0, maxPortableName - suffix.length) + suffix
    if (!taken?.has(candidate)) return candidate
  }
}
