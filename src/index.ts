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
export { chatCompletions, contentGeneration, formats, getFormat, messages } from './formats/index.js'
export type * as ir from './ir/index.js'
