/**
 * `interlingua/testing`: strict stand-ins for the providers, for an app's unit tests (Vitest, Jest, node:test).
 *
 * @example
 * const upstream = await createStrictUpstream({ format: 'messages', script: [{ text: 'Hi!' }] })
 * const anthropic = new Anthropic({ baseURL: upstream.baseURL, apiKey: upstream.apiKey })
 * // … upstream.requests holds what was sent; a request the real service would refuse got its native 400
 * await upstream.close()
 */
import { randomBytes } from 'node:crypto'
import { createCloudUpstream, type StrictCloudOptions, type StrictCloudUpstream } from './clouds/index.js'
import type { StrictFormat } from './json.js'
import { type ReceivedRequest, type ScriptTurn, type StandIn, startStandIn } from './strict-upstream.js'

export type { CloudReceived } from './clouds/front.js'
export type { StrictCloud, StrictCloudOptions, StrictCloudUpstream } from './clouds/index.js'
export type { StrictFormat } from './json.js'
export type { ReceivedRequest, ScriptTurn } from './strict-upstream.js'

export interface StrictUpstreamOptions {
  /** The wire format it speaks: `chat-completions`, `responses`, `messages` or `content-generation`. */
  format: StrictFormat
  /**
   * The answers, in order (the last repeats). Without a script: reasoning and a call to the request's first tool
   * when it has tools and no tool result yet, else text.
   */
  script?: ScriptTurn[]
  /** Port on 127.0.0.1. @defaultValue 0 (any free port) */
  port?: number
  /** The key requests must carry. @defaultValue a random one (`apiKey` of the result) */
  apiKey?: string
}

export interface StrictUpstream {
  /** What the format's official SDK takes as `baseURL`: `http://127.0.0.1:port/v1` for OpenAI, the origin otherwise. */
  baseURL: string
  apiKey: string
  /** Every request received, in order (method, path, headers, parsed body). */
  requests: ReceivedRequest[]
  /** Why each refused request was refused (the message of its 400). */
  rejections: string[]
  close(): Promise<void>
}

/**
 * Starts an HTTP server on 127.0.0.1 that speaks `format` strictly, like the real service: every request is checked
 * (its fields by the library's own decoder, tools, tool results paired with calls, reasoning signatures — only those
 * it issued, unchanged — and the key, sent the way that service's SDK sends it), a violation gets the service's
 * native error, and valid requests are answered from `script` (JSON or SSE, as asked).
 */
export async function createStrictUpstream(options: StrictUpstreamOptions): Promise<StrictUpstream>
/**
 * A cloud's strict stand-in (Amazon Bedrock, Google Vertex AI, Azure OpenAI) in front of the strict stand-in of the
 * format behind it: the cloud's checks (SigV4 recomputed with the secret, or a Bedrock API key; a service-account
 * JWT verified before a token is issued, then the token on every call; Azure's `api-key`, path and `api-version`),
 * its paths and body rules (no `model` in a Claude body, `anthropic_version`…), its framing (Bedrock's binary event
 * stream) and error shapes. `upstream` is the gateway upstream that reaches it, credentials included.
 *
 * @example
 * const bedrock = await createStrictUpstream({ format: 'messages', provider: 'bedrock', script: [{ text: 'Hi!' }] })
 * const gateway = createGateway({
 *   upstreams: { bedrock: bedrock.upstream },
 *   models: { claude: { upstream: 'bedrock', model: 'anthropic.claude-sonnet-4-5-20250929-v1:0' } },
 * })
 */
export async function createStrictUpstream(options: StrictCloudOptions): Promise<StrictCloudUpstream>
export async function createStrictUpstream(
  options: StrictUpstreamOptions | StrictCloudOptions,
): Promise<StrictUpstream | StrictCloudUpstream> {
  if ('provider' in options || options.format === 'converse') return createCloudUpstream(options as StrictCloudOptions)
  const apiKey = options.apiKey ?? `sk-strict-${randomBytes(12).toString('hex')}`
  const standIn: StandIn = await startStandIn({
    only: options.format,
    apiKey,
    validate: true,
    ...(options.script ? { script: options.script } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
  })
  const openai = options.format === 'chat-completions' || options.format === 'responses'
  return {
    baseURL: openai ? `${standIn.url}/v1` : standIn.url,
    apiKey,
    requests: standIn.requests,
    rejections: standIn.rejections,
    close: standIn.close,
  }
}
