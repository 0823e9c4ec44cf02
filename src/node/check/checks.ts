/**
 * The conformance checks of `interlingua check`: each names what it verifies and where the rule comes from. A check
 * returns undefined when it passes, else what is wrong. Answers are judged with the library's own strict decoders
 * (`decodeResponse`, the stream decoders and the IR stream grammar), the raw wire rules the official SDKs rely on, and
 * the official SDK's own parser when it is installed (./sdk.ts). The features beyond a plain answer: ./checks-features.ts.
 */

import { featureChecks } from './checks-features.js'
import {
  all,
  type Check,
  callsProblem,
  decodes,
  errorShapeProblem,
  generate,
  judged,
  ok,
  request,
  streamProblem,
  textProblem,
  turn,
  usageProblem,
} from './judge.js'
import { body } from './requests.js'
import { type CheckFormat, type Exchange, generatePath } from './wire.js'

// biome-ignore lint/suspicious/noExplicitAny: wire bodies navigated freely
type Json = any

/** The raw arguments of every call in a JSON answer, as sent on the wire. */
function rawArguments(format: CheckFormat, json: Exchange['json']): unknown[] {
  if (format === 'chat-completions')
    return (json.choices?.[0]?.message?.tool_calls ?? []).map((call: { function?: { arguments?: unknown } }) => {
      return call.function?.arguments
    })
  if (format === 'responses')
    return (json.output ?? [])
      .filter((i: { type?: string }) => i.type === 'function_call')
      .map((i: Json) => i.arguments)
  if (format === 'messages')
    return (json.content ?? []).filter((b: { type?: string }) => b.type === 'tool_use').map((b: Json) => b.input)
  return (json.candidates?.[0]?.content?.parts ?? [])
    .filter((p: Json) => p.functionCall)
    .map((p: Json) => p.functionCall.args)
}

/** Arguments typed as the format types them: a JSON string (OpenAI), an object (Anthropic `input`, Gemini `args`). */
export function argumentsTypeProblem(format: CheckFormat, json: Exchange['json']): string | undefined {
  const strings = format === 'chat-completions' || format === 'responses'
  for (const [i, args] of rawArguments(format, json).entries()) {
    if (strings && typeof args !== 'string') return `call ${i}: arguments is ${typeof args}, not a JSON string`
    if (!strings && (typeof args !== 'object' || args === null || Array.isArray(args)))
      return `call ${i}: ${format === 'messages' ? 'input' : 'args'} is not an object`
  }
  return undefined
}

/** A stream's wire ending, per format. */
function streamEndProblem(format: CheckFormat, exchange: Exchange): string | undefined {
  const sse = exchange.sse ?? []
  // A [DONE] after response.completed is tolerated (the OpenAI SDK skips it); chat-completions requires it.
  const trimmed = format === 'responses' && sse[sse.length - 1]?.data === '[DONE]' ? sse.slice(0, -1) : sse
  const last = trimmed[trimmed.length - 1]
  if (format === 'chat-completions') return last?.data === '[DONE]' ? undefined : 'the stream does not end with [DONE]'
  if (format === 'messages')
    return last?.event === 'message_stop' ? undefined : `the last event is ${last?.event}, not message_stop`
  if (format === 'responses') {
    const type = (() => {
      try {
        return JSON.parse(last?.data ?? 'null')?.type
      } catch {
        return undefined
      }
    })()
    return type === 'response.completed' ? undefined : `the last event is ${type}, not response.completed`
  }
  try {
    const chunk = JSON.parse(last?.data ?? 'null')
    return chunk?.candidates?.[0]?.finishReason ? undefined : 'the last chunk carries no finishReason'
  } catch {
    return 'the last chunk is not JSON'
  }
}

/** A body whose only defect is its shape: the run's model, so a gateway that routes by model reaches its validation. */
const invalidBody = (format: CheckFormat, model: string): unknown =>
  ({
    'chat-completions': { model, messages: 'not a list' },
    responses: { model, input: 42 },
    messages: { model, max_tokens: 10, messages: [{ role: 'user', content: 42 }] },
    'content-generation': { contents: [{ role: 'user', parts: 'not a list' }] },
  })[format]

