/**
 * Media fetching (policy 8): an http(s) image URL sent to a format that needs inline bytes (content-generation) is
 * fetched only through this fetcher, with a size limit, a timeout and a host allow-list; `localhost`, loopback,
 * private, link-local and unspecified addresses are refused unless `allowPrivate` (literal IPs and `localhost` are
 * checked here; a public name that resolves to a private address is refused on Node by `createNodeMediaFetch`, whose
 * lookup hook checks the address each connection goes to — Web-standard runtimes cannot resolve DNS).
 * Redirects are followed by hand (at most 3), each hop checked the same way.
 */
import { invalidRequest } from '../errors.js'
import type * as ir from '../ir/index.js'
import { type MediaBudget, readBase64Limited } from './media-body.js'
import type { MediaOptions } from './options.js'

/** The per-request limits `inlineMedia` applies. */
export interface MediaLimits {
  /** Media URLs fetched per request; more → 400. */
  maxCount: number
  /** Bytes fetched per request, all media together; more → 400. */
  maxTotalBytes: number
  /** Fetches in flight at once per request. */
  concurrency: number
}

/**
 * Fetches `url` and returns its bytes as base64; throws `InterlinguaError('invalid-request')` naming `path`. `budget`
 * is what the request may still fetch (charged as bytes arrive). `limits` (set by `createMediaFetcher`) are the
 * per-request limits `inlineMedia` applies; a fetcher without them gets the defaults.
 */
export interface MediaFetcher {
  (url: string, path: string, budget?: MediaBudget): Promise<{ mediaType: string; data: string }>
  limits?: MediaLimits
}

const defaultLimits: MediaLimits = { maxCount: 32, maxTotalBytes: 20 * 1024 * 1024, concurrency: 4 }

function ipv4Private(host: string): boolean | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)
  if (!match) return undefined
  const [a, b] = [Number(match[1]), Number(match[2])]
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  )
}

