/**
 * The project's cloud tests put the library's mock model behind the cloud stand-ins (`interlingua/testing`'s, in
 * src/node/testing/clouds/): its answers echo the prompt, which the matrix reads back in every client format.
 */
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime'
import { NodeHttpHandler } from '@smithy/node-http-handler'
import { createGateway } from '../../src/gateway/create-gateway.js'
import { type AzureStandIn, startAzureStandIn } from '../../src/node/testing/clouds/azure.js'
import {
  awsCredentials,
  type BedrockStandIn,
  region,
  startBedrockStandIn,
} from '../../src/node/testing/clouds/bedrock.js'
import type { Backend } from '../../src/node/testing/clouds/front.js'
import { startVertexStandIn, type VertexStandIn } from '../../src/node/testing/clouds/vertex.js'

export function mockBackend(): Backend {
  const mock = createGateway()
  return (path, body, headers = {}) =>
    mock.fetch(
      new Request(`http://mock.test${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      }),
    )
}

export const startMockBedrock = (): Promise<BedrockStandIn> => startBedrockStandIn({ backend: mockBackend() })
export const startMockAzure = (): Promise<AzureStandIn> => startAzureStandIn({ backend: mockBackend() })
export const startMockVertex = (options: { project?: string; location?: string } = {}): Promise<VertexStandIn> =>
  startVertexStandIn({ backend: mockBackend(), ...options })

/** `@aws-sdk/client-bedrock-runtime` at a Bedrock stand-in, with the stand-in's credentials. */
export function awsClient(bedrock: { url: string }): BedrockRuntimeClient {
  return new BedrockRuntimeClient({
    region,
    endpoint: bedrock.url,
    credentials: awsCredentials,
    maxAttempts: 1,
    // The SDK speaks HTTP/2 by default; the stand-in is HTTP/1.1 (as any local server).
    requestHandler: new NodeHttpHandler(),
  })
}
