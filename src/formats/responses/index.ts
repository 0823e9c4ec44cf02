import type { Format } from '../format.js'
import { decodeRequest, validateRequest } from './decode-request.js'
import { decodeResponse } from './decode-response.js'
import { createDecodeStream, decodeStreamStep } from './decode-stream.js'
import { encodeRequest } from './encode-request.js'
import { encodeResponse } from './encode-response.js'
import { createEncodeStream, encodeStreamStep } from './encode-stream.js'
import { decodeError, encodeError, encodeStreamError } from './errors.js'
import { watchForwardedStream } from './forward-tail.js'
import { encodeModelList } from './models.js'
import { encodeTokenCount, matchRoute, upstreamTarget } from './routes.js'
import { decodeUsage } from './usage.js'

/** The OpenAI Responses API (`POST /v1/responses`) wire format. */
export const responses: Format = {
  id: 'responses',
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
  encodeStreamError,
  watchForwardedStream,
  encodeTokenCount,
  encodeModelList,
  usageField: { key: 'usage', decode: decodeUsage },
}
