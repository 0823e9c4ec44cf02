/**
 * The checks of the features beyond a plain answer: the fields the SDKs send, structured output, parallel calls,
 * image input, reasoning (and its signatures sent back on the next turn) and Responses token counting.
 */
import {
  all,
  type Check,
  type Context,
  callsProblem,
  judged,
  ok,
  reasoningFormats,
  request,
  textProblem,
  turn,
} from './judge.js'
import { answerSchema, body, parallelCities } from './requests.js'
import type { Turn } from './turn.js'
import type { CheckFormat, Exchange } from './wire.js'

// biome-ignore lint/suspicious/noExplicitAny: wire bodies navigated freely
type Json = any

/** At least two calls (one per city asked about), with distinct ids where the format has ids. */
function parallelProblem(format: CheckFormat, answer: Turn | string): string | undefined {
  if (typeof answer === 'string') return answer
  const problem = callsProblem(format, answer, parallelCities.length)
  if (problem) return problem
  const ids = answer.calls.map((call) => call.id).filter((id) => id !== undefined && id !== '')
  if (new Set(ids).size !== ids.length) return `two calls share an id: ${ids.join(', ')}`
  const cities = new Set(answer.calls.map((call) => (call.args as { city?: unknown }).city))
  return cities.size < parallelCities.length ? `the calls do not cover ${parallelCities.join(' and ')}` : undefined
}

/**
 * A reasoning turn: reasoning came back, with a signature (or encrypted content) to send back on the next turn —
 * required of Anthropic thinking blocks and of Responses reasoning asked for with `reasoning.encrypted_content`; a
 * Gemini thoughtSignature only comes with what issued one (a gateway in front of a provider without signatures has
 * none to give), so it is judged by the round trip.
 */
function reasoningProblem(format: CheckFormat, answer: Turn | string): string | undefined {
  if (typeof answer === 'string') return answer
  if (answer.reasoning.length === 0) return 'no reasoning in the answer'
  if (answer.signatures.length === 0 && format !== 'content-generation')
    return 'the reasoning carries no signature (nothing to send back next turn)'
  if (answer.text.trim() === '' && answer.calls.length === 0) return 'reasoning only: no text and no call'
  return undefined
}

/** The second turn of a reasoning conversation: the first answer sent back as received, with the tool's results. */
function nextTurn(format: CheckFormat, first: Json, exchange: Exchange): Json {
  const result = '{"temperature_c": 18}'
  if (format === 'messages') {
    const content: Json[] = exchange.json.content
    const results = content
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({ type: 'tool_result', tool_use_id: block.id, content: result }))
    const reply = results.length ? results : [{ type: 'text', text: 'Thanks.' }]
    return {
      ...first,
      messages: [...first.messages, { role: 'assistant', content }, { role: 'user', content: reply }],
    }
  }
  if (format === 'responses') {
    const output: Json[] = exchange.json.output
    const results = output
      .filter((item) => item.type === 'function_call')
      .map((item) => ({ type: 'function_call_output', call_id: item.call_id, output: result }))
    const input = [{ role: 'user', content: first.input }, ...output]
    return { ...first, input: [...input, ...(results.length ? results : [{ role: 'user', content: 'Thanks.' }])] }
  }
  const content = exchange.json.candidates[0].content
  const results = (content.parts as Json[])
    .filter((part) => part.functionCall)
    .map((part) => ({ functionResponse: { name: part.functionCall.name, response: JSON.parse(result) } }))
  const reply = { role: 'user', parts: results.length ? results : [{ text: 'Thanks.' }] }
  return { ...first, contents: [...first.contents, content, reply] }
}

const structuredFormats: Record<CheckFormat, string> = {
  'chat-completions': 'response_format json_schema',
  responses: 'text.format json_schema',
  messages: 'output_config.format',
  'content-generation': 'responseJsonSchema',
}

async function countTokens(ctx: Context): Promise<string | undefined> {
  const gemini = ctx.format === 'content-generation'
  const text = body(ctx.format, ctx.model, 'text', false)
  const path = {
    'chat-completions': '',
    responses: '/v1/responses/input_tokens',
    messages: '/v1/messages/count_tokens',
    'content-generation': `/v1beta/models/${ctx.model}:countTokens`,
  }[ctx.format]
  const sent = gemini
    ? { contents: text.contents }
    : ctx.format === 'responses'
      ? { model: ctx.model, input: text.input }
      : { model: ctx.model, messages: text.messages }
  const exchange = await ctx.ask({ path, body: sent })
  if (exchange.status !== 200) return `status ${exchange.status}`
  const count = gemini ? exchange.json?.totalTokens : exchange.json?.input_tokens
  if (typeof count !== 'number' || count <= 0) return 'no token count'
  if (ctx.format === 'responses' && exchange.json.object !== 'response.input_tokens')
    return `object is ${JSON.stringify(exchange.json.object)}, not "response.input_tokens"`
  return undefined
}

