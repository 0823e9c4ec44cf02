/**
 * @module interlingua
 * Translate between OpenAI Chat Completions, OpenAI Responses, Anthropic Messages and Gemini generateContent:
 * requests, responses, errors and streams. The gateway (one Fetch handler serving all four) is `interlingua/gateway`.
 *
 * @example
 * import { convertRequest } from 'interlingua'
 * const anthropicBody = convertRequest(openaiBody, { from: 'chat-completions', to: 'messages' })
 */
export type { ConvertOptions, ConvertRequestOptions } from './convert.js'
export { convertError, convertRequest, convertResponse } from './convert.js'
export type { ConvertStreamOptions } from './convert-stream.js'
export { convertEventStream, convertStream } from './convert-stream.js'
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
  UsageField,
} from './formats/format.js'
export { chatCompletions, contentGeneration, formats, getFormat, messages, responses } from './formats/index.js'
export type * as ir from './ir/index.js'
export { maxJsonDepth } from './shared/depth.js'
export type { StreamSnapshot } from './stream/index.js'
export {
  accumulate,
  accumulateEvents,
  createResponseEventStream,
  createSseDecodeStream,
  createSseEncodeStream,
  responseToEvents,
  SSE_HEADERS,
} from './stream/index.js'
