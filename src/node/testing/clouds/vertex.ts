/**
 * A strict Vertex AI stand-in on 127.0.0.1, with its own OAuth token endpoint. The token endpoint verifies the JWT
 * assertion as Google's does — RS256 signature with the service account's public key (a key pair made at test time),
 * issuer, audience (the token endpoint), the cloud-platform scope, issue and expiry times — before it issues an access
 * token. Every model call must carry a token it issued that has not expired (`expireTokens()` expires them early, as
 * a revoked or clock-skewed token would be), or the express-mode API key for Gemini; the path must name the configured
 * project and location and a known publisher; a Claude call must have no `model` in its body, an `anthropic_version`,
 * and `"stream": true` exactly on `:streamRawPredict`. Errors are in Google's shape. Accepted calls are answered by
 * the backend (the model behind the cloud) in the publisher's format; token counts by the stand-in itself.
 */
import { createVerify, generateKeyPairSync, randomBytes } from 'node:crypto'
import type { ServiceAccountKey } from '../../../providers/provider.js'
import type { Json } from '../json.js'
import { type Backend, type CloudReceived, type CloudServer, countOf, serveCloud } from './front.js'

export type VertexReceived = CloudReceived

export interface VertexStandIn extends CloudServer {
  serviceAccount: ServiceAccountKey
  project: string
  location: string
  expressKey: string
  /** Why each refused model call was refused. */
  rejections: string[]
  /** Token requests received, and the ones refused with the reason. */
  tokenRequests: number
  tokenRefusals: string[]
  /** Issues an access token directly (as `gcloud auth print-access-token` would). */
  issueToken(): string
  /** Every token issued so far stops being valid. */
  expireTokens(): void
  /** The next model call answers 429 RESOURCE_EXHAUSTED with a RetryInfo of 7 s. */
  throttleOnce(): void
}

const scope = 'https://www.googleapis.com/auth/cloud-platform'

function googleError(status: number, code: string, message: string, details?: Json[]): Response {
  return Response.json({ error: { code: status, message, status: code, ...(details ? { details } : {}) } }, { status })
}

function anthropicError(message: string): Response {
  return Response.json({ type: 'error', error: { type: 'invalid_request_error', message } }, { status: 400 })
}

function base64urlJson(part: string): Json {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
}

export interface VertexStandInOptions {
  /** The models behind the cloud: Gemini (content-generation) and Claude (messages) paths. */
  backend: Backend
  project?: string
  location?: string
  port?: number
}

