/**
 * AWS Signature Version 4 for Bedrock (service `bedrock`), with `aws4fetch`'s signer (Web Crypto: every runtime),
 * loaded with the Bedrock provider only. It signs `host`, `x-amz-date`, `x-amz-security-token` (session credentials)
 * and every other header sent except the unsignable ones (`content-type`, `content-length`, `user-agent`, …), over the
 * exact body; the path's model segment is encoded twice in the canonical request, as AWS expects for every service
 * but S3. @see https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
 */
import { AwsV4Signer } from 'aws4fetch'
import type { AwsCredentials, ProviderCall } from '../provider.js'

/** The headers of `call` with the SigV4 ones added (lower-case names). `cache` keeps derived signing keys per day. */
export async function signCall(
  call: ProviderCall,
  credentials: AwsCredentials,
  region: string,
  cache: Map<string, ArrayBuffer>,
): Promise<Record<string, string>> {
  const init: ConstructorParameters<typeof AwsV4Signer>[0] = {
    method: 'POST',
    url: call.url,
    headers: call.headers,
    body: call.body,
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    service: 'bedrock',
    region,
    cache,
  }
  if (credentials.sessionToken) init.sessionToken = credentials.sessionToken
  const signed = await new AwsV4Signer(init).sign()
  const headers: Record<string, string> = {}
  signed.headers.forEach((value, name) => {
    headers[name] = value
  })
  return headers
}
