/**
 * The conformance checks of `interlingua check`: each names what it verifies and where the rule comes from. A check
 * returns undefined when it passes, else what is wrong. Answers are judged with the library's own strict decoders
 * (`decodeResponse`, the stream decoders and the IR stream grammar) and the raw wire rules the official SDKs rely on.
 */
import { getFormat } from '../../formats/index.js'
import { grammarViolations } from '../../stream/grammar.js'
import { body, type CheckFormat, type Exchange, generatePath, type SendOptions } from './wire.js'

export interface Context {
  format: CheckFormat
  model: string
  /** Whether the user gave a key (auth checks run only then). */
  keyed: boolean
  /** One exchange per distinct request, shared by the checks that judge it. */
  ask(options: SendOptions): Promise<Exchange>
}

export interface Check {
  id: string
  feature: string
  verifies: string
  source: string
  formats: readonly CheckFormat[]
  run(ctx: Context): Promise<string | undefined>
}

const all = ['chat-completions', 'responses', 'messages', 'content-generation'] as const
const generate = (ctx: Context, kind: 'text' | 'tool', stream: boolean) =>
  ctx.ask({
    path: generatePath(ctx.format, ctx.model, stream),
    body: body(ctx.format, ctx.model, kind, stream),
    stream,
  })

function ok(exchange: Exchange): string | undefined {
  if (exchange.status !== 200) return `status ${exchange.status}: ${exchange.text.slice(0, 160)}`
  return undefined
}

/** The library's decoder of the format accepts the JSON answer. */
function decodes(ctx: Context, exchange: Exchange): string | undefined {
  if (exchange.json === undefined) return 'the answer is not JSON'
  try {
    getFormat(ctx.format).decodeResponse(exchange.json)
  } catch (error) {
    return `not a valid ${ctx.format} answer: ${(error as Error).message}`
  }
  if (ctx.format === 'chat-completions' && exchange.json.object !== 'chat.completion')
    return `object is ${JSON.stringify(exchange.json.object)}, not "chat.completion"`
  if (ctx.format === 'messages' && exchange.json.type !== 'message')
    return `type is ${JSON.stringify(exchange.json.type)}`
  if (ctx.format === 'responses' && exchange.json.object !== 'response') return `object is not "response"`
  if (ctx.format === 'content-generation' && !Array.isArray(exchange.json.candidates)) return 'no candidates'
  return undefined
}

/** The raw tool call of a JSON answer: its name, its arguments as sent, and the finish reason. */
function rawCall(format: CheckFormat, json: Exchange['json']): { name?: string; args: unknown; finish: unknown } {
  if (format === 'chat-completions') {
    const choice = json.choices?.[0]
    const call = choice?.message?.tool_calls?.[0]
    return { name: call?.function?.name, args: call?.function?.arguments, finish: choice?.finish_reason }
  }
  if (format === 'responses') {
    const call = (json.output ?? []).find((item: { type?: string }) => item.type === 'function_call')
    return { name: call?.name, args: call?.arguments, finish: json.status }
  }
  if (format === 'messages') {
    const call = (json.content ?? []).find((block: { type?: string }) => block.type === 'tool_use')
    return { name: call?.name, args: call?.input, finish: json.stop_reason }
  }
  const parts = json.candidates?.[0]?.content?.parts ?? []
  const call = parts.find((part: { functionCall?: unknown }) => part.functionCall)?.functionCall
  return { name: call?.name, args: call?.args, finish: json.candidates?.[0]?.finishReason }
}

const expectedFinish: Record<CheckFormat, string> = {
  'chat-completions': 'tool_calls',
  responses: 'completed',
  messages: 'tool_use',
  'content-generation': 'STOP',
}

