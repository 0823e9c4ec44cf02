/** Credential helpers shared by providers: resolving an `UpstreamAuth` (a value or a function) and URL checks. */
import { InterlinguaError } from '../errors.js'
import type { AuthValue, UpstreamAuth } from './provider.js'

/** The credential value: the function called when it is one. A function that throws is an upstream auth failure. */
export async function resolveAuth(auth: UpstreamAuth, upstream: string): Promise<AuthValue> {
  if (typeof auth !== 'function') return auth
  try {
    return await auth()
  } catch {
    throw new InterlinguaError('authentication', `The credential function of the ${upstream} upstream failed`, {
      status: 401,
    })
  }
}

/** A token from a credential that must be one (a string, or a function returning a string). */
export async function resolveToken(auth: UpstreamAuth, upstream: string): Promise<string> {
  const value = await resolveAuth(auth, upstream)
  if (typeof value !== 'string' || value === '')
    throw new InterlinguaError(
      'authentication',
      `The credential function of the ${upstream} upstream returned no token`,
    )
  return value
}

/** `"baseURL …"` when `url` is not an absolute http(s) URL, else undefined (for a spec's `check`). */
export function checkBaseURL(url: string | undefined): string | undefined {
  if (url === undefined) return undefined
  try {
    const parsed = new URL(url)
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return undefined
  } catch {}
  return `baseURL must be an absolute http(s) URL, not "${url}"`
}

/** A base URL without its trailing slashes. */
export function trimBase(url: string): string {
  let end = url.length
  while (end > 0 && url[end - 1] === '/') end--
  return url.slice(0, end)
}
