/**
 * @module interlingua
 * Translate between OpenAI Chat Completions, Anthropic Messages and Gemini generateContent, and serve
 * all three from one Fetch handler.
 *
 * @example
 * import { convertRequest } from 'interlingua'
 * const anthropicBody = convertRequest(openaiBody, { from: 'chat-completions', to: 'messages' })
 */
export type { ConvertOptions, ConvertRequestOptions } from './convert.js'
export { convertError, convertRequest, convertResponse } from './convert.js'
export type { InterlinguaErrorOptions, InterlinguaIssue } from './errors.js'
export { InterlinguaError } from './errors.js'
export type {
  Converted,
  EncodeRequestOptions,
  EncodeStreamOptions,
  Format,
  FormatId,
  ModelInfo,
  RouteKind,
  RouteMatch,
  RouteRequest,
  SseFrame,
  SseMessage,
  UpstreamConfig,
} from './formats/format.js'
export { chatCompletions, contentGeneration, formats, getFormat, messages, responses } from './formats/index.js'
export type { Gateway } from './gateway/create-gateway.js'
export { createGateway } from './gateway/create-gateway.js'
export type { MediaFetcher } from './gateway/media.js'
export { createMediaFetcher } from './gateway/media.js'
export type { MockModel } from './gateway/mock-model.js'
export { createMockModel } from './gateway/mock-model.js'
export type {
  GatewayContext,
  GatewayOptions,
  GatewayRequestEvent,
  GatewayResponseEvent,
  MediaOptions,
  ModelRoute,
  UpstreamOptions,
} from './gateway/options.js'
export type { MemoryResponseStoreOptions, ResponseStore, StoredResponse } from './gateway/response-store.js'
export { createMemoryResponseStore } from './gateway/response-store.js'
export type { TranslateRequestOptions } from './http/translate-request.js'
export { translateRequest } from './http/translate-request.js'
export type { TranslateResponseOptions } from './http/translate-response.js'
export { translateResponse } from './http/translate-response.js'
export type * as ir from './ir/index.js'
export { maxJsonDepth } from './shared/depth.js'
export type { ConvertStreamOptions, StreamSnapshot } from './stream/index.js'
export {
  accumulate,
  accumulateEvents,
  convertEventStream,
  convertStream,
  createResponseEventStream,
  createSseDecodeStream,
  createSseEncodeStream,
  responseToEvents,
  SSE_HEADERS,
} from './stream/index.js'