const basicChecks: Check[] = [
  {
    id: 'json-answer',
    feature: 'JSON answer',
    verifies:
      'a plain request is answered 200 with a body the format’s decoder accepts (object/type markers) and the SDK reads as text',
    source: 'API reference of each service; the official SDK’s response types',
    formats: all,
    run: async (ctx) => textProblem(await turn(ctx, 'text', false)),
  },
  {
    id: 'usage-json',
    feature: 'usage',
    verifies: 'the JSON answer reports input and output token counts in the format’s own usage object',
    source: 'API reference (usage / usageMetadata)',
    formats: all,
    run: async (ctx) => {
      const exchange = await generate(ctx, 'text', false)
      return ok(exchange) ?? usageProblem(ctx.format, exchange.json)
    },
  },
  {
    id: 'stream-grammar',
    feature: 'stream grammar and end',
    verifies:
      'a streamed answer is SSE that decodes into start → blocks → finish, nothing after the finish, and the SDK’s stream accumulator reads it as text',
    source: 'streaming guides of each service; the SDKs’ stream accumulators',
    formats: all,
    run: async (ctx) => textProblem(await turn(ctx, 'text', true)),
  },
  {
    id: 'stream-end',
    feature: 'stream grammar and end',
    verifies: 'the stream ends the way the SDK expects: [DONE], message_stop, response.completed, a finishReason',
    source: 'OpenAI streaming docs ([DONE]); Anthropic event flow; Responses events; Gemini streamGenerateContent',
    formats: all,
    run: async (ctx) => {
      const exchange = await generate(ctx, 'text', true)
      return streamProblem(exchange) ?? streamEndProblem(ctx.format, exchange)
    },
  },
  {
    id: 'stream-data-only',
    feature: 'stream grammar and end',
    verifies: 'Gemini’s SSE carries only data: lines (no comments, no event names), as Google’s SDK parses it',
    source: 'Gemini streamGenerateContent?alt=sse; @google/genai’s line parser',
    formats: ['content-generation'],
    run: async (ctx) => {
      const exchange = await generate(ctx, 'text', true)
      const bad = exchange.text.split(/\r?\n/).find((line) => line !== '' && !line.startsWith('data:'))
      return (
        ok(exchange) ?? (bad === undefined ? undefined : `a line that is not data: ${JSON.stringify(bad.slice(0, 60))}`)
      )
    },
  },
  {
    id: 'usage-stream',
    feature: 'usage',
    verifies: 'a streamed answer reports usage (chat-completions when stream_options.include_usage is set)',
    source: 'OpenAI stream_options.include_usage; Anthropic message_delta usage; Gemini usageMetadata',
    formats: all,
    run: async (ctx) => {
      const exchange = await generate(ctx, 'text', true)
      const finish = exchange.events?.find((event) => event.type === 'finish')
      return (
        streamProblem(exchange) ?? (finish?.type === 'finish' && finish.usage ? undefined : 'no usage in the stream')
      )
    },
  },
  {
    id: 'tool-call-json',
    feature: 'tool calls',
    verifies: 'a forced tool call comes back with its name, arguments as the format types them, the tool finish reason',
    source: 'function calling guides (arguments a JSON string for OpenAI, an object for Anthropic and Gemini)',
    formats: all,
    run: async (ctx) => {
      const exchange = await generate(ctx, 'tool', false)
      const answer = await turn(ctx, 'tool', false)
      if (typeof answer === 'string') return answer
      return argumentsTypeProblem(ctx.format, exchange.json) ?? callsProblem(ctx.format, answer)
    },
  },
  {
    id: 'tool-call-stream',
    feature: 'tool calls',
    verifies:
      'a streamed tool call decodes into a call whose arguments are a JSON object, and the turn ends as a tool turn',
    source: 'streaming function calls (OpenAI tool_calls deltas, input_json_delta, Gemini whole functionCall parts)',
    formats: all,
    run: async (ctx) => judged(await turn(ctx, 'tool', true), (answer) => callsProblem(ctx.format, answer)),
  },
  {
    id: 'error-invalid-body',
    feature: 'errors',
    verifies:
      'an invalid request is a 400 in the format’s own error shape (what the SDK turns into its BadRequestError)',
    source: 'error docs of each service; the SDKs’ error classes',
    formats: all,
    run: async (ctx) => {
      const path = generatePath(ctx.format, ctx.model, false)
      return errorShapeProblem(ctx.format, await ctx.ask({ path, body: invalidBody(ctx.format, ctx.model) }), [400])
    },
  },
  {
    id: 'error-empty-input',
    feature: 'errors',
    verifies: 'a request with nothing to answer (Gemini contents: []) is a 400 INVALID_ARGUMENT, not an answer',
    source: 'Gemini API: "contents is not specified"',
    formats: ['content-generation'],
    run: async (ctx) => {
      const path = generatePath(ctx.format, ctx.model, false)
      return errorShapeProblem(ctx.format, await ctx.ask({ path, body: { contents: [] } }), [400])
    },
  },
  {
    id: 'auth-missing-key',
    feature: 'auth',
    verifies:
      'a request without a key is refused as the service refuses it: 401, Gemini 403 PERMISSION_DENIED, in the format’s error shape',
    source:
      'OpenAI/Anthropic authentication docs (401); Gemini: 403 PERMISSION_DENIED “Method doesn’t allow unregistered callers”',
    formats: all,
    run: async (ctx) => {
      if (!ctx.keyed) return 'skip: no --key given'
      const path = generatePath(ctx.format, ctx.model, false)
      const exchange = await ctx.ask({ path, body: body(ctx.format, ctx.model, 'text', false), key: null })
      if (ctx.format !== 'content-generation') return errorShapeProblem(ctx.format, exchange, [401])
      return (
        errorShapeProblem(ctx.format, exchange, [403]) ??
        (exchange.json.error.status === 'PERMISSION_DENIED' ? undefined : 'status is not PERMISSION_DENIED')
      )
    },
  },
  {
    id: 'auth-wrong-key',
    feature: 'auth',
    verifies:
      'a wrong key is refused as the service refuses it: 401, Gemini 400 INVALID_ARGUMENT with reason API_KEY_INVALID',
    source: 'OpenAI/Anthropic error docs (401); Gemini troubleshooting (API key not valid, API_KEY_INVALID)',
    formats: all,
    run: async (ctx) => {
      if (!ctx.keyed) return 'skip: no --key given'
      const path = generatePath(ctx.format, ctx.model, false)
      const request = { path, body: body(ctx.format, ctx.model, 'text', false), key: 'interlingua-check-wrong-key' }
      const exchange = await ctx.ask(request)
      if (ctx.format !== 'content-generation') return errorShapeProblem(ctx.format, exchange, [401])
      const problem = errorShapeProblem(ctx.format, exchange, [400])
      if (problem) return problem
      return exchange.text.includes('API_KEY_INVALID') ? undefined : 'no API_KEY_INVALID reason in the details'
    },
  },
  {
    id: 'auth-query-key',
    feature: 'auth',
    verifies: 'Gemini’s other key style: the key as the ?key= query parameter (no header) is accepted',
    source: 'Gemini API reference (REST examples pass ?key=API_KEY)',
    formats: ['content-generation'],
    run: async (ctx) => {
      if (!ctx.keyed) return 'skip: no --key given'
      const sent = { ...request(ctx, 'text', false), keyInQuery: true }
      const exchange = await ctx.ask(sent)
      return ok(exchange) ?? decodes(ctx, exchange)
    },
  },
  {
    id: 'models-list',
    feature: 'model listing',
    verifies:
      'the model list answers in the format’s shape (OpenAI {object:list,data}, Anthropic {data,has_more}, Gemini {models})',
    source: 'GET /v1/models (OpenAI, Anthropic), GET /v1beta/models (Gemini)',
    formats: all,
    run: async (ctx) => {
      const gemini = ctx.format === 'content-generation'
      const exchange = await ctx.ask({ path: gemini ? '/v1beta/models' : '/v1/models' })
      const json = exchange.json
      if (exchange.status !== 200) return `status ${exchange.status}`
      if (gemini)
        return Array.isArray(json?.models) && /^models\//.test(json.models[0]?.name ?? '')
          ? undefined
          : 'not {models:[{name:"models/…"}]}'
      if (ctx.format === 'messages')
        return Array.isArray(json?.data) && typeof json.has_more === 'boolean' ? undefined : 'not {data, has_more}'
      return json?.object === 'list' && Array.isArray(json.data) && typeof json.data[0]?.id === 'string'
        ? undefined
        : 'not {object:"list", data:[{id}]}'
    },
  },
]

/** Every check, in the order they run for each format. */
export const checks: Check[] = [...basicChecks, ...featureChecks]
