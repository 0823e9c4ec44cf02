import type { FormatGateway, GatewayFormat } from '../format.js'
import { converse } from './index.js'
import { matchRoute, upstreamTarget } from './routes.js'
import { decodeUsage } from './usage.js'

/** The gateway's part of the `converse` format: an upstream target only (no client routes, no listings). */
export const converseGateway: FormatGateway = {
  matchRoute,
  upstreamTarget,
  encodeModelList: (models) => ({ modelSummaries: models.map((model) => ({ modelId: model.id })) }),
  usageField: { key: 'usage', decode: decodeUsage },
}

/** The codec and its gateway part, as the gateway serves an upstream of this format (see `formats/gateway.ts`). */
export const converseGatewayFormat: GatewayFormat<'converse'> = Object.assign(
  Object.create(converse) as typeof converse,
  converseGateway,
)
