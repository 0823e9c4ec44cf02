/**
 * `interlingua/testing`: strict stand-ins for the providers, for an app's unit tests (Vitest, Jest, node:test).
 *
 * @example
 * const upstream = await createStrictUpstream({ format: 'messages', script: [{ text: 'Hi!' }] })
 * const anthropic = new Anthropic({ baseURL: upstream.baseURL, apiKey: upstream.apiKey })
 * // … upstream.requests holds what was sent; a request the real service would refuse got its native 400
 * await upstream.close()
 */
import { randomBytes } from 'node:crypto'
import type { StrictFormat } from './json.js'
import { type ReceivedRequest, type ScriptTurn, type StandIn, startStandIn } from './strict-upstream.js'

export type { StrictFormat } from './json.js'
export type { ReceivedRequest, ScriptTurn } from './strict-upstream.js'

export interface StrictUpstreamOptions {
  /** The wire format it speaks: `chat-completions`, `responses`, `messages` or `content-generation`. */
  format: StrictFormat
  /**
   * The answers, in order (the last repeats). Without a script: reasoning and a call to the request's first tool
   * when it has tools and no tool result yet, else text.
   */
  script?: ScriptTurn[]
  /** Port on 127.0.0.1. @defaultValue 0 (any free port) */
  port?: number
  /** The key requests must carry. @defaultValue a random one (`apiKey` of the result) */
  apiKey?: string
}

export interface StrictUpstream {
  /** What the format's official SDK takes as `baseURL`: `http://127.0.0.1:port/v1` for OpenAI, the origin otherwise. */
  baseURL: string
  apiKey: string
  /** Every request received, in order (method, path, headers, parsed body). */
  requests: ReceivedRequest[]
  /** Why each refused request was refused (the message of its 400). */
  rejections: string[]
  close(): Promise<void>
}

/**
 * Starts an HTTP server on 127.0.0.1 that speaks `format` strictly, like the real service: every request is checked
 * (its fields by the library's own decoder, tools, tool results paired with calls, reasoning signatures — only those
 * it issued, unchanged — and the key, sent the way that service's SDK sends it), a violation gets the service's
 * native error, and valid requests are answered from `script` (JSON or SSE, as asked).
 */
export async function createStrictUpstream(options: StrictUpstreamOptions): Promise<StrictUpstream> {
  const apiKey = options.apiKey ?? `sk-strict-${randomBytes(12).toString('hex')}`
  const standIn: StandIn = await startStandIn({
    only: options.format,
    apiKey,
    validate: true,
    ...(options.script ? { script: options.script } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
  })
  const openai = options.format === 'chat-completions' || options.format === 'responses'
  return {
    baseURL: openai ? `${standIn.url}/v1` : standIn.url,
    apiKey,
    requests: standIn.requests,
    rejections: standIn.rejections,
    close: standIn.close,
  }
}
