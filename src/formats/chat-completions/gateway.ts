import type { FormatGateway } from '../format.js'
import { encodeModelList } from './models.js'
import { matchRoute, upstreamTarget } from './routes.js'
import { decodeUsage } from './usage.js'

/** The gateway's part of the `chat-completions` format (only `interlingua/gateway` imports it; the codec is `./index.ts`). */
export const chatCompletionsGateway: FormatGateway = {
  matchRoute,
  upstreamTarget,
  encodeModelList,
  usageField: { key: 'usage', decode: decodeUsage },
}