/** True for hosts that name this machine or a private network (literal addresses and `localhost`). */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
  if (host === 'localhost' || host.endsWith('.localhost') || host === '') return true
  const v4 = ipv4Private(host)
  if (v4 !== undefined) return v4
  if (!host.includes(':')) return false
  if (host === '::' || host === '::1') return true
  const mapped = /^::ffff:(.+)$/.exec(host)
  if (mapped?.[1]) {
    const inner = mapped[1]
    if (inner.includes('.')) return ipv4Private(inner) ?? true
    const [hi, lo] = inner.split(':').map((part) => Number.parseInt(part, 16))
    if (hi === undefined || lo === undefined) return true
    return ipv4Private(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`) ?? true
  }
  return /^f[cd]/.test(host) || /^fe[89ab]/.test(host)
}

function hostAllowed(hostname: string, allowHosts: readonly string[] | undefined): boolean {
  if (!allowHosts) return true
  const host = hostname.toLowerCase()
  return allowHosts.some((pattern) => {
    const p = pattern.toLowerCase()
    return p.startsWith('*.') ? host.endsWith(p.slice(1)) : host === p
  })
}

/** Rejects when the signal aborts (so a fetch that ignores its signal still times out). */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason)
    signal.addEventListener('abort', () => reject(signal.reason), { once: true })
  })
}

/** A media fetcher with the gateway's limits. */
export function createMediaFetcher(
  options: MediaOptions = {},
  defaultFetch: typeof fetch = globalThis.fetch,
): MediaFetcher {
  const doFetch = options.fetch ?? defaultFetch
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024
  const timeoutMs = options.timeoutMs ?? 10_000
  const fetcher: MediaFetcher = async (url, path, budget) => {
    const signal = AbortSignal.timeout(timeoutMs)
    let current = url
    for (let hop = 0; hop < 4; hop++) {
      let parsed: URL
      try {
        parsed = new URL(current)
      } catch {
        invalidRequest(path, 'media URL is not a valid URL')
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') invalidRequest(path, 'media URL must be http(s)')
      if (!options.allowPrivate && isPrivateHost(parsed.hostname)) {
        invalidRequest(path, `media URL refused: ${parsed.hostname} is a private or loopback address`)
      }
      if (!hostAllowed(parsed.hostname, options.allowHosts)) {
        invalidRequest(path, `media URL refused: ${parsed.hostname} is not in the allowed hosts`)
      }
      let response: Response
      try {
        response = await Promise.race([doFetch(parsed.href, { redirect: 'manual', signal }), aborted(signal)])
      } catch (error) {
        if (signal.aborted) invalidRequest(path, 'media fetch timed out')
        // `createNodeMediaFetch` (Node) refuses a name that resolves to a private address at connect time.
        const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause
        if (cause?.code === 'ERR_INTERLINGUA_PRIVATE_ADDRESS')
          invalidRequest(path, `media URL refused: ${parsed.hostname} resolves to a private or loopback address`)
        invalidRequest(path, `media fetch failed for ${parsed.hostname}`)
      }
      const location = response.headers.get('location')
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel().catch(() => {})
        current = new URL(location, parsed).href
        continue
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel().catch(() => {})
        invalidRequest(path, `media fetch failed: HTTP ${response.status}`)
      }
      const declared = Number(response.headers.get('content-length') ?? Number.NaN)
      if (declared > maxBytes) {
        await response.body.cancel().catch(() => {})
        invalidRequest(path, `media is larger than the limit of ${maxBytes} bytes`)
      }
      let data: string
      try {
        data = await readBase64Limited(response.body, maxBytes, path, budget)
      } catch (error) {
        if (signal.aborted) invalidRequest(path, 'media fetch timed out')
        throw error
      }
      const mediaType = (response.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]?.trim()
      return { mediaType: mediaType || 'application/octet-stream', data }
    }
    invalidRequest(path, 'media URL redirected too many times')
  }
  fetcher.limits = {
    maxCount: options.maxCount ?? defaultLimits.maxCount,
    maxTotalBytes: options.maxTotalBytes ?? defaultLimits.maxTotalBytes,
    concurrency: Math.max(1, options.concurrency ?? defaultLimits.concurrency),
  }
  return fetcher
}

type MediaPart = ir.ImagePart | ir.DocumentPart | ir.AudioPart

async function inlinePart(part: MediaPart, path: string, fetcher: MediaFetcher, budget: MediaBudget): Promise<void> {
  if (part.source.type !== 'url') return
  const fetched = await fetcher(part.source.url, path, budget)
  part.source = { type: 'base64', mediaType: part.source.mediaType ?? fetched.mediaType, data: fetched.data }
}

function needsFetch(part: ir.Part | ir.ToolResultContent): part is MediaPart {
  return (
    (part.type === 'image' || part.type === 'document' || part.type === 'audio') &&
    part.source.type === 'url' &&
    !part.source.url.startsWith('data:')
  )
}

/**
 * Replaces every `{type:'url'}` media source in the request by inline base64 (in place), within the fetcher's
 * per-request limits: at most `maxCount` URLs (else 400 naming the first one over), `concurrency` fetches at a time,
 * `maxTotalBytes` in all.
 */
export async function inlineMedia(request: ir.Request, fetcher: MediaFetcher): Promise<void> {
  const limits = fetcher.limits ?? defaultLimits
  const jobs: Array<{ part: MediaPart; path: string }> = []
  request.messages.forEach((message, i) => {
    message.content.forEach((part, j) => {
      const path = `messages[${i}].content[${j}]`
      if (needsFetch(part)) jobs.push({ part, path })
      else if (part.type === 'tool-result') {
        part.content.forEach((inner, k) => {
          if (needsFetch(inner)) jobs.push({ part: inner, path: `${path}.content[${k}]` })
        })
      }
    })
  })
  const over = jobs[limits.maxCount]
  if (over) invalidRequest(over.path, `at most ${limits.maxCount} media URLs are fetched per request`)
  const budget: MediaBudget = { remaining: limits.maxTotalBytes, limit: limits.maxTotalBytes }
  let next = 0
  let failed = false
  const worker = async () => {
    while (!failed && next < jobs.length) {
      const job = jobs[next++] as (typeof jobs)[number]
      try {
        await inlinePart(job.part, job.path, fetcher, budget)
      } catch (error) {
        failed = true
        throw error
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limits.concurrency, jobs.length) }, worker))
}
