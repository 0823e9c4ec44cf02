/**
 * Upstream stand-ins that are strict the way the real services are (wire-formats.md §5.5), one server for every
 * format (the path says which), used by `createStrictUpstream` (./index.ts) and the project's own tests:
 * - every request is checked by the library's own decoder of its format (a field of the wrong type, an unknown
 *   content block: a native 400 naming the path), and, when a key is set, authenticated the way the service does;
 * - messages: with thinking on, an assistant turn that holds a tool_use must start with a thinking (or
 *   redacted_thinking) block, and every thinking block's signature must be one this upstream issued for exactly that
 *   thinking text (an altered, foreign or empty signature is a 400) — thinking on or off;
 * - content-generation: the first functionCall of every model turn must carry a thoughtSignature this upstream issued
 *   (or Gemini's documented stand-in `skip_thought_signature_validator`); any other signature is a 400, and one that
 *   is not base64 (the gateway's `il1.` envelope) fails as a bytes field does;
 * - responses: reasoning, stored items and tool-result pairing as OpenAI checks them (./strict-responses.ts);
 * - tools and tool results as each service checks them (./strict-rules.ts).
 * Answers come from a script (turns in order, the last repeating) or, without one, turn 1 (no tool result yet)
 * answers reasoning + a call to the first tool (or what `callTool` / `toolCall` pick) and later turns text. They are
 * written with the library's own encoders (JSON, or SSE when asked), so their wire shape is the format's own.
 */
import { randomBytes } from 'node:crypto'
import { InterlinguaError } from '../../errors.js'
import { getGatewayFormat as getFormat } from '../../formats/gateway.js'
import type * as ir from '../../ir/index.js'
import { errorCodeForStatus } from '../../ir/index.js'
import { responseToEvents } from '../../stream/from-response.js'
import { encodeEventsWith } from '../../stream/pipeline.js'
import { type Fault, faultyAnswer } from './faults.js'
import type { Json, StrictFormat } from './json.js'
import { anthropicSearch } from './search.js'
import { type RunningServer, serveStandIn } from './server.js'
import { authProblem } from './strict-auth.js'
import { createResponsesLedger } from './strict-responses.js'
import {
  checkRequired,
  checkResults,
  checkTools,
  firstTool,
  functionNames,
  hasToolResult,
  type ToolCallScript,
} from './strict-rules.js'

/** One scripted answer. */
export interface ScriptTurn {
  text?: string
  /** Reasoning text; answered with a signature of this upstream's format (messages, Gemini, Responses, Converse). */
  reasoning?: string
  /** Bedrock Converse only: a redacted reasoning block (`redactedContent`) before everything else. */
  redactedReasoning?: boolean
  /** Calls in one turn (several: parallel calls). `arguments` as a JSON string or an object. */
  toolCalls?: { name: string; arguments?: string | Record<string, unknown>; custom?: boolean }[]
  usage?: { inputTokens: number; outputTokens: number }
  /** Answer this error instead, in the format's own shape (`retryAfter` seconds: a `retry-after` header). */
  error?: { status: number; message?: string; retryAfter?: number }
  /**
   * What goes wrong with the answer (./faults.ts): `break` (cut mid-way), `stall` (stops sending), `drop` (no answer),
   * and `hang`, `reset-mid-event`, `reset-between-events`, `stall-after-headers`, `trickle`, `malformed-json`,
   * `malformed-sse`, `wrong-content-type`, `error-200`, `html-error`, `huge-body`.
   */
  fault?: Fault
}

export interface StandInOptions {
  /** Answers in order; the last repeats. Without one: a tool call on turn 1, text after a tool result. */
  script?: ScriptTurn[]
  /** The key every request must carry the way the format's SDK sends it; unset: any (or no) key. */
  apiKey?: string
  /** Check every request with the library's decoder of its format too. @defaultValue false */
  validate?: boolean
  port?: number
  /** Answer only this format's requests (others: a 404). */
  only?: StrictFormat
  /** Which of the request's function names the default turn 1 calls. @defaultValue the first */
  callTool?: (names: string[]) => string | undefined
  /** The whole call the default turn 1 answers (name and arguments); takes precedence over `callTool`. */
  toolCall?: ToolCallScript
}

