/** Vertex AI's spec: what `createGateway` checks before anything is loaded. */
import { checkBaseURL } from '../credential.js'
import type { ProviderSpec, ProviderUpstream } from '../provider.js'

function checkAuth(auth: ProviderUpstream['auth']): string | undefined {
  if (auth === undefined) return 'auth is required: { serviceAccount } (a key file), an access token or a function'
  if (typeof auth === 'string' || typeof auth === 'function') return undefined
  if (typeof auth === 'object' && auth !== null && 'serviceAccount' in auth) {
    const key = auth.serviceAccount as unknown as Partial<Record<string, unknown>> | null
    if (typeof key !== 'object' || key === null) return 'auth.serviceAccount must be the key file’s object'
    if (typeof key.client_email !== 'string') return 'auth.serviceAccount.client_email is missing'
    if (typeof key.private_key !== 'string' || !key.private_key.includes('PRIVATE KEY'))
      return 'auth.serviceAccount.private_key is missing (a PEM private key)'
    if (key.token_uri !== undefined && checkBaseURL(key.token_uri as string) !== undefined)
      return 'auth.serviceAccount.token_uri must be an absolute http(s) URL'
    return undefined
  }
  return 'auth must be { serviceAccount }, an access token, or a function returning a token'
}

function check(upstream: ProviderUpstream): string | undefined {
  const url = checkBaseURL(upstream.baseURL)
  if (url) return url
  if (upstream.apiKey !== undefined) {
    // Express mode: an API key, Gemini only, no project.
    if (upstream.format !== 'content-generation')
      return 'apiKey (Vertex AI express mode) serves Gemini (content-generation) only; Claude needs project, location and auth'
    if (upstream.auth !== undefined) return 'auth: give apiKey (express mode) or auth, not both'
    return undefined
  }
  if (!upstream.project) return 'project is required (the Google Cloud project id)'
  if (!upstream.location) return `location is required (a region such as 'us-east5', or 'global')`
  if (!/^[a-z0-9-]+$/.test(upstream.location)) return `location "${upstream.location}" is not a Vertex AI location`
  return checkAuth(upstream.auth)
}

export const vertexSpec: ProviderSpec = {
  formats: ['content-generation', 'messages'],
  check,
  load: () => import('./index.js').then((module) => module.vertex),
}
