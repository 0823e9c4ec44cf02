/**
 * Bench inputs, built deterministically: a small and a large chat-completions request and response (the large
 * ones converted into the other formats with the library itself), a long IR event stream encoded per format, and
 * the canned bodies the local upstream answers with.
 */
import type * as ir from '../src/ir/index.js'
import { type FormatId, formatIds, type Library, sseBytes } from './lib.js'

/** Deterministic filler text (a fixed word list walked by a linear congruential generator). */
function words(count: number, seed: number): string {
  const list = [
    'the',
    'agent',
    'reads',
    'file',
    'config',
    'returns',
    'value',
    'error',
    'retry',
    'build',
    'test',
    'deploy',
  ]
  let state = seed
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    out.push(list[state % list.length] as string)
  }
  return out.join(' ')
}

/** ~7 KB of base64 standing in for a screenshot (content is irrelevant to conversion). */
const imageBase64 = Buffer.from(Array.from({ length: 5200 }, (_, i) => (i * 31) & 0xff)).toString('base64')

const tools = ['read_file', 'write_file', 'run_tests', 'search_code', 'list_dir'].map((name) => ({
  type: 'function',
  function: {
    name,
    description: `Tool ${name}: ${words(12, name.length)}`,
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'A path in the repository' }, limit: { type: 'integer' } },
      required: ['path'],
      additionalProperties: false,
    },
    strict: true,
  },
}))

export const smallRequest = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a concise assistant.' },
    { role: 'user', content: 'What is the capital of France? Answer in one word.' },
  ],
  max_tokens: 256,
  temperature: 0.2,
}

/** A 50-turn agent conversation with tools, tool results and one image: about 100 KB of JSON. */
export function largeRequest(): Record<string, unknown> {
  const messages: unknown[] = [{ role: 'system', content: `You are a coding agent. ${words(120, 1)}` }]
  for (let turn = 0; turn < 50; turn++) {
    const userContent: unknown[] = [{ type: 'text', text: `Step ${turn}: ${words(50, turn + 7)}` }]
    if (turn === 0) userContent.push({ type: 'image_url', image_url: { url: `data:image/png;base64,${imageBase64}` } })
    messages.push({ role: 'user', content: userContent })
    const callId = `call_${turn.toString(36).padStart(4, '0')}abcdefghij`
    const name = tools[turn % tools.length]?.function.name as string
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: callId,
          type: 'function',
          function: { name, arguments: JSON.stringify({ path: `src/module-${turn}.ts`, limit: 200 }) },
        },
      ],
    })
    messages.push({
      role: 'tool',
      tool_call_id: callId,
      content: JSON.stringify({ ok: true, output: words(150, turn + 99) }),
    })
    messages.push({ role: 'assistant', content: words(60, turn + 500) })
  }
  messages.push({ role: 'user', content: 'Now summarise what you changed.' })
  return { model: 'gpt-4o', messages, tools, tool_choice: 'auto', max_tokens: 4096, temperature: 0.3, stream: false }
}

export const smallResponse = {
  id: 'chatcmpl-bench0001',
  object: 'chat.completion',
  created: 1763856000,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Paris.', refusal: null, annotations: [] },
      logprobs: null,
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 24, completion_tokens: 2, total_tokens: 26 },
}

/** A long answer (~30 KB of text) with eight tool calls. */
export function largeResponse(): Record<string, unknown> {
  return {
    ...smallResponse,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: words(5000, 3),
          refusal: null,
          annotations: [],
          tool_calls: Array.from({ length: 8 }, (_, i) => ({
            id: `call_resp${i}xyzxyzxyz`,
            type: 'function',
            function: {
              name: 'write_file',
              arguments: JSON.stringify({ path: `src/f${i}.ts`, content: words(80, i) }),
            },
          })),
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 25000, completion_tokens: 9000, total_tokens: 34000 },
  }
}

export interface Bodies {
  /** body text per format, per size */
  request: Record<'small' | 'large', Record<FormatId, string>>
  response: Record<'small' | 'large', Record<FormatId, string>>
}