/** One request as received. */
export interface ReceivedRequest {
  method: string
  path: string
  headers: Record<string, string>
  body: Json
}

export interface StandIn extends RunningServer {
  /** Requests this upstream refused, with the reason. */
  rejections: string[]
  /** Bodies it received. */
  received: Json[]
  /** Every request it received (method, path, headers, body). */
  requests: ReceivedRequest[]
  /** The answers it sent whole (a fault that cuts or stalls one sends none whole), by format and stream flag. */
  answers: { format: StrictFormat; stream: boolean; status: number; text: string }[]
  /**
   * Takes the signatures (and stored items) in a request body of `format` as issued by this upstream: a history
   * recorded against the real service carries that service's, which a replay to the same format must find valid.
   */
  adopt(format: StrictFormat, body: Json): void
}

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
function randomBase62(length: number): string {
  let out = ''
  for (const byte of randomBytes(length)) out += base62[byte % 62]
  return out
}

/** An answer's id shaped as the service shapes it: `chatcmpl-…`, `resp_…` (hex), `msg_01…`, Gemini's `responseId`. */
export function answerId(format: StrictFormat): string {
  if (format === 'chat-completions') return `chatcmpl-${randomBase62(29)}`
  if (format === 'responses') return `resp_${randomBytes(24).toString('hex')}`
  if (format === 'messages') return `msg_01${randomBase62(22)}`
  return randomBytes(17).toString('base64url')
}

/** A tool call's id as the service shapes it: `toolu_01…` (Anthropic), `call_…` (OpenAI; Gemini sends none). */
function callId(format: StrictFormat): string {
  return format === 'messages' ? `toolu_01${randomBase62(22)}` : `call_${randomBase62(24)}`
}

/** Text in about four deltas, at word boundaries, as a model streams it. */
function pieces(text: string): string[] {
  const size = Math.max(8, Math.ceil(text.length / 4))
  const out: string[] = []
  for (let start = 0; start < text.length; ) {
    const space = text.indexOf(' ', start + size)
    const end = space < 0 ? text.length : space + 1
    out.push(text.slice(start, end))
    start = end
  }
  return out.length ? out : [text]
}

/** An answer's stream events, its text in several deltas. */
function streamedEvents(response: ir.Response): ReadableStream<ir.StreamEvent> {
  const events = responseToEvents(response).flatMap((event): ir.StreamEvent[] =>
    event.type === 'text-delta' ? pieces(event.text).map((text) => ({ ...event, text })) : [event],
  )
  return new ReadableStream<ir.StreamEvent>({
    start(controller) {
      for (const event of events) controller.enqueue(event)
      controller.close()
    },
  })
}

function formatOf(url: URL): StrictFormat {
  if (url.pathname.endsWith('/chat/completions')) return 'chat-completions'
  if (url.pathname.endsWith('/messages')) return 'messages'
  if (url.pathname.endsWith('/responses')) return 'responses'
  return 'content-generation'
}

/** A native 400 of `format` with `message`. */
export function reject(format: StrictFormat, message: string, status = 400): Response {
  const body =
    format === 'messages'
      ? { type: 'error', error: { type: 'invalid_request_error', message } }
      : format === 'content-generation'
        ? { error: { code: status, message, status: 'INVALID_ARGUMENT' } }
        : {
            error: {
              message,
              type: 'invalid_request_error',
              param: format === 'responses' ? 'input' : null,
              code: null,
            },
          }
  return Response.json(body, { status })
}

function errorAnswer(format: StrictFormat, error: NonNullable<ScriptTurn['error']>): Response {
  const info: ir.ErrorInfo = {
    code: errorCodeForStatus(error.status),
    status: error.status,
    message: error.message ?? `Scripted error ${error.status}`,
  }
  if (error.retryAfter !== undefined) info.retryAfter = error.retryAfter
  const encoded = getFormat(format).encodeError(info)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (error.retryAfter !== undefined) headers['retry-after'] = String(error.retryAfter)
  return new Response(JSON.stringify(encoded.body), { status: error.status, headers })
}

