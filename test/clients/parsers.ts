/**
 * Sends a recorded client request (test/fixtures/clients) to a gateway and reads the answer with that client's own
 * parser where one is installed here, else with the official SDK of its format (which is what Claude Code, Gemini CLI,
 * LangChain and the Agents SDK parse with; Codex's parser is Rust): the SDK makes the call, and its `fetch` swaps in
 * the recorded body and headers, so the bytes sent are the client's and the bytes read are parsed by the SDK.
 */
import { createOpenAI } from '@ai-sdk/openai'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import { generateText, jsonSchema, streamText, tool } from 'ai'
import OpenAI from 'openai'
import type { Json } from '../gateway-helpers.js'

/** A recorded request, as scripts/clients/fixtures.ts writes it. */
export interface ClientFixture {
  client: string
  version: string
  scenario: string
  format?: 'chat-completions' | 'messages' | 'content-generation' | 'responses'
  method: string
  path: string
  query: Record<string, string>
  headers: Record<string, string>
  body: Json
}

/** What the client understood: the tools it was asked to call, and the text. */
export interface Parsed {
  toolCalls: string[]
  text: string
  /** The parser that read it. */
  parser: string
}

/** Headers the replay does not send as recorded: credentials (redacted), and what the transport sets. */
const notReplayed = new Set([
  'authorization',
  'x-api-key',
  'x-goog-api-key',
  'content-length',
  'accept-encoding',
  'host',
])

/** A `fetch` that sends `body` and the fixture's headers in place of what the SDK built (keeping its key). */
export function swapFetch(fixture: ClientFixture, body: Json): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers)
    for (const [name, value] of Object.entries(fixture.headers))
      if (!notReplayed.has(name) && value !== '[redacted]') headers.set(name, value)
    return fetch(input, { ...init, headers, body: JSON.stringify(body) })
  }
}

const key = 'client-key'

/** A tool the AI SDK knows by name (it reports calls of unknown tools as errors), never executed here. */
const aiSdkTools = {
  get_weather: tool({ description: 'weather', inputSchema: jsonSchema<{ city: string }>({ type: 'object' }) }),
}

async function aiSdk(url: string, fixture: ClientFixture, body: Json, stream: boolean): Promise<Parsed> {
  const provider = createOpenAI({ apiKey: key, baseURL: `${url}/v1`, fetch: swapFetch(fixture, body) })
  const model = fixture.format === 'responses' ? provider.responses(body.model) : provider.chat(body.model)
  const options = { model, prompt: 'replayed', tools: aiSdkTools, maxRetries: 0 }
  if (stream) {
    let failure: unknown
    const result = streamText({
      ...options,
      onError: ({ error }) => {
        failure = error
      },
    })
    let text = ''
    for await (const delta of result.textStream) text += delta
    if (failure) throw failure
    return { toolCalls: (await result.toolCalls).map((call) => call.toolName), text, parser: 'ai' }
  }
  const result = await generateText(options)
  return { toolCalls: result.toolCalls.map((call) => call.toolName), text: result.text, parser: 'ai' }
}

async function openaiResponses(url: string, fixture: ClientFixture, body: Json, stream: boolean): Promise<Parsed> {
  const client = new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0, fetch: swapFetch(fixture, body) })
  const params = { model: body.model, input: 'replayed' }
  const response = stream
    ? await client.responses.stream(params).finalResponse()
    : await client.responses.create({ ...params, stream: false })
  const toolCalls: string[] = []
  for (const item of response.output)
    if (item.type === 'function_call' || item.type === 'custom_tool_call') toolCalls.push(item.name)
  return { toolCalls, text: response.output_text, parser: 'openai' }
}

async function openaiChat(url: string, fixture: ClientFixture, body: Json, stream: boolean): Promise<Parsed> {
  const client = new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0, fetch: swapFetch(fixture, body) })
  const params = { model: body.model, messages: [{ role: 'user' as const, content: 'replayed' }] }
  const completion = stream
    ? await client.chat.completions.stream({ ...params, stream: true }).finalChatCompletion()
    : await client.chat.completions.create(params)
  const message = completion.choices[0]?.message
  const toolCalls = (message?.tool_calls ?? []).map((call) => (call.type === 'function' ? call.function.name : ''))
  return { toolCalls, text: message?.content ?? '', parser: 'openai' }
}

async function anthropic(url: string, fixture: ClientFixture, body: Json, stream: boolean): Promise<Parsed> {
  const client = new Anthropic({ apiKey: key, baseURL: url, maxRetries: 0, fetch: swapFetch(fixture, body) })
  const params = { model: body.model, max_tokens: 16, messages: [{ role: 'user' as const, content: 'replayed' }] }
  // Claude Code calls the beta endpoint (`?beta=true`); both parse with the same stream accumulator.
  const api = (fixture.query.beta === 'true' ? client.beta.messages : client.messages) as typeof client.messages
  const message = stream ? await api.stream(params).finalMessage() : await api.create({ ...params, stream: false })
  const toolCalls: string[] = []
  let text = ''
  for (const block of message.content as Json[]) {
    if (block.type === 'tool_use') toolCalls.push(block.name)
    if (block.type === 'text') text += block.text
  }
  return { toolCalls, text, parser: '@anthropic-ai/sdk' }
}

async function gemini(url: string, fixture: ClientFixture, body: Json, stream: boolean): Promise<Parsed> {
  const [, apiVersion, model] = /^\/([^/]+)\/models\/([^:]+):/.exec(fixture.path) ?? []
  const ai = new GoogleGenAI({
    apiKey: key,
    httpOptions: { baseUrl: url, apiVersion: apiVersion ?? 'v1beta', fetch: swapFetch(fixture, body) },
  })
  const params = { model: model ?? 'gemini', contents: 'replayed' }
  const chunks = stream ? await ai.models.generateContentStream(params) : [await ai.models.generateContent(params)]
  const toolCalls: string[] = []
  let text = ''
  for await (const chunk of chunks) {
    for (const call of chunk.functionCalls ?? []) toolCalls.push(call.name ?? '')
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) if (part.text && !part.thought) text += part.text
  }
  return { toolCalls, text, parser: '@google/genai' }
}

/** Sends `body` (the fixture's, `stream` set) to the gateway at `url` and parses the answer. */
export function replay(url: string, fixture: ClientFixture, body: Json, stream: boolean): Promise<Parsed> {
  switch (fixture.format) {
    case 'responses':
      return fixture.client === 'ai-sdk-openai'
        ? aiSdk(url, fixture, body, stream)
        : openaiResponses(url, fixture, body, stream)
    case 'chat-completions':
      return fixture.client === 'ai-sdk-openai'
        ? aiSdk(url, fixture, body, stream)
        : openaiChat(url, fixture, body, stream)
    case 'messages':
      return anthropic(url, fixture, body, stream)
    case 'content-generation':
      return gemini(url, fixture, body, stream)
    default:
      throw new Error(`${fixture.client}/${fixture.scenario}: not a generation request`)
  }
}

/** The fixture's body for the JSON or the streaming variant of the same request. */
export function variant(fixture: ClientFixture, stream: boolean): Json {
  const body = structuredClone(fixture.body)
  if (fixture.format === 'content-generation') return body
  body.stream = stream
  // OpenAI refuses stream_options on a request that does not stream.
  if (!stream) delete body.stream_options
  return body
}
