/**
 * Google Vertex AI. Gemini (content-generation) at
 * `/v1/projects/{p}/locations/{l}/publishers/google/models/{m}:generateContent` (`:streamGenerateContent?alt=sse`,
 * `:countTokens`); Claude (messages) at `…/publishers/anthropic/models/{m}:rawPredict` (`:streamRawPredict`), the
 * messages body without `model`, with the `anthropic_version` `@anthropic-ai/vertex-sdk` sends (`../anthropic-version.ts`;
 * Vertex's older documentation gives `vertex-2023-10-16`) and `"stream": true` on the
 * streaming call. The origin is `https://{location}-aiplatform.googleapis.com` (`global`: no region prefix; `us`/`eu`:
 * the multi-region hosts), or `baseURL`. Auth: an access token (or a function returning one), a service-account key
 * (tokens fetched with a signed JWT, cached, refreshed), or an express-mode API key (Gemini only, no project).
 */

import { contentGeneration } from '../../formats/content-generation/index.js'
import type { FormatId } from '../../formats/format.js'
import { modelPathSegment } from '../../shared/path-segment.js'
import { anthropicBodyVersion } from '../anthropic-version.js'
import { resolveToken, trimBase } from '../credential.js'
import type { Provider, ProviderFactory, ProviderRequest, ProviderTarget, ProviderUpstream } from '../provider.js'
import { ServiceAccountTokens } from './service-account.js'

function originOf(upstream: ProviderUpstream): string {
  if (upstream.baseURL) return trimBase(upstream.baseURL)
  const location = upstream.location
  if (upstream.project === undefined || location === 'global') return 'https://aiplatform.googleapis.com'
  if (location === 'us' || location === 'eu') return `https://aiplatform.${location}.rep.googleapis.com`
  return `https://${location}-aiplatform.googleapis.com`
}

function method(request: ProviderRequest): string {
  if (request.format === 'messages') return request.stream ? 'streamRawPredict' : 'rawPredict'
  if (request.kind === 'count-tokens') return 'countTokens'
  return request.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
}

function url(request: ProviderRequest, upstream: ProviderUpstream, origin: string): string {
  const version = upstream.apiVersion ?? 'v1'
  const scope =
    upstream.project === undefined
      ? ''
      : `/projects/${encodeURIComponent(upstream.project)}/locations/${encodeURIComponent(upstream.location ?? '')}`
  const publisher = request.format === 'messages' ? 'anthropic' : 'google'
  // Claude's token counting is one endpoint for every model (the model stays in the body).
  const model =
    request.format === 'messages' && request.kind === 'count-tokens'
      ? 'count-tokens'
      : // `@` (versioned model ids, `claude-sonnet-4-5@20250929`) is a path character: kept as the SDKs send it.
        modelPathSegment(request.model.replace(/^models\//, ''), request.format as FormatId).replace(/%40/g, '@')
  const name = request.format === 'messages' && request.kind === 'count-tokens' ? 'rawPredict' : method(request)
  return `${origin}/${version}${scope}/publishers/${publisher}/models/${model}:${name}`
}

/** The messages body as Vertex takes it: no `model` (it is in the path), `anthropic_version`, `stream` when streaming. */
function claudeBody(text: string, request: ProviderRequest): string {
  const body = JSON.parse(text) as Record<string, unknown>
  if (request.kind === 'generate') delete body.model
  body.anthropic_version ??= anthropicBodyVersion
  if (request.stream) body.stream = true
  else if (request.kind === 'generate') delete body.stream
  return JSON.stringify(body)
}

/** A Google-shaped error (`{error: {code, message, status}}`, or a one-element array of it on streaming endpoints). */
function googleError(body: unknown): Record<string, unknown> | undefined {
  const record = Array.isArray(body) && body.length === 1 ? body[0] : body
  if (typeof record !== 'object' || record === null) return undefined
  const error = (record as { error?: unknown }).error
  if (typeof error !== 'object' || error === null || typeof (error as { status?: unknown }).status !== 'string')
    return undefined
  return record as Record<string, unknown>
}

export const vertex: ProviderFactory = (upstream, context): Provider => {
  const origin = originOf(upstream)
  const auth = upstream.auth
  const tokens =
    typeof auth === 'object' && auth !== null && 'serviceAccount' in auth
      ? new ServiceAccountTokens(auth.serviceAccount, context.fetch, context.name)
      : undefined
  const provider: Provider = {
    target(request): ProviderTarget {
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (upstream.apiKey !== undefined) headers['x-goog-api-key'] = upstream.apiKey
      return { url: url(request, upstream, origin), headers }
    },
    decodeError(status, body) {
      // The cloud's own layer (auth, quota, routing) answers in Google's shape whichever publisher was called.
      const google = googleError(body)
      if (google) return contentGeneration.decodeError(status, google)
      return undefined
    },
  }
  if (upstream.format === 'messages') provider.body = claudeBody
  if (auth !== undefined) {
    provider.authorize = async (call) => ({
      ...call.headers,
      authorization: `Bearer ${tokens ? await tokens.get() : await resolveToken(auth, context.name)}`,
    })
    provider.unauthorized = (headers) => {
      if (!tokens) return false
      tokens.drop((headers.authorization ?? '').replace(/^Bearer /, ''))
      return true
    }
  }
  return provider
}
