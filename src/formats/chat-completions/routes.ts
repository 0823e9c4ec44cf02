/**
 * Inbound routes and the upstream target of chat-completions. @see wire-formats.md §1.1
 * Paths match by suffix so a gateway mounted under a prefix still routes.
 */
import { InterlinguaError } from '../../errors.js'
import { decodeModelSegment } from '../../shared/path-segment.js'
import type { RouteMatch, RouteRequest, UpstreamConfig } from '../format.js'

export function matchRoute(request: RouteRequest): RouteMatch | undefined {
  const path = request.url.pathname.replace(/\/+$/, '')
  const method = request.method.toUpperCase()
  if (method === 'POST') return path.endsWith('/chat/completions') ? { kind: 'generate' } : undefined
  if (method !== 'GET') return undefined
  if (path.endsWith('/v1/models')) return { kind: 'list-models' }
  const at = path.lastIndexOf('/v1/models/')
  if (at >= 0) {
    const id = path.slice(at + '/v1/models/'.length)
    if (id !== '') return { kind: 'get-model', model: decodeModelSegment(id, 'chat-completions') }
  }
  return undefined
}

export function upstreamTarget(
  _model: string,
  kind: 'generate' | 'count-tokens',
  stream: boolean,
  upstream: UpstreamConfig,
): { url: string; headers: Headers } {
  if (kind === 'count-tokens') {
    throw new InterlinguaError('unsupported-feature', 'chat-completions has no token-counting endpoint', {
      format: 'chat-completions',
    })
  }
  const url = `${upstream.baseURL.replace(/\/+$/, '')}/chat/completions`
  const headers = new Headers({
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
  })
  if (upstream.apiKey) headers.set('authorization', `Bearer ${upstream.apiKey}`)
  if (upstream.headers) for (const [name, value] of Object.entries(upstream.headers)) headers.set(name, value)
  return { url, headers }
}
