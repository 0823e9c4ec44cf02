/**
 * What each gateway under comparison is asked, per route (the client's format → the upstream's format): the model,
 * the key and the routing headers `interlingua check` sends, or nothing where the gateway does not offer that route.
 */
import type { CheckFormat } from '../../src/node/check/wire.js'
import type { StrictFormat } from '../../src/node/testing/index.js'
import { musistudioProvider } from './peers.js'
import { upstreamModel } from './upstream.js'

export interface Route {
  client: CheckFormat
  upstream: StrictFormat
}

export interface Target {
  model: string
  headers?: Record<string, string>
}

export type GatewayId = 'interlingua' | 'portkey' | 'musistudio'

/** Each route in the table, in order: the passthroughs first, then the translations. */
export const routes: Route[] = [
  { client: 'chat-completions', upstream: 'chat-completions' },
  { client: 'chat-completions', upstream: 'messages' },
  { client: 'chat-completions', upstream: 'content-generation' },
  { client: 'chat-completions', upstream: 'responses' },
  { client: 'messages', upstream: 'messages' },
  { client: 'messages', upstream: 'chat-completions' },
  { client: 'messages', upstream: 'content-generation' },
  { client: 'messages', upstream: 'responses' },
  { client: 'responses', upstream: 'responses' },
  { client: 'responses', upstream: 'chat-completions' },
  { client: 'responses', upstream: 'messages' },
  { client: 'responses', upstream: 'content-generation' },
  { client: 'content-generation', upstream: 'content-generation' },
  { client: 'content-generation', upstream: 'chat-completions' },
  { client: 'content-generation', upstream: 'messages' },
  { client: 'content-generation', upstream: 'responses' },
]

export const routeName = (route: Route) => `${route.client} → ${route.upstream}`

/** The public model of interlingua's own gateway that routes to each upstream format. */
export const ourModel = (upstream: StrictFormat) => `via-${upstream}`

const portkeyProvider: Record<StrictFormat, string> = {
  'chat-completions': 'openai',
  responses: 'openai',
  messages: 'anthropic',
  'content-generation': 'google',
}

/**
 * The routes a peer does not offer, and how it says so (measured with the versions pinned in ./peers.ts; these are not
 * run, and the table says "not offered" with this reason).
 */
export function notOffered(gateway: GatewayId, route: Route): string | undefined {
  if (gateway !== 'portkey') return undefined
  if (route.client === 'content-generation')
    return 'Portkey has no Gemini-format endpoint (`/v1beta/models/…` is a 404)'
  if (route.client === 'chat-completions' && route.upstream === 'responses')
    return 'its `openai` provider sends a chat request to `/v1/chat/completions`; no provider turns it into a Responses call'
  if (route.client === 'messages' && route.upstream !== 'messages')
    return `a 500 \`messages is not supported by ${portkeyProvider[route.upstream]}\`: its \`/v1/messages\` passes through to Anthropic-format providers only`
  if (route.client === 'responses' && route.upstream === 'chat-completions')
    return 'its `openai` provider forwards `/v1/responses` as it is; no provider turns it into a chat request'
  if (route.client === 'responses' && route.upstream !== 'responses')
    return `a 500 \`createModelResponse is not supported by ${portkeyProvider[route.upstream]}\``
  return undefined
}

/** How a route is asked of each gateway. */
export function targetFor(gateway: GatewayId, route: Route, upstreams: Record<StrictFormat, string>): Target {
  if (gateway === 'interlingua') return { model: ourModel(route.upstream) }
  if (gateway === 'musistudio')
    return { model: `${musistudioProvider[route.upstream].name},${upstreamModel[route.upstream]}` }
  const host = upstreams[route.upstream] + (route.upstream === 'content-generation' ? '' : '/v1')
  return {
    model: upstreamModel[route.upstream],
    headers: { 'x-portkey-provider': portkeyProvider[route.upstream], 'x-portkey-custom-host': host },
  }
}
