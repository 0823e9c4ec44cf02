/** Shared helpers for the gateway tests: wire requests of each format, and in-process fake upstreams. */
import { createGateway } from '../src/gateway/create-gateway.js'
import type { GatewayOptions } from '../src/gateway/options.js'
import type { FormatId } from '../src/ir/index.js'

/** Loose JSON navigation for assertions on wire bodies. */
// biome-ignore lint/suspicious/noExplicitAny: wire bodies are navigated freely in assertions
export type Json = any

export const base = 'http://gateway.test'
export const formatIds: FormatId[] = ['chat-completions', 'messages', 'content-generation', 'responses']

export const weatherParameters = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer' } },
  required: ['city'],
}

export interface Scenario {
  text?: string
  tools?: boolean
  stream?: boolean
  reasoning?: boolean
  imageBase64?: string
  imageUrl?: string
}

/** A wire request of a format: URL path and body. */
export function wireRequest(
  format: FormatId,
  model: string,
  scenario: Scenario = {},
): { path: string; body: Record<string, unknown> } {
  const text = scenario.text ?? 'Say hello'
  if (format === 'chat-completions') {
    const content: unknown[] = [{ type: 'text', text }]
    if (scenario.imageBase64)
      content.push({ type: 'image_url', image_url: { url: `data:image/png;base64,${scenario.imageBase64}` } })
    if (scenario.imageUrl) content.push({ type: 'image_url', image_url: { url: scenario.imageUrl } })
    const body: Record<string, unknown> = { model, messages: [{ role: 'user', content }] }
    if (scenario.tools)
      body.tools = [
        { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: weatherParameters } },
      ]
    if (scenario.stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } })
    if (scenario.reasoning) body.reasoning_effort = 'high'
    return { path: '/v1/chat/completions', body }
  }
  if (format === 'messages') {
    const content: unknown[] = [{ type: 'text', text }]
    if (scenario.imageBase64)
      content.push({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: scenario.imageBase64 } })
    if (scenario.imageUrl) content.push({ type: 'image', source: { type: 'url', url: scenario.imageUrl } })
    const body: Record<string, unknown> = { model, max_tokens: 1024, messages: [{ role: 'user', content }] }
    if (scenario.tools) body.tools = [{ name: 'get_weather', description: 'Weather', input_schema: weatherParameters }]
    if (scenario.stream) body.stream = true
    if (scenario.reasoning)
      Object.assign(body, { max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } })
    return { path: '/v1/messages', body }
  }
  if (format === 'responses') {
    const content: unknown[] = [{ type: 'input_text', text }]
    if (scenario.imageBase64)
      content.push({ type: 'input_image', image_url: `data:image/png;base64,${scenario.imageBase64}`, detail: 'auto' })
    if (scenario.imageUrl) content.push({ type: 'input_image', image_url: scenario.imageUrl, detail: 'auto' })
    const body: Record<string, unknown> = { model, input: [{ role: 'user', content }] }
    if (scenario.tools)
      body.tools = [
        { type: 'function', name: 'get_weather', description: 'Weather', parameters: weatherParameters, strict: false },
      ]
    if (scenario.stream) body.stream = true
    if (scenario.reasoning) body.reasoning = { effort: 'high', summary: 'auto' }
    return { path: '/v1/responses', body }
  }
  const parts: unknown[] = [{ text }]
  if (scenario.imageBase64) parts.push({ inlineData: { mimeType: 'image/png', data: scenario.imageBase64 } })
  const body: Record<string, unknown> = { contents: [{ role: 'user', parts }] }
  if (scenario.tools)
    body.tools = [
      {
        functionDeclarations: [
          { name: 'get_weather', description: 'Weather', parametersJsonSchema: weatherParameters },
        ],
      },
    ]
  if (scenario.reasoning) body.generationConfig = { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } }
  const method = scenario.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
  return { path: `/v1beta/models/${model}:${method}`, body }
}

/** The client key header each format's SDK sends. */
export function authHeaders(format: FormatId, key: string): Record<string, string> {
  if (format === 'chat-completions' || format === 'responses') return { authorization: `Bearer ${key}` }
  if (format === 'messages') return { authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01' }
  return { 'x-goog-api-key': key }
}

export function post(
  format: FormatId,
  path: string,
  body: unknown,
  key = 'client-key',
  init: RequestInit = {},
): Request {
  return new Request(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders(format, key) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  })
}

/** Extracts the answer text, tool-call names and finish marker from a JSON body of a format. */
export function summarize(format: FormatId, body: unknown): { text: string; tools: string[]; finish: unknown } {
  const b = body as Record<string, Json>
  if (format === 'chat-completions') {
    const message = b.choices[0].message
    return {
      text: message.content ?? '',
      tools: (message.tool_calls ?? []).map((c: Json) => c.function.name),
      finish: b.choices[0].finish_reason,
    }
  }
  if (format === 'messages') {
    return {
      text: b.content
        .filter((c: Json) => c.type === 'text')
        .map((c: Json) => c.text)
        .join(''),
      tools: b.content.filter((c: Json) => c.type === 'tool_use').map((c: Json) => c.name),
      finish: b.stop_reason,
    }
  }
  if (format === 'responses') {
    const items = b.output as Json[]
    return {
      text: items
        .filter((item) => item.type === 'message')
        .flatMap((item) => item.content)
        .map((part: Json) => part.text ?? '')
        .join(''),
      tools: items.filter((item) => item.type === 'function_call').map((item) => item.name),
      finish: b.status,
    }
  }
  const parts = b.candidates[0].content.parts as Json[]
  return {
    text: parts
      .filter((p) => typeof p.text === 'string' && !p.thought)
      .map((p) => p.text)
      .join(''),
    tools: parts.filter((p) => p.functionCall).map((p) => p.functionCall.name),
    finish: b.candidates[0].finishReason,
  }
}

