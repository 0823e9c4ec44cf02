/**
 * Inbound routes and the upstream target of the Responses API. @see responses-api.md §1
 * `POST …/responses` and `POST …/responses/input_tokens`; model listings stay chat-completions' (`GET /v1/models`).
 * Paths match by suffix so a gateway mounted under a prefix still routes.
 */
import type { RouteMatch, RouteRequest, UpstreamConfig } from '../format.js'

export function matchRoute(request: RouteRequest): RouteMatch | undefined {
  const method = request.method.toUpperCase()
  const path = request.url.pathname.replace(/\/+$/, '')
  if (method === 'GET') {
    const match = /\/responses\/([A-Za-z0-9_-]+)$/.exec(path)
    return match ? { kind: 'get-response', id: match[1] as string } : undefined
  }
  if (method !== 'POST') return undefined
  if (path.endsWith('/responses/input_tokens')) return { kind: 'count-tokens' }
  if (path.endsWith('/responses')) return { kind: 'generate' }
  return undefined
}

export function upstreamTarget(
  _model: string,
  kind: 'generate' | 'count-tokens',
  stream: boolean,
  upstream: UpstreamConfig,
): { url: string; headers: Headers } {
  const base = upstream.baseURL.replace(/\/+$/, '')
  const url = kind === 'count-tokens' ? `${base}/responses/input_tokens` : `${base}/responses`
  const headers = new Headers({
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
  })
  if (upstream.apiKey) headers.set('authorization', `Bearer ${upstream.apiKey}`)
  if (upstream.headers) for (const [name, value] of Object.entries(upstream.headers)) headers.set(name, value)
  return { url, headers }
}

/** `POST /responses/input_tokens` answer. */
export function encodeTokenCount(inputTokens: number): unknown {
  return { object: 'response.input_tokens', input_tokens: inputTokens }
}
