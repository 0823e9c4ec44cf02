/**
 * Azure OpenAI. The v1 API (`{endpoint}/openai/v1/chat/completions`, `/openai/v1/responses`, the deployment name as the
 * body's `model`) by default; with `apiVersion`, the classic API the `AzureOpenAI` client calls:
 * `/openai/deployments/{deployment}/chat/completions?api-version=…` (the deployment defaults to the model id) and
 * `/openai/responses?api-version=…`. Auth: `apiKey` as the `api-key` header, or `auth` (an Entra ID token, or a
 * function returning one) as `Authorization: Bearer`. Errors are OpenAI-shaped: the format's own decoder reads them.
 */
import { InterlinguaError } from '../../errors.js'
import { modelPathSegment } from '../../shared/path-segment.js'
import { resolveToken, trimBase } from '../credential.js'
import type { Provider, ProviderFactory, ProviderRequest, ProviderTarget, ProviderUpstream } from '../provider.js'

/** The resource endpoint, whatever of `/openai`, `/openai/v1` the configured URL already ends with. */
function endpointOf(baseURL: string): string {
  return trimBase(baseURL).replace(/\/openai(?:\/v1)?$/, '')
}

function path(request: ProviderRequest, upstream: ProviderUpstream): string {
  const endpoint = endpointOf(upstream.baseURL ?? '')
  const version = upstream.apiVersion
  const resource = request.format === 'responses' ? 'responses' : 'chat/completions'
  if (version === undefined) return `${endpoint}/openai/v1/${resource}`
  const query = `?api-version=${encodeURIComponent(version)}`
  if (request.format === 'responses') return `${endpoint}/openai/responses${query}`
  const deployment = modelPathSegment(upstream.deployment ?? request.model, 'chat-completions')
  return `${endpoint}/openai/deployments/${deployment}/chat/completions${query}`
}

export const azure: ProviderFactory = (upstream): Provider => {
  const auth = upstream.auth
  const provider: Provider = {
    target(request): ProviderTarget {
      if (request.kind === 'count-tokens')
        throw new InterlinguaError('unsupported-feature', 'Azure OpenAI has no token-counting endpoint', {
          format: request.format,
        })
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: request.stream ? 'text/event-stream' : 'application/json',
      }
      if (upstream.apiKey !== undefined) headers['api-key'] = upstream.apiKey
      return { url: path(request, upstream), headers }
    },
  }
  if (auth !== undefined)
    provider.authorize = async (call) => ({
      ...call.headers,
      authorization: `Bearer ${await resolveToken(auth, 'azure')}`,
    })
  return provider
}