/** The small and large bodies in every format (converted from chat-completions with the library). */
export function buildBodies(lib: Library): Bodies {
  const requests = { small: smallRequest, large: largeRequest() }
  const responses = { small: smallResponse, large: largeResponse() }
  const out: Bodies = { request: { small: {}, large: {} }, response: { small: {}, large: {} } } as Bodies
  for (const size of ['small', 'large'] as const) {
    for (const to of formatIds) {
      const request = lib.convertRequest(requests[size], { from: 'chat-completions', to, model: 'bench-model' })
      out.request[size][to] = JSON.stringify(request)
      out.response[size][to] = JSON.stringify(lib.convertResponse(responses[size], { from: 'chat-completions', to }))
    }
  }
  return out
}

/** An IR stream: message-start, `deltas` text deltas, one tool call (fragmented arguments), usage, finish. */
export function irStream(deltas: number, withToolCall = true): ir.StreamEvent[] {
  const events: ir.StreamEvent[] = [
    {
      type: 'message-start',
      id: 'msg_bench_0001',
      model: 'bench-model',
      created: 1763856000,
      usage: { inputTokens: 120 },
    },
    { type: 'text-start', index: 0 },
  ]
  const list = ['Hello', ' world', ', this', ' is', ' a', ' streamed', ' token', '.']
  for (let i = 0; i < deltas; i++) events.push({ type: 'text-delta', index: 0, text: list[i % list.length] as string })
  events.push({ type: 'text-end', index: 0 })
  if (withToolCall) {
    events.push({ type: 'tool-call-start', index: 1, id: 'call_bench_tool_01', name: 'read_file' })
    for (const fragment of ['{"pa', 'th": "src/', 'index.ts",', ' "limit": 20', '0}']) {
      events.push({ type: 'tool-call-delta', index: 1, argumentsDelta: fragment })
    }
    events.push({ type: 'tool-call-end', index: 1 })
  }
  const usage = { inputTokens: 120, outputTokens: deltas, cachedInputTokens: 64, totalTokens: 120 + deltas }
  events.push({ type: 'usage', usage })
  events.push({
    type: 'finish',
    finishReason: withToolCall ? { unified: 'tool-calls' } : { unified: 'stop' },
    usage,
  })
  return events
}

/** Encodes IR events with a format's own stream encoder into the SSE text that format's service sends. */
export async function encodeStream(lib: Library, format: FormatId, events: readonly ir.StreamEvent[]): Promise<string> {
  const encoder = lib.getFormat(format).createEncodeStream({ includeUsage: true })
  const writer = encoder.writable.getWriter()
  const frames: Parameters<typeof sseBytes>[0][number][] = []
  const reading = (async () => {
    const reader = encoder.readable.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      frames.push(value)
    }
  })()
  for (const event of events) await writer.write(event)
  await writer.close()
  await reading
  return sseBytes(frames)
}

/** What the local upstream answers, per upstream format: a JSON body and an SSE body of 50 text chunks. */
export interface Canned {
  json: string
  sse: string
}

export async function buildCanned(lib: Library): Promise<Record<FormatId, Canned>> {
  const out = {} as Record<FormatId, Canned>
  const response = {
    ...smallResponse,
    choices: [{ ...smallResponse.choices[0], message: { role: 'assistant', content: words(150, 42) } }],
    usage: { prompt_tokens: 260, completion_tokens: 200, total_tokens: 460 },
  }
  for (const format of formatIds) {
    out[format] = {
      json: JSON.stringify(lib.convertResponse(response, { from: 'chat-completions', to: format })),
      sse: await encodeStream(lib, format, irStream(50, false)),
    }
  }
  return out
}

/** The client request used for HTTP runs: a system prompt and one user turn (~1 KB), per client format. */
export function httpRequest(format: FormatId, model: string, stream: boolean): string {
  const system = `You are a helpful assistant. ${words(60, 5)}`
  const user = `Please answer: ${words(90, 6)}`
  if (format === 'messages') {
    return JSON.stringify({ model, max_tokens: 512, stream, system, messages: [{ role: 'user', content: user }] })
  }
  if (format === 'responses') {
    return JSON.stringify({ model, stream, instructions: system, input: user, max_output_tokens: 512, store: false })
  }
  if (format === 'content-generation') {
    // The model and stream flag travel in the path (see bench/gateway.ts).
    return JSON.stringify({
      systemInstruction: { parts: [{ text: system }] },
      contents: [{ role: 'user', parts: [{ text: user }] }],
      generationConfig: { maxOutputTokens: 512 },
    })
  }
  return JSON.stringify({
    model,
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
    max_tokens: 512,
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
  })
}
