/**
 * Amazon Bedrock. `format: 'messages'`: Anthropic models through InvokeModel (`/model/{modelId}/invoke`,
 * `/invoke-with-response-stream`; the body is `./invoke.ts`'s). `format: 'converse'`: any model through the Converse
 * API (`/model/{modelId}/converse`, `/converse-stream`), with the converse codec this provider brings
 * (`src/formats/converse/`). Origin `https://bedrock-runtime.{region}.amazonaws.com`, or `baseURL`. Streams are
 * Bedrock's binary event stream, framed into the format's SSE by `./event-stream.ts`. Auth: AWS SigV4 (service
 * `bedrock`) from `{ accessKeyId, secretAccessKey, sessionToken? }`, or a Bedrock API key as `Authorization: Bearer`
 * (`{ bearerToken }`, a string, or `apiKey`), or a function returning either (called before each call).
 * Bedrock's own errors (`{"message"}` with the exception in `x-amzn-errortype`) are decoded here; the gateway
 * re-encodes them in the client's format.
 */
import { InterlinguaError } from '../../errors.js'
import { exceptionError, exceptionName } from '../../formats/converse/errors.js'
import { converseGatewayFormat } from '../../formats/converse/gateway.js'
import { bedrockModelPath } from '../../formats/converse/routes.js'
import type * as ir from '../../ir/index.js'
import { finiteNumber } from '../../shared/finite-number.js'
import { isRecord } from '../../shared/is-record.js'
import { resolveAuth, trimBase } from '../credential.js'
import type {
  Provider,
  ProviderCall,
  ProviderFactory,
  ProviderRequest,
  ProviderTarget,
  ProviderUpstream,
} from '../provider.js'
import { regionOfHost } from './config.js'
import { eventStreamStep } from './event-stream.js'
import { betaFlags, countTokensBody, invokeBody } from './invoke.js'
import { signCall } from './sigv4.js'

/** A header of the upstream's static `headers` object, by case-insensitive name. */
function staticHeader(upstream: ProviderUpstream & { headers?: unknown }, name: string): string | undefined {
  const headers = upstream.headers
  if (!isRecord(headers)) return undefined
  for (const key of Object.keys(headers))
    if (key.toLowerCase() === name && typeof headers[key] === 'string') return headers[key]
  return undefined
}

function actionOf(format: 'messages' | 'converse', request: ProviderRequest): string {
  const stream = request.stream
  if (request.kind === 'count-tokens') return 'count-tokens'
  if (format === 'converse') return stream ? 'converse-stream' : 'converse'
  return stream ? 'invoke-with-response-stream' : 'invoke'
}

function authFailure(message: string): InterlinguaError {
  return new InterlinguaError('authentication', message, { status: 401 })
}

/** A Bedrock error body (`{"message"}`, `{"Message"}`); an Anthropic-shaped body is the format's to decode. */
function bedrockError(
  status: number,
  body: unknown,
  header: (name: string) => string | null,
): ir.ErrorInfo | undefined {
  if (isRecord(body) && body.type === 'error' && isRecord(body.error)) return undefined
  const name = exceptionName(header('x-amzn-errortype') ?? (isRecord(body) ? body.__type : undefined))
  const text = isRecord(body) ? (body.message ?? body.Message) : undefined
  const info = exceptionError(
    name,
    status,
    typeof text === 'string' && text !== '' ? text : `Bedrock answered HTTP ${status}`,
  )
  const retryAfter = finiteNumber(Number(header('retry-after') ?? Number.NaN))
  if (retryAfter !== undefined) info.retryAfter = retryAfter
  return info
}

export const bedrock: ProviderFactory = (upstream): Provider => {
  const format = upstream.format as 'messages' | 'converse'
  const region = upstream.region ?? regionOfHost(upstream.baseURL)
  const origin = trimBase(upstream.baseURL ?? `https://bedrock-runtime.${region}.amazonaws.com`)
  const betas = format === 'messages' ? betaFlags(staticHeader(upstream, 'anthropic-beta')) : undefined
  const auth = upstream.auth ?? (upstream.apiKey === undefined ? undefined : { bearerToken: upstream.apiKey })
  /** SigV4 derived signing keys, per secret and day (the signer's own cache). */
  const keys = new Map<string, ArrayBuffer>()

  async function authorize(call: ProviderCall): Promise<Record<string, string>> {
    const value: unknown = auth === undefined ? undefined : await resolveAuth(auth, 'bedrock')
    const headers = { ...call.headers }
    delete headers.authorization
    if (typeof value === 'string' && value !== '') return { ...headers, authorization: `Bearer ${value}` }
    if (isRecord(value) && typeof value.bearerToken === 'string' && value.bearerToken !== '')
      return { ...headers, authorization: `Bearer ${value.bearerToken}` }
    if (isRecord(value) && typeof value.accessKeyId === 'string' && typeof value.secretAccessKey === 'string') {
      if (!region) throw authFailure('The bedrock upstream has no region to sign requests with (SigV4)')
      return signCall({ ...call, headers }, value as { accessKeyId: string; secretAccessKey: string }, region, keys)
    }
    throw authFailure('The credential of the bedrock upstream is neither AWS credentials nor a Bedrock API key')
  }

  const provider: Provider = {
    target(request): ProviderTarget {
      if (request.kind === 'count-tokens' && format === 'converse')
        throw new InterlinguaError('unsupported-feature', 'Token counting is not served for Bedrock Converse upstreams')
      return {
        url: origin + bedrockModelPath(request.model, actionOf(format, request)),
        headers: { 'content-type': 'application/json', accept: 'application/json' },
      }
    },
    authorize,
    decodeStream: () => eventStreamStep(format),
    decodeError: bedrockError,
  }
  if (format === 'messages') {
    provider.body = (body, request) =>
      request.kind === 'count-tokens' ? countTokensBody(invokeBody(body, betas)) : invokeBody(body, betas)
    provider.tokenCount = (body) => (isRecord(body) ? finiteNumber(body.inputTokens) : undefined)
  } else Object.assign(provider, { codec: converseGatewayFormat })
  return provider
}
