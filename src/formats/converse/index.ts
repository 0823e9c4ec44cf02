import type { Format } from '../format.js'
import { decodeRequest } from './decode-request.js'
import { decodeResponse } from './decode-response.js'
import { createDecodeStream, decodeStreamStep } from './decode-stream.js'
import { encodeRequest } from './encode-request.js'
import { encodeResponse } from './encode-response.js'
import { createEncodeStream, encodeStreamStep } from './encode-stream.js'
import { decodeError, encodeError } from './errors.js'

/**
 * Amazon Bedrock's Converse API: an upstream-only format (no client speaks it), so it is in neither registry; the
 * gateway loads it when an upstream has `format: 'converse'` (its gateway part is `./gateway.ts`).
 */
export const converse: Format<'converse'> = {
  id: 'converse',
  decodeRequest,
  encodeRequest,
  decodeResponse,
  encodeResponse,
  decodeStreamStep,
  encodeStreamStep,
  createDecodeStream,
  createEncodeStream,
  decodeError,
  encodeError,
}
