/**
 * Inbound routes and the upstream target of the messages format. @see wire-formats.md §2.1, §5.1
 * `/v1/models` is shared with chat-completions: it is ours only when the request has `anthropic-version`.
 * Paths match by suffix, so a gateway mounted under a prefix (`/anthropic/v1/messages`) still routes.
 */
import { decodeModelSegment } from '../../shared/path-segment.js'
import type { RouteMatch, RouteRequest, UpstreamConfig } from '../format.js'

export function matchRoute(request: RouteRequest): RouteMatch | undefined {
  const path = request.url.pathname.replace(/\/+$/, '')
  const method = request.method.toUpperCase()
  if (method === 'POST') {
    if (path.endsWith('/v1/messages')) return { kind: 'generate' }
    if (path.endsWith('/v1/messages/count_tokens')) return { kind: 'count-tokens' }
    return undefined
  }
  if (method !== 'GET' || !request.headers.has('anthropic-version')) return undefined
  if (path.endsWith('/v1/models')) return { kind: 'list-models' }
  const at = path.lastIndexOf('/v1/models/')
  if (at >= 0) {
    const id = path.slice(at + '/v1/models/'.length)
    if (id !== '' && !id.includes('/')) return { kind: 'get-model', model: decodeModelSegment(id, 'messages') }
  }
  return undefined
}

export function upstreamTarget(
  _model: string,
  kind: 'generate' | 'count-tokens',
  stream: boolean,
  upstream: UpstreamConfig,
): { url: string; headers: Headers } {
  const base = upstream.baseURL.replace(/\/+$/, '')
  const url = `${base}/v1/messages${kind === 'count-tokens' ? '/count_tokens' : ''}`
  const headers = new Headers({
    'content-type': 'application/json',
    accept: stream && kind === 'generate' ? 'text/event-stream' : 'application/json',
    'anthropic-version': '2023-06-01',
  })
  if (upstream.apiKey) headers.set('x-api-key', upstream.apiKey)
  if (upstream.headers) for (const [name, value] of Object.entries(upstream.headers)) headers.set(name, value)
  return { url, headers }
}
