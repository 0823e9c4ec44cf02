/**
 * What Bedrock checks of a SigV4-signed request, in the stand-in: the credential (a known access key, its session
 * token, not expired), the scope (the region, service `bedrock`), the clock (x-amz-date within 5 minutes), every signed
 * header present, and the signature itself — recomputed from the request as received (method, raw path, signed
 * headers, exact body) with the known secret by `@smithy/signature-v4`, the AWS SDKs' own signer (not the gateway's
 * aws4fetch). Each failure is the 403 Bedrock answers: `x-amzn-errortype` and `{"message"}`.
 */
import { createHash, createHmac } from 'node:crypto'
import { SignatureV4 } from '@smithy/signature-v4'

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

const bytes = (data: string | ArrayBuffer | ArrayBufferView): string | Uint8Array =>
  typeof data === 'string'
    ? data
    : data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : new Uint8Array(data.buffer, data.byteOffset, data.byteLength)

class NodeSha256 {
  private readonly hash
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret))
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(bytes(data))
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest())
  }
  reset(): void {}
}

function dateOf(amzDate: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate)
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : undefined
}

const invalidSignature = (message: string): SigV4Failure => ({ type: 'InvalidSignatureException', message })

/** Undefined when the request is signed as Bedrock requires, else the failure Bedrock answers. */
export async function verifySigV4(
  request: { method: string; url: URL; headers: Headers; body: string },
  credentials: Record<string, Credential>,
  region: string,
  now = new Date(),
): Promise<SigV4Failure | undefined> {
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
  const [, keyId, day, scopeRegion, service, signedList] = parsed as unknown as string[]
  const credential = credentials[keyId as string]
  if (!credential)
    return { type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' }
  if (service !== 'bedrock') return invalidSignature(`Credential should be scoped to correct service: 'bedrock'.`)
  if (scopeRegion !== region) return invalidSignature(`Credential should be scoped to a valid region.`)
  const amzDate = request.headers.get('x-amz-date') ?? ''
  const signedAt = dateOf(amzDate)
  const signed = (signedList as string).split(';')
  if (!signedAt || !signed.includes('x-amz-date') || !signed.includes('host'))
    return invalidSignature("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.")
  if (!amzDate.startsWith(day as string))
    return invalidSignature('Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP.')
  if (Math.abs(now.getTime() - signedAt.getTime()) > 5 * 60_000)
    return invalidSignature(
      `Signature expired: ${amzDate} is now earlier than ${new Date(now.getTime() - 5 * 60_000).toISOString().replace(/[:-]|\.\d{3}/g, '')} (${now.toISOString().replace(/[:-]|\.\d{3}/g, '')} - 5 min.)`,
    )
  const token = request.headers.get('x-amz-security-token') ?? undefined
  if (credential.sessionToken !== undefined) {
    if (token !== credential.sessionToken || !signed.includes('x-amz-security-token'))
      return { type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' }
    if (credential.expired)
      return { type: 'ExpiredTokenException', message: 'The security token included in the request is expired' }
  }
  const headers: Record<string, string> = {}
  for (const name of signed) {
    const value = name === 'host' ? request.url.host : request.headers.get(name)
    if (value === null)
      return invalidSignature(
        `The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.`,
      )
    headers[name] = value
  }
  const signer = new SignatureV4({
    credentials: {
      accessKeyId: keyId as string,
      secretAccessKey: credential.secretAccessKey,
      ...(token ? { sessionToken: token } : {}),
    },
    region,
    service: 'bedrock',
    sha256: NodeSha256,
    applyChecksum: false,
    uriEscapePath: true,
  })
  const expected = await signer.sign(
    {
      method: request.method,
      protocol: request.url.protocol,
      hostname: request.url.hostname,
      port: Number(request.url.port) || undefined,
      path: request.url.pathname,
      query: Object.fromEntries(request.url.searchParams),
      headers,
      body: request.body,
    } as never,
    { signingDate: signedAt },
  )
  const recomputed = (expected as unknown as { headers: Record<string, string> }).headers.authorization
  if (recomputed !== authorization)
    return invalidSignature(
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    )
  return undefined
}
