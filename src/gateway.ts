/**
 * @module interlingua/gateway
 * The gateway: one Fetch handler (`(request: Request) => Promise<Response>`) serving all four formats in front of
 * upstreams of any format, with the embedded mock model, the optional response store, media fetching and the
 * Fetch-level request/response translators. Kept out of the main entry so that the converters and streams
 * (`interlingua`) stay small.
 *
 * @example
 * import { createGateway } from 'interlingua/gateway'
 * const gateway = createGateway({ upstreams: { openai: { format: 'chat-completions', apiKey: process.env.OPENAI_API_KEY } } })
 * export default { fetch: gateway.fetch }
 */
export type { Gateway } from './gateway/create-gateway.js'
export { createGateway, refuse } from './gateway/create-gateway.js'
export type { MediaFetcher } from './gateway/media.js'
export { createMediaFetcher } from './gateway/media.js'
export type { MockModel } from './gateway/mock-model.js'
export { createMockModel } from './gateway/mock-model.js'
export type {
  AuthenticateResult,
  Caller,
  GatewayContext,
  GatewayOptions,
  GatewayRequestEvent,
  GatewayResponseEvent,
  MediaOptions,
  ModelRoute,
  Refusal,
  UpstreamOptions,
} from './gateway/options.js'
export type {
  ReasoningDetails,
  ReasoningStoreOptions,
  SharedReasoningEntries,
} from './gateway/reasoning-store.js'
export type { MemoryResponseStoreOptions, ResponseStore, StoredResponse } from './gateway/response-store.js'
export { createMemoryResponseStore } from './gateway/response-store.js'
export type { TranslateRequestOptions } from './gateway/translate-request.js'
export { translateRequest } from './gateway/translate-request.js'
export type { TranslateResponseOptions } from './http/translate-response.js'
export { translateResponse } from './http/translate-response.js'
export type {
  AuthValue,
  AwsCredentials,
  ProviderId,
  ProviderOptions,
  ServiceAccountKey,
  UpstreamAuth,
} from './providers/provider.js'