function decodeProblem(format: StrictFormat, request: Request, url: URL, body: Json): string | undefined {
  const codec = getFormat(format)
  const route = codec.matchRoute({ method: request.method, url, headers: request.headers })
  try {
    codec.decodeRequest(body, route ?? {})
  } catch (error) {
    if (InterlinguaError.isInstance(error)) return error.message
    throw error
  }
  return undefined
}

export async function startStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const anthropicSignatures = new Map<string, string>()
  const geminiSignatures = new Set<string>()
  const responses = createResponsesLedger()
  const rejections: string[] = []
  const received: Json[] = []
  const requests: ReceivedRequest[] = []
  const answers: StandIn['answers'] = []
  let turn = 0

  function checkMessages(body: Json): string | undefined {
    const thinkingOn = body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive'
    for (const [i, message] of (body.messages as Json[]).entries()) {
      if (message.role !== 'assistant' || typeof message.content === 'string') continue
      for (const [j, block] of (message.content as Json[]).entries()) {
        if (block.type === 'thinking' && anthropicSignatures.get(block.signature) !== block.thinking)
          return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`
        if (block.type === 'redacted_thinking')
          return `messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`
      }
      const first = (message.content as Json[])[0]
      const usesTool = (message.content as Json[]).some((block) => block.type === 'tool_use')
      if (thinkingOn && usesTool && first?.type !== 'thinking')
        return `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block`
    }
    return undefined
  }

  function checkGemini(body: Json): string | undefined {
    for (const [i, content] of (body.contents as Json[]).entries()) {
      if (content.role !== 'model') continue
      const parts = content.parts as Json[]
      for (const [j, part] of parts.entries()) {
        const signature = part.thoughtSignature
        // A bytes field: what is not base64 (an `il1.` envelope) fails before any signature check, as on Gemini.
        if (typeof signature === 'string' && !/^[A-Za-z0-9+/_-]*={0,2}$/.test(signature))
          return `Invalid value at 'contents[${i}].parts[${j}].thought_signature' (TYPE_BYTES), Base64 decoding failed for "${signature.slice(0, 20)}"`
        if (
          signature !== undefined &&
          signature !== 'skip_thought_signature_validator' &&
          !geminiSignatures.has(signature)
        )
          return `Corrupted thought signature in contents[${i}]`
      }
      const firstCall = parts.find((part) => part.functionCall)
      if (firstCall && firstCall.thoughtSignature === undefined)
        return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly (contents[${i}])`
    }
    return undefined
  }

  function adopt(format: StrictFormat, body: Json): void {
    if (format === 'messages') {
      for (const message of (body.messages ?? []) as Json[])
        for (const block of Array.isArray(message.content) ? message.content : [])
          if (block.type === 'thinking') anthropicSignatures.set(block.signature, block.thinking)
    } else if (format === 'content-generation') {
      for (const content of (body.contents ?? []) as Json[])
        for (const part of content.parts ?? []) if (part.thoughtSignature) geminiSignatures.add(part.thoughtSignature)
    } else if (format === 'responses') responses.adopt(body)
  }

  /** The turn answered without a script: a call on turn 1 (`toolCall`, else `callTool`'s pick), text after. */
  function defaultTurn(format: StrictFormat, body: Json): ScriptTurn {
    const names = functionNames(format, body)
    const picked = options.callTool?.(names)
    const call = hasToolResult(body)
      ? undefined
      : options.toolCall
        ? options.toolCall(names)
        : picked === undefined
          ? firstTool(names)
          : { name: picked, arguments: '{"city":"Paris"}' }
    const usage = { inputTokens: 20, outputTokens: 10 }
    if (!call) return { text: `Done after ${turn} turns.`, usage }
    return { reasoning: `I should call ${call.name} (turn ${turn}).`, toolCalls: [call], usage }
  }

  function answer(format: StrictFormat, body: Json, model: string, script: ScriptTurn): ir.Response {
    const content: ir.AssistantPart[] = []
    const calls: ir.ToolCallPart[] = (script.toolCalls ?? []).map((call) => {
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {})
      const part: ir.ToolCallPart = {
        type: 'tool-call',
        id: callId(format),
        name: call.name,
        arguments: call.custom ? JSON.stringify({ input: args }) : args,
      }
      if (call.custom && format === 'responses') part.providerData = { responses: { custom: true } }
      return part
    })
    if (script.reasoning !== undefined) {
      const thinking = script.reasoning
      if (format === 'messages') {
        const signature = `EqQB${randomBytes(48).toString('base64')}`
        anthropicSignatures.set(signature, thinking)
        content.push({ type: 'reasoning', text: thinking, providerData: { messages: { signature } } })
      } else if (format === 'responses') content.push(responses.reasoning(thinking))
      else {
        content.push({ type: 'reasoning', text: thinking })
        const first = calls[0]
        if (format === 'content-generation' && first) {
          const signature = `CiQB${randomBytes(48).toString('base64')}`
          geminiSignatures.add(signature)
          first.providerData = { 'content-generation': { thoughtSignature: signature } }
        }
      }
    }
    if (script.text !== undefined) {
      const searched = format === 'messages' && (body.tools ?? []).some((t: Json) => /^web_search_/.test(t.type))
      content.push(...(searched ? anthropicSearch(script.text) : [{ type: 'text' as const, text: script.text }]))
    }
    content.push(...calls)
    return {
      id: answerId(format),
      model,
      content,
      finishReason: { unified: calls.length > 0 ? 'tool-calls' : 'stop' },
      usage: script.usage ?? { inputTokens: 20, outputTokens: 10 },
    }
  }

  const running = await serveStandIn(async (request) => {
    const url = new URL(request.url)
    const format = formatOf(url)
    if (options.only !== undefined && format !== options.only)
      return reject(options.only, `No route for ${url.pathname}`, 404)
    const text = await request.text()
    let body: Json
    try {
      body = JSON.parse(text)
    } catch {
      return reject(format, 'We could not parse the JSON body of your request.')
    }
    received.push(body)
    const headers: Record<string, string> = {}
    request.headers.forEach((value, name) => {
      headers[name] = value
    })
    requests.push({ method: request.method, path: url.pathname + url.search, headers, body })
    const denied = options.apiKey === undefined ? undefined : authProblem(format, request, url, options.apiKey)
    if (denied) return denied
    const problem =
      (options.validate ? (checkRequired(format, body) ?? decodeProblem(format, request, url, body)) : undefined) ??
      checkTools(format, body) ??
      checkResults(format, body) ??
      (format === 'messages'
        ? checkMessages(body)
        : format === 'content-generation'
          ? checkGemini(body)
          : format === 'responses'
            ? responses.check(body)
            : undefined)
    if (problem) {
      rejections.push(problem)
      return reject(format, problem)
    }
    turn++
    const script = options.script?.length
      ? (options.script[Math.min(turn, options.script.length) - 1] as ScriptTurn)
      : defaultTurn(format, body)
    if (script.error) return errorAnswer(format, script.error)
    const model = body.model ?? url.pathname.split('/models/')[1]?.split(':')[0] ?? 'm'
    const response = answer(format, body, model, script)
    const target = getFormat(format)
    const stream = body.stream === true || url.pathname.includes(':streamGenerateContent')
    const encoded = stream
      ? await new Response(encodeEventsWith(streamedEvents(response), target, { includeUsage: true })).text()
      : JSON.stringify(target.encodeResponse(response).value)
    if (format === 'responses') responses.store(body, encoded)
    const errorBody = JSON.stringify(target.encodeError({ code: 'invalid-request', status: 400, message: 'Bad' }).body)
    const type = stream ? 'text/event-stream' : 'application/json'
    const { answer: delivered, sent } = faultyAnswer(encoded, type, script.fault, errorBody)
    if (sent) answers.push({ format, stream, ...sent })
    return delivered
  }, options.port)
  return { ...running, rejections, received, requests, answers, adopt }
}
