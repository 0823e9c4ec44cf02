import type { Format } from '../format.js'
import { decodeRequest, validateRequest } from './decode-request.js'
import { decodeResponse } from './decode-response.js'
import { createDecodeStream, decodeStreamStep } from './decode-stream.js'
import { encodeRequest } from './encode-request.js'
import { encodeResponse } from './encode-response.js'
import { createEncodeStream, encodeStreamStep, forwardResponsesStep } from './encode-stream.js'
import { decodeError, encodeError } from './errors.js'

/** The OpenAI Responses API (`POST /v1/responses`) wire format: its codec (its gateway part is `./gateway.ts`). */
export const responses: Format = {
  id: 'responses',
  decodeRequest,
  validateRequest,
  encodeRequest,
  decodeResponse,
  encodeResponse,
  decodeStreamStep,
  encodeStreamStep,
  createDecodeStream,
  createEncodeStream,
  forwardStreamStep: forwardResponsesStep,
  decodeError,
  encodeError,
}
