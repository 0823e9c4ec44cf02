/**
 * The upstream URL and headers of a call — the format's `upstreamTarget` for a first-party upstream, the provider's
 * `target` plus the upstream's static `headers` for a cloud — built once per upstream, model, endpoint kind and stream
 * flag, not per request.
 */
import type { FormatId, WireFormatId } from '../formats/format.js'
import { getGatewayFormat } from '../formats/gateway.js'
import type { Provider } from '../providers/provider.js'
import type { UpstreamOptions } from './options.js'
import { type ResolvedModel, upstreamConfig } from './routing.js'

export interface Target {
  url: string
  /** The URL's path, without the query (named in errors). */
  path: string
  headers: Readonly<Record<string, string>>
}

/** Upstream URL and headers per upstream, model, endpoint and stream flag: built once, not per request. */
const targets = new WeakMap<UpstreamOptions, Map<string, Target>>()
const maxTargetsPerUpstream = 1000

export function targetOf(
  resolved: ResolvedModel,
  kind: 'generate' | 'count-tokens',
  stream: boolean,
  provider: Provider | undefined,
): Target {
  let cache = targets.get(resolved.upstream)
  if (!cache) {
    cache = new Map()
    targets.set(resolved.upstream, cache)
  }
  const key = `${kind}\u0000${stream ? 1 : 0}\u0000${resolved.model}`
  let target = cache.get(key)
  if (!target) {
    const upstream = resolved.upstream
    const headers: Record<string, string> = {}
    let url: string
    if (provider) {
      const built = provider.target({ format: upstream.format as WireFormatId, model: resolved.model, kind, stream })
      url = built.url
      Object.assign(headers, built.headers)
      if (upstream.headers && typeof upstream.headers === 'object')
        for (const name of Object.keys(upstream.headers)) headers[name.toLowerCase()] = upstream.headers[name] as string
    } else {
      const format = getGatewayFormat(upstream.format as FormatId)
      const built = format.upstreamTarget(resolved.model, kind, stream, upstreamConfig(upstream))
      url = built.url
      built.headers.forEach((value, name) => {
        headers[name] = value
      })
    }
    target = { url, path: new URL(url).pathname, headers: Object.freeze(headers) }
    if (cache.size >= maxTargetsPerUpstream) cache.clear()
    cache.set(key, target)
  }
  return target
}