function toolCallProblem(format: CheckFormat, json: Exchange['json']): string | undefined {
  const call = rawCall(format, json)
  if (call.name !== 'get_weather') return `no call to get_weather (found ${JSON.stringify(call.name)})`
  const stringArgs = format === 'chat-completions' || format === 'responses'
  if (stringArgs) {
    if (typeof call.args !== 'string') return `arguments is ${typeof call.args}, not a JSON string`
    try {
      const parsed = JSON.parse(call.args)
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        return 'arguments is not a JSON object'
    } catch {
      return `arguments is not valid JSON: ${call.args.slice(0, 60)}`
    }
  } else if (typeof call.args !== 'object' || call.args === null || Array.isArray(call.args))
    return `${format === 'messages' ? 'input' : 'args'} is not an object`
  if (call.finish !== expectedFinish[format])
    return `finish is ${JSON.stringify(call.finish)}, not ${JSON.stringify(expectedFinish[format])}`
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

function streamProblem(exchange: Exchange): string | undefined {
  const bad = ok(exchange)
  if (bad) return bad
  if (!exchange.events) return `not an event stream (content-type ${exchange.headers.get('content-type')})`
  if (exchange.streamError) return `the stream does not decode: ${exchange.streamError}`
  const problems = grammarViolations(exchange.events)
  return problems.length ? problems.join('; ') : undefined
}

/** The error body shape each format's SDK reads. */
function errorShapeProblem(format: CheckFormat, exchange: Exchange, status: number[]): string | undefined {
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

function usageProblem(format: CheckFormat, json: Exchange['json']): string | undefined {
  const usage = format === 'content-generation' ? json?.usageMetadata : json?.usage
  const input = {
    'chat-completions': usage?.prompt_tokens,
    responses: usage?.input_tokens,
    messages: usage?.input_tokens,
    'content-generation': usage?.promptTokenCount,
  }[format]
  return typeof input === 'number' ? undefined : 'no usage with input token counts'
}

/** A body whose only defect is its shape: the run's model, so a gateway that routes by model reaches its validation. */
const invalidBody = (format: CheckFormat, model: string): unknown =>
  ({
    'chat-completions': { model, messages: 'not a list' },
    responses: { model, input: 42 },
    messages: { model, max_tokens: 10, messages: [{ role: 'user', content: 42 }] },
    'content-generation': { contents: [{ role: 'user', parts: 'not a list' }] },
  })[format]

export const checks: Check[] = [
  {
    id: 'json-answer',
    feature: 'JSON answer',
    verifies: 'a plain request is answered 200 with a body the format’s decoder accepts (object/type markers)',
    source: 'API reference of each service; the official SDK’s response types',
    formats: all,
    run: async (ctx) => {
      const exchange = await generate(ctx, 'text', false)
      return ok(exchange) ?? decodes(ctx, exchange)
    },
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
    verifies: 'a streamed answer is SSE that decodes into start → blocks → finish, nothing after the finish',
    source: 'streaming guides of each service; the SDKs’ stream accumulators',
    formats: all,
    run: async (ctx) => streamProblem(await generate(ctx, 'text', true)),
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
      return ok(exchange) ?? decodes(ctx, exchange) ?? toolCallProblem(ctx.format, exchange.json)
    },
  },
  {
    id: 'tool-call-stream',
    feature: 'tool calls',
    verifies:
      'a streamed tool call decodes into a call whose arguments are a JSON object, and the turn ends as a tool turn',
    source: 'streaming function calls (OpenAI tool_calls deltas, input_json_delta, Gemini whole functionCall parts)',
    formats: all,
    run: async (ctx) => {
      const exchange = await generate(ctx, 'tool', true)
      const problem = streamProblem(exchange)
      if (problem) return problem
      const events = exchange.events ?? []
      const start = events.find((event) => event.type === 'tool-call-start')
      if (start?.type !== 'tool-call-start' || start.name !== 'get_weather') return 'no streamed call to get_weather'
      const args = events
        .map((event) => (event.type === 'tool-call-delta' && event.index === start.index ? event.argumentsDelta : ''))
        .join('')
      try {
        if (typeof JSON.parse(args || '{}') !== 'object') return 'the streamed arguments are not an object'
      } catch {
        return `the streamed arguments are not JSON: ${args.slice(0, 60)}`
      }
      const finish = events.find((event) => event.type === 'finish')
      if (finish?.type !== 'finish') return 'no finish'
      const raw = finish.finishReason.raw
      if (ctx.format === 'chat-completions' && raw !== 'tool_calls') return `finish_reason ${raw}, not tool_calls`
      if (ctx.format === 'messages' && raw !== 'tool_use') return `stop_reason ${raw}, not tool_use`
      return undefined
    },
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
  {
    id: 'count-tokens',
    feature: 'token counting',
    verifies: 'token counting answers a number (Anthropic count_tokens input_tokens, Gemini countTokens totalTokens)',
    source: 'POST /v1/messages/count_tokens; models/{model}:countTokens',
    formats: ['messages', 'content-generation'],
    run: async (ctx) => {
      const gemini = ctx.format === 'content-generation'
      const request = body(ctx.format, ctx.model, 'text', false) as Record<string, unknown>
      const path = gemini ? `/v1beta/models/${ctx.model}:countTokens` : '/v1/messages/count_tokens'
      const exchange = await ctx.ask({
        path,
        body: gemini ? { contents: request.contents } : { model: ctx.model, messages: request.messages },
      })
      if (exchange.status !== 200) return `status ${exchange.status}`
      const count = gemini ? exchange.json?.totalTokens : exchange.json?.input_tokens
      return typeof count === 'number' ? undefined : 'no token count'
    },
  },
]
