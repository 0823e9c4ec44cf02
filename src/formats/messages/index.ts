import type { Format } from '../format.js'
import { decodeRequest, validateRequest } from './decode-request.js'
import { decodeResponse } from './decode-response.js'
import { createDecodeStream, decodeStreamStep } from './decode-stream.js'
import { encodeRequest } from './encode-request.js'
import { encodeResponse } from './encode-response.js'
import { createEncodeStream, encodeStreamStep } from './encode-stream.js'
import { decodeError, encodeError } from './errors.js'
import { encodeModelList, encodeTokenCount } from './models.js'
import { matchRoute, upstreamTarget } from './routes.js'
import { decodeUsage } from './usage.js'

/** The `messages` wire format. */
export const messages: Format = {
  id: 'messages',
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
  encodeTokenCount,
  encodeModelList,
  usageField: { key: 'usage', decode: decodeUsage },
}
