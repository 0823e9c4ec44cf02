/**
 * The request bodies `interlingua check` sends, per format, written the way each format's official SDK writes them:
 * - `text`: a plain prompt; `tool`: a forced call to `get_weather`; `parallel`: a forced call for each of two cities;
 * - `image`: a base64 PNG (16×16, red) and a question about it;
 * - `reasoning`: thinking on (effort / budget / includeThoughts, signatures asked for) with the tool offered, not forced
 *   (Anthropic refuses a forced tool with thinking on);
 * - `fields`: a plain prompt with the fields the SDKs and the agents built on them routinely send (sampling, output
 *   limit, stop sequences, system prompt, tools with `tool_choice: auto`, metadata, safety settings…);
 * - `structured`: an answer constrained to a JSON Schema (response_format, text.format, output_config.format,
 *   responseJsonSchema).
 */
import type { CheckFormat } from './wire.js'

export type RequestKind = 'text' | 'tool' | 'parallel' | 'image' | 'reasoning' | 'fields' | 'structured'
type Body = Record<string, unknown>

const weather = {
  name: 'get_weather',
  description: 'Current weather for a city',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
}

/** The schema of the `structured` answer. */
export const answerSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, temperature: { type: 'number' } },
  required: ['city', 'temperature'],
  additionalProperties: false,
}

/** The cities the `parallel` request asks about, one call each. */
export const parallelCities = ['Paris', 'Tokyo']

const red =
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR42mP4z8BAEmIY1TCqYfhqAACQ+f8B8u7oVwAAAABJRU5ErkJggg=='

const prompts: Record<RequestKind, string> = {
  text: 'Say hello.',
  tool: 'What is the weather in Paris? Use the tool.',
  parallel: `What is the weather in ${parallelCities.join(' and in ')}? Call get_weather once for each city: ${parallelCities.join(', ')}.`,
  image: 'What colour is this image? Answer in one word.',
  reasoning: 'What is the weather in Paris? Think first, then use the tool.',
  fields: 'Say hello.',
  structured: 'Give the weather in Paris as JSON: the city and the temperature in Celsius.',
}

const forced = (kind: RequestKind) => kind === 'tool' || kind === 'parallel'
const offersTool = (kind: RequestKind) => forced(kind) || kind === 'reasoning' || kind === 'fields'

function chat(model: string, kind: RequestKind, stream: boolean): Body {
  const content =
    kind === 'image'
      ? [
          { type: 'text', text: prompts.image },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${red}` } },
        ]
      : prompts[kind]
  const messages = [{ role: 'user', content }]
  if (kind === 'fields') messages.unshift({ role: 'system', content: 'Be brief.' })
  const body: Body = { model, messages }
  if (stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } })
  if (offersTool(kind)) {
    const fn = { name: weather.name, description: weather.description, parameters: weather.schema }
    body.tools = [{ type: 'function', function: fn }]
    body.tool_choice = forced(kind) ? 'required' : 'auto'
  }
  if (kind === 'parallel') body.parallel_tool_calls = true
  if (kind === 'fields')
    Object.assign(body, {
      temperature: 0.2,
      top_p: 1,
      max_completion_tokens: 256,
      stop: ['###'],
      n: 1,
      seed: 7,
      presence_penalty: 0,
      frequency_penalty: 0,
      user: 'interlingua-check',
      parallel_tool_calls: true,
    })
  if (kind === 'structured')
    body.response_format = { type: 'json_schema', json_schema: { name: 'weather', strict: true, schema: answerSchema } }
  return body
}

function responses(model: string, kind: RequestKind, stream: boolean): Body {
  const input =
    kind === 'image'
      ? [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: prompts.image },
              { type: 'input_image', image_url: `data:image/png;base64,${red}`, detail: 'auto' },
            ],
          },
        ]
      : prompts[kind]
  const body: Body = { model, input }
  if (stream) body.stream = true
  if (offersTool(kind)) {
    body.tools = [
      { type: 'function', name: weather.name, description: weather.description, parameters: weather.schema },
    ]
    body.tool_choice = forced(kind) ? 'required' : 'auto'
  }
  if (kind === 'parallel') body.parallel_tool_calls = true
  if (kind === 'reasoning')
    Object.assign(body, {
      reasoning: { effort: 'low', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      store: false,
    })
  if (kind === 'fields')
    Object.assign(body, {
      instructions: 'Be brief.',
      temperature: 0.2,
      top_p: 1,
      max_output_tokens: 256,
      parallel_tool_calls: true,
      store: false,
      truncation: 'disabled',
      metadata: { check: 'interlingua' },
      text: { format: { type: 'text' } },
    })
  if (kind === 'structured')
    body.text = { format: { type: 'json_schema', name: 'weather', strict: true, schema: answerSchema } }
  return body
}

function messages(model: string, kind: RequestKind, stream: boolean): Body {
  const content =
    kind === 'image'
      ? [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: red } },
          { type: 'text', text: prompts.image },
        ]
      : prompts[kind]
  const body: Body = { model, max_tokens: kind === 'reasoning' ? 2048 : 256, messages: [{ role: 'user', content }] }
  if (stream) body.stream = true
  if (offersTool(kind)) {
    body.tools = [{ name: weather.name, description: weather.description, input_schema: weather.schema }]
    body.tool_choice = forced(kind) ? { type: 'any' } : { type: 'auto' }
  }
  if (kind === 'reasoning') body.thinking = { type: 'enabled', budget_tokens: 1024 }
  if (kind === 'fields')
    Object.assign(body, {
      system: [{ type: 'text', text: 'Be brief.' }],
      temperature: 0.2,
      stop_sequences: ['###'],
      metadata: { user_id: 'interlingua-check' },
    })
  if (kind === 'structured') body.output_config = { format: { type: 'json_schema', schema: answerSchema } }
  return body
}

function gemini(kind: RequestKind): Body {
  const parts: unknown[] = [{ text: prompts[kind] }]
  if (kind === 'image') parts.push({ inlineData: { mimeType: 'image/png', data: red } })
  const body: Body = { contents: [{ role: 'user', parts }] }
  if (offersTool(kind)) {
    body.tools = [
      {
        functionDeclarations: [
          { name: weather.name, description: weather.description, parametersJsonSchema: weather.schema },
        ],
      },
    ]
    body.toolConfig = { functionCallingConfig: { mode: forced(kind) ? 'ANY' : 'AUTO' } }
  }
  if (kind === 'reasoning') body.generationConfig = { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } }
  if (kind === 'fields') {
    body.systemInstruction = { parts: [{ text: 'Be brief.' }] }
    body.generationConfig = {
      temperature: 0.2,
      topP: 1,
      maxOutputTokens: 256,
      stopSequences: ['###'],
      candidateCount: 1,
    }
    body.safetySettings = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }]
  }
  if (kind === 'structured')
    body.generationConfig = {
      responseMimeType: 'application/json',
      responseJsonSchema: { ...answerSchema, additionalProperties: undefined },
    }
  return body
}

/** The body of a request of `kind` in `format` (content-generation: the model and stream flag are in the path). */
export function body(format: CheckFormat, model: string, kind: RequestKind, stream: boolean): Body {
  if (format === 'chat-completions') return chat(model, kind, stream)
  if (format === 'responses') return responses(model, kind, stream)
  if (format === 'messages') return messages(model, kind, stream)
  return gemini(kind)
}
