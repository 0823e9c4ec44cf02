/**
 * `createStrictUpstream`'s cloud variants: a strict stand-in of Amazon Bedrock (InvokeModel, Converse), Google Vertex
 * AI (Gemini, Claude) or Azure OpenAI in front of the strict stand-in of the format behind it, and the gateway
 * upstream options that reach it (`upstream`: the cloud's credentials included).
 */
import type { UpstreamOptions } from '../../../gateway/options.js'
import type { ScriptTurn } from '../strict-upstream.js'
import { azureKey, startAzureStandIn } from './azure.js'
import { awsCredentials, bedrockApiKey, startBedrockStandIn } from './bedrock.js'
import { type CloudReceived, type CloudServer, strictBackend } from './front.js'
import { startVertexStandIn } from './vertex.js'

/** Which cloud, and the format spoken to it: every combination the gateway's providers serve. */
export type StrictCloud =
  | { format: 'messages'; provider: 'bedrock' | 'vertex' }
  | { format: 'converse'; provider?: 'bedrock' }
  | { format: 'content-generation'; provider: 'vertex' }
  | { format: 'chat-completions' | 'responses'; provider: 'azure' }

export type StrictCloudOptions = StrictCloud & {
  /** The answers, in order (the last repeats); see `createStrictUpstream`. Converse answers the same turns. */
  script?: ScriptTurn[]
  /** Bedrock: the model ids the account may call; Azure: the resource's deployments. @defaultValue a few of each */
  models?: string[]
  /** Port on 127.0.0.1. @defaultValue 0 (any free port) */
  port?: number
}

export interface StrictCloudUpstream {
  /** The stand-in's origin (what `upstream.baseURL` holds). */
  baseURL: string
  /** The gateway upstream that reaches it: `createGateway({ upstreams: { cloud: upstream } })`. */
  upstream: UpstreamOptions
  /** A key the cloud also accepts: a Bedrock API key, Azure's `api-key`, Vertex AI's express-mode key (Gemini). */
  apiKey: string
  /** Every call the cloud received, in order (method, raw path and query, headers, parsed body). */
  requests: CloudReceived[]
  /** Why each refused call was refused, by the cloud or by the model behind it. */
  readonly rejections: string[]
  close(): Promise<void>
}

function check(options: StrictCloudOptions): void {
  const allowed: Record<string, string[]> = {
    bedrock: ['messages', 'converse'],
    vertex: ['messages', 'content-generation'],
    azure: ['chat-completions', 'responses'],
  }
  const provider = options.provider ?? (options.format === 'converse' ? 'bedrock' : undefined)
  if (!provider || !allowed[provider]?.includes(options.format))
    throw new TypeError(`createStrictUpstream: no cloud serves format "${options.format}" as "${provider}"`)
}

export async function createCloudUpstream(options: StrictCloudOptions): Promise<StrictCloudUpstream> {
  check(options)
  const { backend, standIn } = await strictBackend(options.script)
  const port = options.port !== undefined ? { port: options.port } : {}
  let cloud: CloudServer & { rejections: string[] }
  let upstream: UpstreamOptions
  let apiKey: string
  if (options.provider === 'azure') {
    const azure = await startAzureStandIn({
      backend,
      ...port,
      ...(options.models ? { deployments: options.models } : {}),
    })
    cloud = azure
    apiKey = azureKey
    upstream = { format: options.format, provider: 'azure', baseURL: azure.url, apiKey }
  } else if (options.provider === 'vertex') {
    const vertex = await startVertexStandIn({ backend, ...port })
    cloud = vertex
    apiKey = vertex.expressKey
    upstream = {
      format: options.format,
      provider: 'vertex',
      baseURL: vertex.url,
      project: vertex.project,
      location: vertex.location,
      auth: { serviceAccount: vertex.serviceAccount },
    }
  } else {
    const bedrock = await startBedrockStandIn({
      backend,
      ...port,
      ...(options.script ? { script: options.script } : {}),
      ...(options.models ? { models: options.models } : {}),
    })
    cloud = bedrock
    apiKey = bedrockApiKey
    upstream = {
      format: options.format,
      provider: 'bedrock',
      baseURL: bedrock.url,
      region: bedrock.region,
      auth: { ...awsCredentials },
    }
  }
  return {
    baseURL: cloud.url,
    upstream,
    apiKey,
    requests: cloud.received,
    get rejections() {
      return [...cloud.rejections, ...standIn.rejections]
    },
    async close() {
      await Promise.all([cloud.close(), standIn.close()])
    },
  }
}
