/**
 * The gateway's registry: every format's codec (`./index.ts`) joined with its gateway part (`<id>/gateway.ts`). Only
 * `interlingua/gateway` (and `interlingua/node`) import it, so the main entry ships no routes, upstream targets or
 * model listings. A format missing here does not compile (`Record<FormatId, …>`).
 */
import { chatCompletionsGateway } from './chat-completions/gateway.js'
import { contentGenerationGateway } from './content-generation/gateway.js'
import type { Format, FormatGateway, FormatId, GatewayFormat } from './format.js'
import { formats } from './index.js'
import { messagesGateway } from './messages/gateway.js'
import { responsesGateway } from './responses/gateway.js'

const parts: Record<FormatId, FormatGateway> = {
  'chat-completions': chatCompletionsGateway,
  messages: messagesGateway,
  'content-generation': contentGenerationGateway,
  responses: responsesGateway,
}

/**
 * Every format as the gateway serves it, in routing order (the registry's, `formats`). Each is its gateway part on top
 * of the codec object itself (its prototype), not a copy: the codec the gateway calls is the one `interlingua` exports.
 */
export const gatewayFormats: readonly GatewayFormat[] = formats.map(
  (format): GatewayFormat => Object.assign(Object.create(format) as Format, parts[format.id]),
)

const byId = Object.fromEntries(gatewayFormats.map((format) => [format.id, format])) as Record<FormatId, GatewayFormat>

/** The gateway's view of a format; throws on an unknown id (as `getFormat` does). */
export function getGatewayFormat(id: FormatId): GatewayFormat {
  const format = byId[id]
  if (!format) throw new TypeError(`Unknown format "${String(id)}"; expected one of ${Object.keys(byId).join(', ')}`)
  return format
}
