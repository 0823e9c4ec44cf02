/**
 * What Bedrock checks of a SigV4-signed request: the credential (a known access key, its session token, not expired),
 * the scope (the region, service `bedrock`), the clock (x-amz-date within 5 minutes), every signed header present, the
 * payload hash, and the signature itself — recomputed from the request as received (method, raw path, query, signed
 * headers, exact body) with the known secret, by the algorithm AWS documents (written here with `node:crypto`,
 * independently of the gateway's signer; the official AWS SDKs' requests pass it in the differential tests). Each
 * failure is the 403 Bedrock answers. @see https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
 */
import { createHash, createHmac } from 'node:crypto'

export interface Credential {
  secretAccessKey: string
  sessionToken?: string
  /** The session token has expired (STS credentials past their expiry). */
  expired?: boolean
}

export interface SigV4Failure {
  type: string
  message: string
}

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()
/** RFC 3986 percent-encoding (what `encodeURIComponent` leaves of `!'()*` encoded too). */
const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/** Every service but S3: dot segments resolved, then the (already encoded) path encoded once more, `/` kept. */
function canonicalPath(path: string): string {
  const segments: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') segments.pop()
    else segments.push(segment)
  }
  const normalized = `/${segments.join('/')}${segments.length > 0 && path.endsWith('/') ? '/' : ''}`
  return rfc3986(normalized).replace(/%2F/g, '/')
}

function canonicalQuery(params: URLSearchParams): string {
  return [...params]
    .map(([key, value]) => `${rfc3986(key)}=${rfc3986(value)}`)
    .sort()
    .join('&')
}

function dateOf(amzDate: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate)
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : undefined
}

const mismatch =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.'
const invalidSignature = (message: string): SigV4Failure => ({ type: 'InvalidSignatureException', message })
const unrecognized: SigV4Failure = {
  type: 'UnrecognizedClientException',
  message: 'The security token included in the request is invalid.',
}

/** Undefined when the request is signed as Bedrock requires, else the failure Bedrock answers. */
export function verifySigV4(
  request: { method: string; url: URL; headers: Headers; body: string },
  credentials: Record<string, Credential>,
  region: string,
  now = new Date(),
): SigV4Failure | undefined {
  const authorization = request.headers.get('authorization') ?? ''
  const parsed =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      authorization,
    )
  if (!parsed)
    return {
      type: 'IncompleteSignatureException',
      message: 'Authorization header requires a Credential, SignedHeaders and Signature.',
    }
  const [, keyId, day, scopeRegion, service, signedList, signature] = parsed as unknown as string[]
  const credential = credentials[keyId as string]
  if (!credential) return unrecognized
  if (service !== 'bedrock') return invalidSignature(`Credential should be scoped to correct service: 'bedrock'.`)
  if (scopeRegion !== region) return invalidSignature('Credential should be scoped to a valid region.')
  const amzDate = request.headers.get('x-amz-date') ?? ''
  const signedAt = dateOf(amzDate)
  const signed = (signedList as string).split(';')
  if (!signedAt || !signed.includes('x-amz-date') || !signed.includes('host'))
    return invalidSignature("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.")
  if (!amzDate.startsWith(day as string))
    return invalidSignature('Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP.')
  if (Math.abs(now.getTime() - signedAt.getTime()) > 5 * 60_000) {
    const stamp = (date: Date) => date.toISOString().replace(/[:-]|\.\d{3}/g, '')
    return invalidSignature(
      `Signature expired: ${amzDate} is now earlier than ${stamp(new Date(now.getTime() - 5 * 60_000))} (${stamp(now)} - 5 min.)`,
    )
  }
  if (credential.sessionToken !== undefined) {
    const token = request.headers.get('x-amz-security-token')
    if (token !== credential.sessionToken || !signed.includes('x-amz-security-token')) return unrecognized
    if (credential.expired)
      return { type: 'ExpiredTokenException', message: 'The security token included in the request is expired' }
  }
  const lines: string[] = []
  for (const name of signed) {
    const value = name === 'host' ? request.url.host : request.headers.get(name)
    if (value === null) return invalidSignature(mismatch)
    lines.push(`${name}:${value.trim().replace(/\s+/g, ' ')}\n`)
  }
  const payload = sha256(request.body)
  const declared = request.headers.get('x-amz-content-sha256')
  if (declared !== null && declared !== payload) return invalidSignature(mismatch)
  const canonical = [
    request.method,
    canonicalPath(request.url.pathname),
    canonicalQuery(request.url.searchParams),
    lines.join(''),
    signedList,
    payload,
  ].join('\n')
  const scope = `${day}/${region}/bedrock/aws4_request`
  const toSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${sha256(canonical)}`
  let key = hmac(`AWS4${credential.secretAccessKey}`, day as string)
  for (const part of [region, 'bedrock', 'aws4_request']) key = hmac(key, part)
  if (createHmac('sha256', key).update(toSign).digest('hex') !== signature) return invalidSignature(mismatch)
  return undefined
}
