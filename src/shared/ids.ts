/**
 * Ids unique within the process and unguessable across processes, without a `crypto.randomUUID()` and string surgery
 * per id: 16 random hex digits per process (made once) and a 16-hex-digit counter — 32 hex digits, like a UUID
 * without its dashes.
 */
let prefix: string | undefined
let counter = 0

function randomHex(bytes: number): string {
  const random = new Uint8Array(bytes)
  globalThis.crypto.getRandomValues(random)
  let out = ''
  for (const byte of random) out += byte.toString(16).padStart(2, '0')
  return out
}

/** `<kind><32 hex digits>`, e.g. `req_3f9c…0001a`. */
export function newId(kind: string): string {
  prefix ??= randomHex(8)
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER
  return `${kind}${prefix}${counter.toString(16).padStart(16, '0')}`
}
