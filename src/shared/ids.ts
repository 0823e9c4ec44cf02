/**
 * Ids unique within the process and unguessable across processes, without a `crypto.randomUUID()` and string surgery
 * per id: random hex digits made once per process, then a 12-hex-digit counter.
 */
let prefix: string | undefined
let counter = 0
const counterDigits = 12

function randomHex(bytes: number): string {
  const random = new Uint8Array(bytes)
  globalThis.crypto.getRandomValues(random)
  let out = ''
  for (const byte of random) out += byte.toString(16).padStart(2, '0')
  return out
}

/** `<kind><digits hex digits>` (default 32, like a UUID without its dashes; at least 16), e.g. `req_3f9c…00001a`. */
export function newId(kind: string, digits = 32): string {
  prefix ??= randomHex(16)
  counter = (counter + 1) % 16 ** counterDigits
  return `${kind}${prefix.slice(0, Math.max(4, digits - counterDigits))}${counter.toString(16).padStart(counterDigits, '0')}`
}