/** Parses SSE text into `{event, data}` records (data JSON-parsed unless `[DONE]`). */
export function parseSse(text: string): Array<{ event?: string; data: Json }> {
  const out: Array<{ event?: string; data: Json }> = []
  for (const block of text.split(/\n\n/)) {
    let event: string | undefined
    const data: string[] = []
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim()
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart())
    }
    if (data.length === 0) continue
    const joined = data.join('\n')
    out.push({ ...(event ? { event } : {}), data: joined === '[DONE]' ? joined : JSON.parse(joined) })
  }
  return out
}

/** Streamed text and tool names from a format's SSE. */
export function summarizeSse(
  format: FormatId,
  text: string,
): { text: string; tools: string[]; finish: unknown; error?: Json } {
  let out = ''
  const tools: string[] = []
  let finish: unknown
  let error: Json
  for (const { event, data } of parseSse(text)) {
    if (data === '[DONE]') continue
    if (format === 'responses') {
      if (data.type === 'error') error = data
      if (data.type === 'response.output_text.delta') out += data.delta
      if (data.type === 'response.output_item.added' && data.item.type === 'function_call') tools.push(data.item.name)
      if (['response.completed', 'response.incomplete', 'response.failed'].includes(data.type))
        finish = data.response.status
    } else if (data.error || event === 'error') error = data.error ?? data
    else if (format === 'chat-completions') {
      const choice = data.choices?.[0]
      if (choice?.delta?.content) out += choice.delta.content
      for (const call of choice?.delta?.tool_calls ?? []) if (call.function?.name) tools.push(call.function.name)
      if (choice?.finish_reason) finish = choice.finish_reason
    } else if (format === 'messages') {
      if (data.type === 'content_block_delta' && data.delta.type === 'text_delta') out += data.delta.text
      if (data.type === 'content_block_start' && data.content_block.type === 'tool_use')
        tools.push(data.content_block.name)
      if (data.type === 'message_delta') finish = data.delta.stop_reason
    } else {
      for (const part of data.candidates?.[0]?.content?.parts ?? []) {
        if (typeof part.text === 'string' && !part.thought) out += part.text
        if (part.functionCall) tools.push(part.functionCall.name)
      }
      if (data.candidates?.[0]?.finishReason) finish = data.candidates[0].finishReason
    }
  }
  return { text: out, tools, finish, ...(error ? { error } : {}) }
}

export interface Recorded {
  url: string
  headers: Headers
  body: string
  signal?: AbortSignal | null
}

/**
 * A gateway whose upstreams (one per format, all served by an in-process mock-model gateway) are reached through the
 * injected fetch; `calls` records what reached the upstream.
 */
export function stack(extra: Partial<GatewayOptions> = {}, upstreamHandler?: (request: Request) => Promise<Response>) {
  const mock = createGateway()
  const calls: Recorded[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    const body = await request.clone().text()
    calls.push({ url: request.url, headers: request.headers, body, signal: init?.signal ?? null })
    return (upstreamHandler ?? mock.fetch)(request)
  }) as typeof globalThis.fetch
  const gateway = createGateway({
    upstreams: {
      openai: { format: 'chat-completions', baseURL: 'http://upstream.test/v1', apiKey: 'upstream-openai-key' },
      anthropic: { format: 'messages', baseURL: 'http://upstream.test', apiKey: 'upstream-anthropic-key' },
      gemini: { format: 'content-generation', baseURL: 'http://upstream.test', apiKey: 'upstream-gemini-key' },
      'openai-responses': { format: 'responses', baseURL: 'http://upstream.test/v1', apiKey: 'upstream-responses-key' },
    },
    models: {
      'via-chat-completions': { upstream: 'openai', model: 'upstream-model' },
      'via-messages': { upstream: 'anthropic', model: 'upstream-model' },
      'via-content-generation': { upstream: 'gemini', model: 'upstream-model' },
      'via-responses': { upstream: 'openai-responses', model: 'upstream-model' },
    },
    apiKeys: ['client-key'],
    fetch,
    ...extra,
  })
  return { gateway, calls }
}

export const pngBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg=='

/** An upstream that sends `chunk` and then fails (connection reset) mid-stream. */
export const failingUpstream = (chunk: string) => async () =>
  new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(chunk))
        setTimeout(() => controller.error(new Error('connection reset')), 5)
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  )

/** A Gemini stream chunk with partial text. */
export const geminiChunk =
  'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Partial"}]},"index":0}],"responseId":"r1"}\n\n'
