/**
 * Inbound routes and the upstream target of the content-generation format. @see wire-formats.md §3.1, §4.1, §5.1
 * Paths match by suffix (`…/{v1,v1beta}/models/{model}:method`), so a gateway mounted under a prefix still routes.
 * `GET /v1/models` is shared with the other formats: it is ours only with `x-goog-api-key` or `?key=`.
 */
import { decodeModelSegment, modelPathSegment } from '../../shared/path-segment.js'
import type { RouteMatch, RouteRequest, UpstreamConfig } from '../format.js'

/**
 * The model may hold `/` and `:` as the Gemini SDK sends them unencoded (`models/vertex/gemini-2.5-pro`, a gateway's
 * `<cloud>/<model>` id; Bedrock ids such as `…-v1:0`): everything up to the last `:method`.
 */
const generatePath = /\/(v1|v1beta|v1alpha)\/models\/(.+):(generateContent|streamGenerateContent|countTokens)$/
const modelsPath = /\/(v1|v1beta|v1alpha)\/models(?:\/(.+))?$/

export function matchRoute(request: RouteRequest): RouteMatch | undefined {
  const path = request.url.pathname.replace(/\/+$/, '')
  const method = request.method.toUpperCase()
  if (method === 'POST') {
    const match = generatePath.exec(path)
    const model = match?.[2] === undefined ? undefined : decodeModelSegment(match[2], 'content-generation')
    if (!match || !model) return undefined
    if (match[3] === 'countTokens') return { kind: 'count-tokens', model }
    if (match[3] === 'generateContent') return { kind: 'generate', model, stream: false }
    const sse = request.url.searchParams.get('alt') === 'sse'
    return sse
      ? { kind: 'generate', model, stream: true }
      : { kind: 'generate', model, stream: true, streamJsonArray: true }
  }
  if (method !== 'GET') return undefined
  const match = modelsPath.exec(path)
  if (!match) return undefined
  const googAuth = request.headers.has('x-goog-api-key') || request.url.searchParams.has('key')
  if (match[1] !== 'v1beta' && !googAuth) return undefined
  if (match[2] === undefined) return { kind: 'list-models' }
  const model = decodeModelSegment(match[2], 'content-generation')
  return model ? { kind: 'get-model', model } : undefined
}

export function upstreamTarget(
  model: string,
  kind: 'generate' | 'count-tokens',
  stream: boolean,
  upstream: UpstreamConfig,
): { url: string; headers: Headers } {
  const base = upstream.baseURL.replace(/\/+$/, '')
  const version = upstream.apiVersion ?? 'v1beta'
  const prefix = version === '' ? base : `${base}/${version}`
  const id = modelPathSegment(model.replace(/^models\//, ''), 'content-generation')
  const method = kind === 'count-tokens' ? 'countTokens' : stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
  const headers = new Headers({ 'content-type': 'application/json' })
  if (upstream.apiKey) headers.set('x-goog-api-key', upstream.apiKey)
  if (upstream.headers) for (const [name, value] of Object.entries(upstream.headers)) headers.set(name, value)
  return { url: `${prefix}/models/${id}:${method}`, headers }
}
