import type { FormatGateway } from '../format.js'
import { encodeModelList, encodeTokenCount } from './models.js'
import { ownReasoningOnly } from './own-reasoning.js'
import { matchRoute, upstreamTarget } from './routes.js'
import { decodeUsage } from './usage.js'

/** The gateway's part of the `messages` format (only `interlingua/gateway` imports it; the codec is `./index.ts`). */
export const messagesGateway: FormatGateway = {
  ownReasoningOnly,
  matchRoute,
  upstreamTarget,
  encodeTokenCount,
  encodeModelList,
  usageField: { key: 'usage', decode: decodeUsage },
}
