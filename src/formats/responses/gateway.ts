import type { FormatGateway } from '../format.js'
import { encodeStreamError } from './errors.js'
import { watchForwardedStream } from './forward-tail.js'
import { encodeModelList } from './models.js'
import { ownReasoningOnly } from './own-reasoning.js'
import { encodeTokenCount, matchRoute, upstreamTarget } from './routes.js'
import { decodeUsage } from './usage.js'

/** The gateway's part of the `responses` format (only `interlingua/gateway` imports it; the codec is `./index.ts`). */
export const responsesGateway: FormatGateway = {
  ownReasoningOnly,
  matchRoute,
  upstreamTarget,
  encodeStreamError,
  watchForwardedStream,
  encodeTokenCount,
  encodeModelList,
  usageField: { key: 'usage', decode: decodeUsage },
}