export const featureChecks: Check[] = [
  {
    id: 'request-fields',
    feature: 'request fields',
    verifies:
      'a request with the fields the SDKs and agents routinely send (system prompt, temperature, top_p, output limit, stop sequences, tools with tool_choice auto, parallel_tool_calls, seed, user/metadata, store, safety settings) is answered, not refused',
    source:
      'each API reference’s request parameters (chat.completions.create, responses.create, messages.create, GenerationConfig); the SDKs send them unchanged',
    formats: all,
    run: async (ctx) =>
      judged(await turn(ctx, 'fields', false), (answer) =>
        answer.text.trim() === '' && answer.calls.length === 0 ? 'an empty answer' : undefined,
      ),
  },
  {
    id: 'structured-output',
    feature: 'request fields',
    verifies:
      'an answer constrained to a JSON Schema (response_format, text.format, output_config.format, responseJsonSchema) is JSON valid against it',
    source:
      'OpenAI Structured Outputs; Anthropic structured outputs (output_config.format); Gemini structured output (responseJsonSchema)',
    formats: all,
    run: async (ctx) => {
      const answer = await turn(ctx, 'structured', false)
      if (typeof answer === 'string') return answer
      let value: Json
      try {
        value = JSON.parse(answer.text)
      } catch {
        return `the ${structuredFormats[ctx.format]} answer is not JSON: ${answer.text.slice(0, 60)}`
      }
      for (const key of answerSchema.required) {
        const type = answerSchema.properties[key as keyof typeof answerSchema.properties].type
        if (typeof value?.[key] !== type) return `"${key}" is not a ${type}: ${answer.text.slice(0, 80)}`
      }
      return undefined
    },
  },
  {
    id: 'parallel-calls-json',
    feature: 'parallel calls',
    verifies:
      'asked for one call per city in one turn, the answer holds several calls to the tool, each its own id and arguments',
    source:
      'OpenAI parallel function calling (parallel_tool_calls); Anthropic parallel tool use; Gemini parallel function calling',
    formats: all,
    run: async (ctx) => parallelProblem(ctx.format, await turn(ctx, 'parallel', false)),
  },
  {
    id: 'parallel-calls-stream',
    feature: 'parallel calls',
    verifies:
      'the same streamed: the calls arrive as separate calls (OpenAI by index, Anthropic by block, Gemini by part), none merged into another',
    source: 'OpenAI tool_calls[].index deltas; Anthropic content_block_start per tool_use; Gemini functionCall parts',
    formats: all,
    run: async (ctx) => parallelProblem(ctx.format, await turn(ctx, 'parallel', true)),
  },
  {
    id: 'image-input',
    feature: 'images',
    verifies:
      'a base64 PNG in the user turn (data URL image_url, input_image, Anthropic base64 image source, Gemini inlineData) is accepted and answered',
    source: 'vision guides of each service (image inputs as base64 / data URLs)',
    formats: all,
    run: async (ctx) => textProblem(await turn(ctx, 'image', false)),
  },
  {
    id: 'reasoning-json',
    feature: 'reasoning',
    verifies:
      'with thinking on, the answer holds the reasoning and its signature (Anthropic thinking.signature, Responses encrypted_content; Gemini thought parts, their thoughtSignature judged by the round trip)',
    source:
      'Anthropic extended thinking; OpenAI reasoning (include reasoning.encrypted_content, store: false); Gemini thinking (includeThoughts) and thought signatures',
    formats: reasoningFormats,
    run: async (ctx) => reasoningProblem(ctx.format, await turn(ctx, 'reasoning', false)),
  },
  {
    id: 'reasoning-stream',
    feature: 'reasoning',
    verifies:
      'the same streamed: thinking deltas and the signature (signature_delta, the reasoning item’s encrypted_content, thoughtSignature) arrive',
    source: 'Anthropic streaming with thinking; Responses reasoning events; Gemini streamed thoughts',
    formats: reasoningFormats,
    run: async (ctx) => reasoningProblem(ctx.format, await turn(ctx, 'reasoning', true)),
  },
  {
    id: 'reasoning-round-trip',
    feature: 'reasoning',
    verifies:
      'the reasoning turn sent back unchanged (signatures included) with the tool results is accepted and answered',
    source:
      'Anthropic: thinking blocks must be passed back unmodified during tool use; OpenAI: reasoning items with encrypted_content; Gemini: thought signatures must be returned',
    formats: reasoningFormats,
    run: async (ctx) => {
      const first = request(ctx, 'reasoning', false)
      const exchange = await ctx.ask(first)
      const bad = ok(exchange)
      if (bad) return `turn 1: ${bad}`
      let second: Json
      try {
        second = nextTurn(ctx.format, first.body, exchange)
      } catch {
        return 'turn 1 is not an answer that can be sent back'
      }
      const sent = { ...first, body: second }
      const answer = await ctx.ask(sent)
      const refused = ok(answer)
      if (refused) return `turn 2 refused: ${refused}`
      const read = await ctx.read(answer, sent)
      return typeof read === 'string' ? `turn 2: ${read}` : undefined
    },
  },
  {
    id: 'count-tokens',
    feature: 'token counting',
    verifies:
      'token counting answers a number (Anthropic count_tokens input_tokens, Responses input_tokens, Gemini countTokens totalTokens)',
    source: 'POST /v1/messages/count_tokens; POST /v1/responses/input_tokens; models/{model}:countTokens',
    formats: ['responses', 'messages', 'content-generation'],
    run: countTokens,
  },
]
