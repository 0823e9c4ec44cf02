/**
 * The strict stand-ins the project's tests use: `interlingua/testing`'s own (src/node/testing/), served for every
 * format at once, plus the gateway configuration that routes a public model to each.
 */
import { type StandIn, type StandInOptions, startStandIn } from '../../src/node/testing/strict-upstream.js'

export type { StrictFormat as FormatId } from '../../src/node/testing/json.js'
export { firstTool, functionNames, hasToolResult, type ToolCallScript } from '../../src/node/testing/strict-rules.js'
export type StrictUpstream = StandIn
export type { StandInOptions as StrictUpstreamOptions }

/** The public model that routes to each stand-in format. */
export const strictModels = {
  'chat-completions': 'strict-openai',
  messages: 'strict-anthropic',
  'content-generation': 'strict-gemini',
} as const

/** Gateway options routing `strictModels` to the stand-ins at `url`, with the client key `client-key`. */
export function strictGatewayOptions(url: string) {
  return {
    upstreams: {
      openai: { format: 'chat-completions' as const, baseURL: `${url}/v1`, apiKey: 'up-openai' },
      anthropic: { format: 'messages' as const, baseURL: url, apiKey: 'up-anthropic' },
      gemini: { format: 'content-generation' as const, baseURL: url, apiKey: 'up-gemini' },
    },
    models: {
      [strictModels['chat-completions']]: { upstream: 'openai', model: 'gpt-5' },
      [strictModels.messages]: { upstream: 'anthropic', model: 'claude-sonnet-4-5' },
      [strictModels['content-generation']]: { upstream: 'gemini', model: 'gemini-3-pro' },
    },
    apiKeys: ['client-key'],
  }
}

/** A stand-in for every format at once (the path says which), lenient about keys, as the tests configure it. */
export function startStrictUpstream(options: StandInOptions = {}): Promise<StrictUpstream> {
  return startStandIn(options)
}
