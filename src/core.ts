/**
 * @module interlingua/core
 * The converters and streams of `interlingua` on codec objects instead of format ids, without the registry: a bundle
 * holds only the formats its code names (chat-completions ⇄ messages is about half of the main entry). Same
 * behaviour, same errors; the codec objects are the main entry's (`getFormat('messages') === messages`).
 *
 * @example
 * import { chatCompletions, convertRequest, messages } from 'interlingua/core'
 * const anthropicBody = convertRequest(openaiBody, { from: chatCompletions, to: messages })
 */
export type { ConvertOptions, ConvertRequestOptions } from './convert-core.js'
export { convertError, convertRequest, convertResponse } from './convert-core.js'
export type { ConvertStreamOptions } from './convert-stream-core.js'
export { convertEventStream, convertStream } from './convert-stream-core.js'
export type { InterlinguaErrorOptions, InterlinguaIssue } from './errors.js'
export { InterlinguaError } from './errors.js'
export { chatCompletions } from './formats/chat-completions/index.js'
export { contentGeneration } from './formats/content-generation/index.js'
export type {
  Converted,
  EncodeRequestOptions,
  EncodeStreamOptions,
  Format,
  FormatId,
  RouteMatch,
  SseFrame,
  SseMessage,
} from './formats/format.js'
export { messages } from './formats/messages/index.js'
export { responses } from './formats/responses/index.js'
export type * as ir from './ir/index.js'
export { maxJsonDepth } from './shared/depth.js'
export type { StreamSnapshot } from './stream/accumulate.js'
export { accumulate, accumulateEvents } from './stream/accumulate.js'
export { createResponseEventStream, responseToEvents } from './stream/from-response.js'
export { createSseDecodeStream } from './stream/sse-decode.js'
export { createSseEncodeStream, SSE_HEADERS } from './stream/sse-encode.js'
