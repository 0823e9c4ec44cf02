import type { Format } from '../format.js'
import { decodeRequest, validateRequest } from './decode-request.js'
import { decodeResponse } from './decode-response.js'
import { createDecodeStream, decodeStreamStep } from './decode-stream.js'
import { encodeRequest } from './encode-request.js'
import { encodeResponse } from './encode-response.js'
import { createEncodeStream, encodeStreamStep } from './encode-stream.js'
import { decodeError, encodeError } from './errors.js'
import { encodeModelList } from './models.js'
import { matchRoute, upstreamTarget } from './routes.js'
import { decodeUsage } from './usage.js'

/** The `chat-completions` wire format. */
export const chatCompletions: Format = {
  id: 'chat-completions',
  matchRoute,
  upstreamTarget,
  decodeRequest,
  validateRequest,
  encodeRequest,
  decodeResponse,
  encodeResponse,
  decodeStreamStep,
  encodeStreamStep,
  createDecodeStream,
  createEncodeStream,
  decodeError,
  encodeError,
  encodeModelList,
  usageField: { key: 'usage', decode: decodeUsage },
}
