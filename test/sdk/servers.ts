/** Real servers on 127.0.0.1 for the SDK tests: a gateway in front of local upstreams of each format. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { GatewayOptions } from '../../src/gateway/options.js'
import { type FetchHandler, toNodeListener } from '../../src/node.js'

export interface Running {
  url: string
  close: () => Promise<void>
}

export function serve(handler: FetchHandler): Promise<Running> {
  const server: Server = createServer(toNodeListener(handler))
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    })
  })
}

/** Upstream formats and the public model id that routes to each. */
export const upstreamModels = {
  'chat-completions': 'via-chat-completions',
  messages: 'via-messages',
  'content-generation': 'via-content-generation',
  responses: 'via-responses',
} as const

/**
 * One mock-model gateway plays every upstream (it speaks all four formats, so it is a faithful local upstream of
 * each); the gateway under test routes each public model to it in one format, with its own upstream key.
 */
export async function startStack(
  extra: Partial<GatewayOptions> = {},
): Promise<{ gateway: Running; upstream: Running; upstreamKeys: string[] }> {
  const upstreamKeys: string[] = []
  const mock = createGateway({})
  const upstream = await serve((request) => {
    upstreamKeys.push(
      request.headers.get('authorization') ??
        request.headers.get('x-api-key') ??
        request.headers.get('x-goog-api-key') ??
        '',
    )
    return mock.fetch(request)
  })
  const gateway = createGateway({
    upstreams: {
      openai: { format: 'chat-completions', baseURL: `${upstream.url}/v1`, apiKey: 'upstream-openai-key' },
      anthropic: { format: 'messages', baseURL: upstream.url, apiKey: 'upstream-anthropic-key' },
      gemini: { format: 'content-generation', baseURL: upstream.url, apiKey: 'upstream-gemini-key' },
      'openai-responses': { format: 'responses', baseURL: `${upstream.url}/v1`, apiKey: 'upstream-responses-key' },
    },
    models: {
      [upstreamModels['chat-completions']]: { upstream: 'openai', model: 'mock-upstream-model' },
      [upstreamModels.messages]: { upstream: 'anthropic', model: 'mock-upstream-model' },
      [upstreamModels['content-generation']]: { upstream: 'gemini', model: 'mock-upstream-model' },
      [upstreamModels.responses]: { upstream: 'openai-responses', model: 'mock-upstream-model' },
    },
    apiKeys: ['client-key'],
    ...extra,
  })
  return { gateway: await serve(gateway.fetch), upstream, upstreamKeys }
}

/** A 1×1 PNG. */
export const pngBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg=='

export const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
} as const
