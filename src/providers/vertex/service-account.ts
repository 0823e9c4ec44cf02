/**
 * Google service-account credentials → OAuth access tokens: an RS256-signed JWT assertion (Web Crypto, no library)
 * exchanged at the key's own `token_uri` (RFC 7523 `jwt-bearer` grant). Tokens are cached and refreshed five minutes
 * before they expire, with one refresh in flight at a time; a token the upstream rejected is dropped.
 */
import { InterlinguaError } from '../../errors.js'
import type { ServiceAccountKey } from '../provider.js'

const scope = 'https://www.googleapis.com/auth/cloud-platform'
const defaultTokenURI = 'https://oauth2.googleapis.com/token'
/** Refresh this long before the token expires. */
const refreshMarginMs = 5 * 60 * 1000
const lifetimeSeconds = 3600
const tokenTimeoutMs = 30_000

function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

const utf8 = (text: string) => new TextEncoder().encode(text)

/** The DER bytes of a PEM block. */
function pemBytes(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '')
  const binary = atob(body)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

export class ServiceAccountTokens {
  private key: Promise<CryptoKey> | undefined
  private token: { value: string; refreshAt: number } | undefined
  private inflight: Promise<string> | undefined

  constructor(
    private readonly account: ServiceAccountKey,
    private readonly doFetch: typeof fetch,
    /** The upstream's name, for error messages. */
    private readonly name: string,
  ) {}

  /** A valid access token: the cached one, else the refresh in flight, else a new one. */
  get(): Promise<string> {
    const token = this.token
    if (token && Date.now() < token.refreshAt) return Promise.resolve(token.value)
    if (!this.inflight) {
      const refresh = this.refresh()
      this.inflight = refresh
      const done = () => {
        if (this.inflight === refresh) this.inflight = undefined
      }
      refresh.then(done, done)
    }
    return this.inflight
  }

  /** The upstream refused `value`: it is not handed out again. */
  drop(value: string): void {
    if (this.token?.value === value) this.token = undefined
  }

  private signingKey(): Promise<CryptoKey> {
    this.key ??= crypto.subtle
      .importKey('pkcs8', pemBytes(this.account.private_key), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, [
        'sign',
      ])
      .catch((error: unknown) => {
        this.key = undefined
        throw this.failure('its private_key cannot be read as a PKCS#8 RSA key', error)
      })
    return this.key
  }

  /** The signed JWT assertion (RFC 7523): issuer the account, audience the token endpoint, one hour. */
  async assertion(now = Date.now()): Promise<string> {
    const issued = Math.floor(now / 1000)
    const header: Record<string, string> = { alg: 'RS256', typ: 'JWT' }
    if (this.account.private_key_id) header.kid = this.account.private_key_id
    const claims = {
      iss: this.account.client_email,
      scope,
      aud: this.tokenURI(),
      iat: issued,
      exp: issued + lifetimeSeconds,
    }
    const signed = `${base64url(utf8(JSON.stringify(header)))}.${base64url(utf8(JSON.stringify(claims)))}`
    const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', await this.signingKey(), utf8(signed))
    return `${signed}.${base64url(new Uint8Array(signature))}`
  }

  private tokenURI(): string {
    return this.account.token_uri ?? defaultTokenURI
  }

  private failure(reason: string, cause?: unknown): InterlinguaError {
    return new InterlinguaError(
      'authentication',
      `The service account of the upstream "${this.name}" was not accepted: ${reason}`,
      { cause },
    )
  }

  private async refresh(): Promise<string> {
    const started = Date.now()
    const body = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: await this.assertion(started),
    })
    let response: Response
    try {
      response = await this.doFetch(this.tokenURI(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
        signal: AbortSignal.timeout(tokenTimeoutMs),
      })
    } catch (error) {
      throw new InterlinguaError('upstream', `The token endpoint of the upstream "${this.name}" is unreachable`, {
        cause: error,
      })
    }
    let answer: { access_token?: unknown; expires_in?: unknown; error?: unknown } = {}
    try {
      answer = (await response.json()) as typeof answer
    } catch {}
    if (!response.ok || typeof answer.access_token !== 'string') {
      const code = typeof answer.error === 'string' ? ` (${answer.error.slice(0, 60)})` : ''
      throw this.failure(`its token endpoint answered HTTP ${response.status}${code}`)
    }
    const expiresIn = typeof answer.expires_in === 'number' ? answer.expires_in : lifetimeSeconds
    const refreshAt = started + Math.max(expiresIn * 1000 - refreshMarginMs, (expiresIn * 1000) / 2)
    this.token = { value: answer.access_token, refreshAt }
    return answer.access_token
  }
}
