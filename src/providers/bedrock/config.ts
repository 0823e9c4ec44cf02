/** Amazon Bedrock's spec: what `createGateway` checks before anything is loaded (no dependency, shipped always). */
import { checkBaseURL } from '../credential.js'
import type { ProviderSpec, ProviderUpstream } from '../provider.js'

/** `bedrock-runtime.{region}.amazonaws.com` → the region, else undefined. */
export function regionOfHost(baseURL: string | undefined): string | undefined {
  if (!baseURL) return undefined
  try {
    return /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/.exec(new URL(baseURL).hostname)?.[1]
  } catch {
    return undefined
  }
}

function checkAuth(upstream: ProviderUpstream): string | undefined {
  const auth = upstream.auth
  if (auth === undefined && upstream.apiKey === undefined)
    return 'auth is required: { accessKeyId, secretAccessKey, sessionToken? } (SigV4), { bearerToken } (a Bedrock API key), or a function returning either'
  if (auth !== undefined && upstream.apiKey !== undefined)
    return 'auth: give apiKey (a Bedrock API key) or auth, not both'
  if (auth === undefined || typeof auth === 'function' || typeof auth === 'string') return undefined
  if (typeof auth !== 'object' || auth === null) return 'auth must be an object or a function'
  if ('bearerToken' in auth)
    return typeof auth.bearerToken === 'string' ? undefined : 'auth.bearerToken must be a string'
  if ('accessKeyId' in auth) {
    if (typeof auth.accessKeyId !== 'string' || typeof auth.secretAccessKey !== 'string')
      return 'auth needs accessKeyId and secretAccessKey (strings)'
    if (!upstream.region && !regionOfHost(upstream.baseURL))
      return 'region is required to sign requests (SigV4), e.g. us-east-1'
    return undefined
  }
  return 'auth must be { accessKeyId, secretAccessKey, sessionToken? } or { bearerToken }'
}

function check(upstream: ProviderUpstream): string | undefined {
  if (!upstream.region && !upstream.baseURL) return 'region is required (e.g. us-east-1), or a baseURL'
  if (upstream.region !== undefined && !/^[a-z]{2}(-[a-z]+)+-\d+$/.test(upstream.region))
    return `region "${upstream.region}" is not an AWS region (e.g. us-east-1)`
  return checkBaseURL(upstream.baseURL) ?? checkAuth(upstream)
}

export const bedrockSpec: ProviderSpec = {
  formats: ['messages', 'converse'],
  check,
  load: () => import('./index.js').then((module) => module.bedrock),
}
