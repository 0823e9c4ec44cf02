/** Client keys: where they come from and how they are checked (policy 10). */

/** What a key is read from: header lookups by lower-case name and the query string (without `?`). */
export interface KeySource {
  header(name: string): string | null
  query: string
}

/** The client's key from `Authorization: Bearer`, `x-api-key`, `x-goog-api-key` or `?key=`. */
export function extractKey(request: KeySource): string | undefined {
  const authorization = request.header('authorization')
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim())
    if (match?.[1]) return match[1].trim()
  }
  return (
    request.header('x-api-key') ??
    request.header('x-goog-api-key') ??
    (request.query === '' ? undefined : (new URLSearchParams(request.query).get('key') ?? undefined))
  )
}

const encoder = new TextEncoder()

/** Compares two strings in time that depends only on the length of `expected`'s candidate set, not on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = encoder.encode(a)
  const right = encoder.encode(b)
  const length = Math.max(left.length, right.length)
  let diff = left.length ^ right.length
  for (let i = 0; i < length; i++) diff |= (left[i] ?? 0) ^ (right[i] ?? 0)
  return diff === 0
}

/** True when `key` equals one of `keys`; every key is compared, so timing does not reveal which one matched. */
export function keyMatches(key: string, keys: readonly string[]): boolean {
  let found = false
  for (const candidate of keys) if (constantTimeEqual(key, candidate)) found = true
  return found
}
