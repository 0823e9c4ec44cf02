import { chatCompletions } from './chat-completions/index.js'
import { contentGeneration } from './content-generation/index.js'
import type { Format, FormatId } from './format.js'
import { messages } from './messages/index.js'
import { responses } from './responses/index.js'

/** Every format, in routing order (messages before chat-completions: `GET /v1/models` with `anthropic-version` is theirs). */
export const formats = [messages, contentGeneration, responses, chatCompletions] as const satisfies readonly Format[]

const byId: Record<FormatId, Format> = {
  'chat-completions': chatCompletions,
  messages,
  'content-generation': contentGeneration,
  responses,
}

/** The codec for a format id; throws on an unknown id. */
export function getFormat(id: FormatId): Format {
  const format = byId[id]
  if (!format) throw new TypeError(`Unknown format "${String(id)}"; expected one of ${Object.keys(byId).join(', ')}`)
  return format
}

export { chatCompletions, contentGeneration, messages, responses }
