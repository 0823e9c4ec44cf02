/**
 * The Bedrock set-up the cloud tests share: the mock-model stand-in, started before a file's tests and closed after
 * them (`useMockBedrock`); the model ids they ask for; the gateway upstreams that reach it (signed with the
 * stand-in's credentials unless told otherwise); and the AWS environment the CLI reads.
 */
import { afterAll, beforeAll } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { UpstreamOptions } from '../../src/gateway/options.js'
import {
  awsCredentials,
  type BedrockReceived,
  type BedrockStandIn,
  region,
} from '../../src/node/testing/clouds/bedrock.js'
import { type Running, serve } from '../sdk/servers.js'
import { startMockBedrock } from './mock-backend.js'

/** Claude (InvokeModel unless the route says Converse) and Nova (Converse only). */
export const claudeId = 'anthropic.claude-sonnet-4-5-20250929-v1:0'
/** Claude's cross-region inference profile. */
export const claudeProfileId = `us.${claudeId}`
export const novaId = 'amazon.nova-pro-v1:0'

export interface MockBedrock {
  /** The stand-in itself (for `throttleOnce`, `failStreamOnce`…). */
  readonly stand: BedrockStandIn
  readonly url: string
  readonly received: BedrockReceived[]
  /** The last request it received. */
  last(): BedrockReceived
}

/** The mock-model Bedrock stand-in of the calling test file: started in `beforeAll`, closed in `afterAll`. */
export function useMockBedrock(): MockBedrock {
  let started: BedrockStandIn | undefined
  beforeAll(async () => {
    started = await startMockBedrock()
  })
  afterAll(() => started?.close())
  const stand = () => {
    if (!started) throw new Error('the Bedrock stand-in starts in beforeAll: use it inside a test or a hook')
    return started
  }
  return {
    get stand() {
      return stand()
    },
    get url() {
      return stand().url
    },
    get received() {
      return stand().received
    },
    last: () => stand().received.at(-1) as BedrockReceived,
  }
}

type Auth = UpstreamOptions['auth']

/** The fields of a gateway upstream that reaches the stand-in. */
export function bedrockUpstream(bedrock: { url: string }, auth: Auth = awsCredentials) {
  return { provider: 'bedrock' as const, region, baseURL: bedrock.url, auth }
}

/** Two upstreams on the stand-in: `invoke` (InvokeModel, messages body) and `converse` (Converse). */
export function bedrockUpstreams(bedrock: { url: string }, auth: Auth = awsCredentials) {
  const common = bedrockUpstream(bedrock, auth)
  return {
    invoke: { format: 'messages' as const, ...common },
    converse: { format: 'converse' as const, ...common },
  }
}

/** A gateway, served on 127.0.0.1, whose one upstream `bedrock` (messages format unless `upstream` says) is the stand-in. */
export function startBedrockGateway(
  bedrock: { url: string },
  upstream: Partial<UpstreamOptions> = {},
): Promise<Running> {
  const options = { format: 'messages' as const, ...bedrockUpstream(bedrock), ...upstream } as UpstreamOptions
  return serve(createGateway({ upstreams: { bedrock: options } }).fetch)
}

/** The AWS environment the CLI reads for Bedrock, with `credentials` (a session token when they have one). */
export function awsEnv(
  bedrock: { url: string },
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } = awsCredentials,
): Record<string, string> {
  const env: Record<string, string> = {
    AWS_REGION: region,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    BEDROCK_BASE_URL: bedrock.url,
  }
  if (credentials.sessionToken !== undefined) env.AWS_SESSION_TOKEN = credentials.sessionToken
  return env
}
