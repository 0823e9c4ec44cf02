/**
 * The requests `interlingua check` sends, per format (the path, the key as that format's SDK sends it, the bodies),
 * and the exchange it records: status, headers, raw text, parsed JSON, and for a stream its SSE messages and IR events.
 */
import { getFormat } from '../../formats/index.js'
import type * as ir from '../../ir/index.js'
import type { SseMessage } from '../../stream/contract.js'
import { createSseDecodeStep } from '../../stream/sse-decode.js'

export type CheckFormat = 'chat-completions' | 'responses' | 'messages' | 'content-generation'
export const checkFormats: CheckFormat[] = ['chat-completions', 'responses', 'messages', 'content-generation']

export const defaultModels: Record<CheckFormat, string> = {
  'chat-completions': 'gpt-4o-mini',
  responses: 'gpt-4o-mini',
  messages: 'claude-sonnet-4-5',
  'content-generation': 'gemini-2.5-flash',
}

export interface Target {
  origin: string
  key?: string
  models: Record<CheckFormat, string>
  timeoutMs: number
  /** Sent with every request, after the format's own (`--header`: a gateway's routing headers). */
  headers?: Record<string, string>
}

export interface Exchange {
  status: number
  headers: Headers
  text: string
  // biome-ignore lint/suspicious/noExplicitAny: a wire body is navigated freely by the checks
  json?: any
  sse?: SseMessage[]
  events?: ir.StreamEvent[]
  /** Why the stream's messages did not decode (the decoder's error event). */
  streamError?: string
}

/** The path of a generate request (content-generation: model and stream in the path). */
export function generatePath(format: CheckFormat, model: string, stream: boolean): string {
  if (format === 'chat-completions') return '/v1/chat/completions'
  if (format === 'responses') return '/v1/responses'
  if (format === 'messages') return '/v1/messages'
  return `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`
}

/** The headers of `format`'s official SDK, with `key` where it puts it (none: no key header at all). */
export function headersFor(format: CheckFormat, key: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (format === 'messages') headers['anthropic-version'] = '2023-06-01'
  if (key === undefined) return headers
  if (format === 'messages') headers['x-api-key'] = key
  else if (format === 'content-generation') headers['x-goog-api-key'] = key
  else headers.authorization = `Bearer ${key}`
  return headers
}

export interface SendOptions {
  method?: string
  path: string
  body?: unknown
  /** Override the target's key (null: send none). */
  key?: string | null
  /** Send the key as Gemini's `?key=` query parameter rather than in its header. */
  keyInQuery?: boolean
  /** Decode the answer as this format's stream. */
  stream?: boolean
}

export async function send(target: Target, format: CheckFormat, options: SendOptions): Promise<Exchange> {
  const key = options.key === null ? undefined : (options.key ?? target.key)
  const query = options.keyInQuery && key !== undefined
  const url = query
    ? `${options.path}${options.path.includes('?') ? '&' : '?'}key=${encodeURIComponent(key)}`
    : options.path
  const response = await fetch(target.origin + url, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: { ...headersFor(format, query ? undefined : key), ...target.headers },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    signal: AbortSignal.timeout(target.timeoutMs),
  })
  const text = await response.text()
  const exchange: Exchange = { status: response.status, headers: response.headers, text }
  const streamed = options.stream && response.ok && /event-stream/.test(response.headers.get('content-type') ?? '')
  if (!streamed) {
    try {
      exchange.json = JSON.parse(text)
    } catch {}
    return exchange
  }
  const sse: SseMessage[] = []
  const parser = createSseDecodeStep()
  parser.push(text, sse)
  parser.end(sse)
  exchange.sse = sse
  const events: ir.StreamEvent[] = []
  const decode = getFormat(format).createDecodeStream()
  const writer = decode.writable.getWriter()
  const reading = (async () => {
    const reader = decode.readable.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      events.push(value)
    }
  })()
  for (const message of sse) await writer.write(message)
  await writer.close()
  await reading
  exchange.events = events
  const error = events.find((event) => event.type === 'error')
  if (error && error.type === 'error') exchange.streamError = error.error.message
  return exchange
}