export async function startVertexStandIn(options: VertexStandInOptions): Promise<VertexStandIn> {
  const project = options.project ?? 'test-project'
  const location = options.location ?? 'us-east5'
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const { backend } = options
  const rejections: string[] = []
  const refuse = (message: string, answer = anthropicError(message)) => {
    rejections.push(message)
    return answer
  }
  const tokens = new Map<string, number>()
  const expressKey = `AQ.${randomBytes(12).toString('hex')}`
  let throttle = false
  const state = { tokenRequests: 0, tokenRefusals: [] as string[] }
  const issue = () => {
    const token = `ya29.${randomBytes(16).toString('hex')}`
    tokens.set(token, Date.now() + 3600_000)
    return token
  }
  let tokenURI = ''

  function checkAssertion(assertion: string): string | undefined {
    const parts = assertion.split('.')
    if (parts.length !== 3) return 'malformed JWT'
    const [header, claims, signature] = parts as [string, string, string]
    const head = base64urlJson(header)
    if (head.alg !== 'RS256') return `alg ${head.alg}`
    const verify = createVerify('RSA-SHA256')
    verify.update(`${header}.${claims}`)
    if (!verify.verify(publicKey, Buffer.from(signature, 'base64url'))) return 'invalid signature'
    const body = base64urlJson(claims)
    const now = Math.floor(Date.now() / 1000)
    if (body.iss !== serviceAccount.client_email) return `iss ${body.iss}`
    if (body.aud !== tokenURI) return `aud ${body.aud}`
    if (typeof body.scope !== 'string' || !body.scope.split(' ').includes(scope)) return `scope ${body.scope}`
    if (typeof body.iat !== 'number' || body.iat > now + 60) return 'iat in the future'
    if (typeof body.exp !== 'number' || body.exp <= now || body.exp - body.iat > 3600) return 'exp'
    return undefined
  }

  const serviceAccount: ServiceAccountKey = {
    type: 'service_account',
    project_id: project,
    private_key_id: randomBytes(8).toString('hex'),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    client_email: `gateway@${project}.iam.gserviceaccount.com`,
    token_uri: '',
  }

  const running = await serveCloud(
    async ({ url, request, text, body }) => {
      if (url.pathname === '/token') {
        state.tokenRequests++
        const form = new URLSearchParams(text)
        const refused =
          request.headers.get('content-type') !== 'application/x-www-form-urlencoded'
            ? 'content-type'
            : form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer'
              ? 'grant_type'
              : checkAssertion(form.get('assertion') ?? '')
        if (refused) {
          state.tokenRefusals.push(refused)
          return Response.json({ error: 'invalid_grant', error_description: refused }, { status: 400 })
        }
        return Response.json({ access_token: issue(), expires_in: 3599, token_type: 'Bearer' })
      }
      const match =
        /^\/v1(?:beta1)?(?:\/projects\/([^/]+)\/locations\/([^/]+))?\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/.exec(
          url.pathname,
        )
      const key = request.headers.get('x-goog-api-key')
      const bearer = request.headers.get('authorization')?.replace(/^Bearer /, '')
      const express = match && match[1] === undefined
      const expiry = bearer ? tokens.get(bearer) : undefined
      const authorized = express ? key === expressKey : expiry !== undefined && expiry > Date.now()
      if (!authorized)
        return googleError(
          401,
          'UNAUTHENTICATED',
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
        )
      if (!match)
        return googleError(404, 'NOT_FOUND', `The requested URL ${url.pathname} was not found on this server.`)
      const [, inProject, inLocation, publisher, model, method] = match as unknown as string[]
      if (!express && (inProject !== project || inLocation !== location))
        return googleError(403, 'PERMISSION_DENIED', `Permission denied on resource project ${inProject}.`)
      if (throttle) {
        throttle = false
        return googleError(429, 'RESOURCE_EXHAUSTED', 'Resource exhausted. Please try again later.', [
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' },
        ])
      }
      if (express && publisher !== 'google')
        return googleError(400, 'FAILED_PRECONDITION', 'Express mode serves Google models only.')
      if (publisher === 'google') {
        const sse = url.searchParams.get('alt') === 'sse'
        if (!['generateContent', 'streamGenerateContent', 'countTokens'].includes(method as string))
          return googleError(400, 'INVALID_ARGUMENT', `Unknown method ${method}`)
        if ((method === 'streamGenerateContent') !== sse && method !== 'countTokens')
          return googleError(400, 'INVALID_ARGUMENT', 'alt=sse belongs to streamGenerateContent')
        if (method === 'countTokens') {
          const contents = body?.contents ?? body?.generateContentRequest?.contents
          if (!Array.isArray(contents))
            return refuse('contents is required', googleError(400, 'INVALID_ARGUMENT', 'contents is required'))
          return Response.json({ totalTokens: countOf(contents) })
        }
        return backend(`/v1beta/models/${model}:${method}${sse ? '?alt=sse' : ''}`, text)
      }
      if (model === 'count-tokens' && method === 'rawPredict') {
        if (typeof body?.model !== 'string' || !Array.isArray(body.messages))
          return refuse('model and messages: Field required')
        return Response.json({ input_tokens: countOf([body.system, body.messages, body.tools]) })
      }
      if (method !== 'rawPredict' && method !== 'streamRawPredict')
        return googleError(400, 'INVALID_ARGUMENT', `Unknown method ${method}`)
      if (typeof body !== 'object' || body === null) return googleError(400, 'INVALID_ARGUMENT', 'body')
      const problem =
        'model' in body
          ? 'model: Extra inputs are not permitted'
          : typeof body.anthropic_version !== 'string' || !/^(vertex-)?\d{4}-\d{2}-\d{2}$/.test(body.anthropic_version)
            ? 'anthropic_version: Field required'
            : (body.stream === true) !== (method === 'streamRawPredict')
              ? `stream must be true exactly on streamRawPredict (got ${body.stream})`
              : undefined
      if (problem) return refuse(problem)
      const { anthropic_version: _version, ...rest } = body
      return backend('/v1/messages', JSON.stringify({ ...rest, model }), { 'anthropic-version': '2023-06-01' })
    },
    options.port,
    '/token',
  )
  tokenURI = `${running.url}/token`
  serviceAccount.token_uri = tokenURI
  return {
    ...running,
    serviceAccount,
    project,
    location,
    expressKey,
    rejections,
    get tokenRequests() {
      return state.tokenRequests
    },
    tokenRefusals: state.tokenRefusals,
    issueToken: issue,
    expireTokens() {
      for (const token of tokens.keys()) tokens.set(token, 0)
    },
    throttleOnce() {
      throttle = true
    },
  }
}
