/** Azure OpenAI's spec: what `createGateway` checks before anything is loaded. */
import { checkBaseURL } from '../credential.js'
import type { ProviderSpec, ProviderUpstream } from '../provider.js'

function check(upstream: ProviderUpstream): string | undefined {
  if (!upstream.baseURL) return 'baseURL is required: the resource endpoint, https://{resource}.openai.azure.com'
  const url = checkBaseURL(upstream.baseURL)
  if (url) return url
  if (upstream.apiKey === undefined && upstream.auth === undefined)
    return 'apiKey or auth is required (the api-key, or an Entra ID token or a function returning one)'
  if (upstream.apiKey !== undefined && upstream.auth !== undefined) return 'auth: give apiKey or auth, not both'
  if (upstream.auth !== undefined && typeof upstream.auth !== 'string' && typeof upstream.auth !== 'function')
    return 'auth must be an Entra ID token or a function returning one'
  if (upstream.deployment !== undefined && upstream.apiVersion === undefined)
    return 'apiVersion is required with deployment (the classic /openai/deployments API)'
  return undefined
}

export const azureSpec: ProviderSpec = {
  formats: ['chat-completions', 'responses'],
  check,
  load: () => import('./index.js').then((module) => module.azure),
}
