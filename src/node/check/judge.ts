/**
 * What the checks share: the `Check` and its `Context`, the requests they send (`generate`), and the judgements —
 * status, the format's decoder, the IR stream grammar, the answer read by the official SDK or the library (`turn`),
 * tool calls, error shapes and usage. A judgement returns undefined when it holds, else what is wrong.
 */
import { getFormat } from '../../formats/index.js'
import { grammarViolations } from '../../stream/grammar.js'
import { body, type RequestKind } from './requests.js'
import type { Turn } from './turn.js'
import { type CheckFormat, type Exchange, generatePath, type SendOptions } from './wire.js'

export interface Context {
  format: CheckFormat
  model: string
  /** Whether the user gave a key (auth checks run only then). */
  keyed: boolean
  /** One exchange per distinct request, shared by the checks that judge it. */
  ask(options: SendOptions): Promise<Exchange>
  /** The answer to `request` as the official SDK reads it (the library's decoders without it), or why it cannot. */
  read(exchange: Exchange, request: SendOptions): Promise<Turn | string>
}

export interface Check {
  id: string
  feature: string
  verifies: string
  source: string
  formats: readonly CheckFormat[]
  run(ctx: Context): Promise<string | undefined>
}

export const all = ['chat-completions', 'responses', 'messages', 'content-generation'] as const
/** Formats whose answers carry reasoning (OpenAI's chat completions never return it). */
export const reasoningFormats = ['responses', 'messages', 'content-generation'] as const

export function request(ctx: Context, kind: RequestKind, stream: boolean): SendOptions {
  return { path: generatePath(ctx.format, ctx.model, stream), body: body(ctx.format, ctx.model, kind, stream), stream }
}

export const generate = (ctx: Context, kind: RequestKind, stream: boolean) => ctx.ask(request(ctx, kind, stream))

export function ok(exchange: Exchange): string | undefined {
  if (exchange.status !== 200) return `status ${exchange.status}: ${exchange.text.slice(0, 160)}`
  return undefined
}

/** The library's decoder of the format accepts the JSON answer, and its object/type marker is right. */
export function decodes(ctx: Context, exchange: Exchange): string | undefined {
  if (exchange.json === undefined) return 'the answer is not JSON'
  try {
    getFormat(ctx.format).decodeResponse(exchange.json)
  } catch (error) {
    return `not a valid ${ctx.format} answer: ${(error as Error).message}`
  }
  const json = exchange.json
  if (ctx.format === 'chat-completions' && json.object !== 'chat.completion')
    return `object is ${JSON.stringify(json.object)}, not "chat.completion"`
  if (ctx.format === 'messages' && json.type !== 'message') return `type is ${JSON.stringify(json.type)}`
  if (ctx.format === 'responses' && json.object !== 'response') return `object is not "response"`
  if (ctx.format === 'content-generation' && !Array.isArray(json.candidates)) return 'no candidates'
  return undefined
}

/** A streamed answer: 200, an event stream, decoded without error into the IR stream grammar. */
export function streamProblem(exchange: Exchange): string | undefined {
  const bad = ok(exchange)
  if (bad) return bad
  if (!exchange.events) return `not an event stream (content-type ${exchange.headers.get('content-type')})`
  if (exchange.streamError) return `the stream does not decode: ${exchange.streamError}`
  const problems = grammarViolations(exchange.events)
  return problems.length ? problems.join('; ') : undefined
}

/**
 * Asks `kind` and reads the answer: the wire judged first (status, decoder or stream grammar), then the answer as the
 * SDK (or the library) reads it. A string is what is wrong.
 */
export async function turn(ctx: Context, kind: RequestKind, stream: boolean): Promise<Turn | string> {
  const sent = request(ctx, kind, stream)
  const exchange = await ctx.ask(sent)
  const problem = stream ? streamProblem(exchange) : (ok(exchange) ?? decodes(ctx, exchange))
  return problem ?? ctx.read(exchange, sent)
}

/** `judge` applied to the answer, or what kept it from being read. */
export function judged(answer: Turn | string, judge: (turn: Turn) => string | undefined): string | undefined {
  return typeof answer === 'string' ? answer : judge(answer)
}

/** The answer was read and holds text. */
export const textProblem = (answer: Turn | string) =>
  judged(answer, (t) => (t.text.trim() === '' ? 'the answer has no text' : undefined))

/** The finish reason of a tool turn, per format (Gemini ends tool turns with STOP). */
export const toolFinish: Record<CheckFormat, string> = {
  'chat-completions': 'tool_calls',
  responses: 'completed',
  messages: 'tool_use',
  'content-generation': 'STOP',
}

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Every call is to get_weather, with arguments that are a JSON object, and the turn ends as a tool turn. */
export function callsProblem(format: CheckFormat, answer: Turn, atLeast = 1): string | undefined {
  if (answer.calls.length < atLeast)
    return `${answer.calls.length} call(s) to ${answer.calls.map((c) => c.name).join(', ') || 'nothing'}, expected at least ${atLeast}`
  for (const [i, call] of answer.calls.entries()) {
    if (call.name !== 'get_weather') return `call ${i} is to ${JSON.stringify(call.name)}, not get_weather`
    if (!isObject(call.args)) return `call ${i}: the arguments are not a JSON object: ${String(call.args).slice(0, 60)}`
  }
  if (answer.finish !== toolFinish[format])
    return `finish is ${JSON.stringify(answer.finish)}, not ${JSON.stringify(toolFinish[format])}`
  return undefined
}

/** The error body shape each format's SDK reads. */
export function errorShapeProblem(format: CheckFormat, exchange: Exchange, status: number[]): string | undefined {
  if (!status.includes(exchange.status)) return `status ${exchange.status}, expected ${status.join(' or ')}`
  const error = exchange.json?.error
  if (format === 'messages') {
    if (exchange.json?.type !== 'error' || typeof error?.type !== 'string' || typeof error?.message !== 'string')
      return `not {type:"error", error:{type, message}}: ${exchange.text.slice(0, 120)}`
  } else if (format === 'content-generation') {
    if (typeof error?.code !== 'number' || typeof error?.message !== 'string' || typeof error?.status !== 'string')
      return `not {error:{code, message, status}}: ${exchange.text.slice(0, 120)}`
  } else if (typeof error?.message !== 'string' || !('type' in error))
    return `not {error:{message, type}}: ${exchange.text.slice(0, 120)}`
  return undefined
}

export function usageProblem(format: CheckFormat, json: Exchange['json']): string | undefined {
  const usage = format === 'content-generation' ? json?.usageMetadata : json?.usage
  const input = {
    'chat-completions': usage?.prompt_tokens,
    responses: usage?.input_tokens,
    messages: usage?.input_tokens,
    'content-generation': usage?.promptTokenCount,
  }[format]
  return typeof input === 'number' ? undefined : 'no usage with input token counts'
}
