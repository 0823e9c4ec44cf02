/** Serves fixed SSE bytes on 127.0.0.1 and reads them with the official SDK of a format, normalised for comparison. */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import type { FormatId } from '../../src/formats/format.js'
import type * as ir from '../../src/ir/index.js'

export interface Summary {
  text: string
  toolCalls: { name: string; arguments: unknown }[]
  finish: string
  usage?: { input: number; output: number }
}

export function summarize(response: ir.Response): Summary {
  const summary: Summary = {
    text: response.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
    toolCalls: response.content.flatMap((part) =>
      part.type === 'tool-call' ? [{ name: part.name, arguments: JSON.parse(part.arguments) as unknown }] : [],
    ),
    finish: response.finishReason.unified,
  }
  if (response.usage) summary.usage = { input: response.usage.inputTokens, output: response.usage.outputTokens }
  return summary
}

/** Runs `body` behind a loopback server for the duration of `use`. */
export async function withSseServer<T>(body: Uint8Array, use: (origin: string) => Promise<T>): Promise<T> {
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' })
      response.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as AddressInfo
  try {
    return await use(`http://127.0.0.1:${port}`)
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const openaiFinish: Record<string, string> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
  content_filter: 'content-filter',
}
const anthropicFinish: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  tool_use: 'tool-calls',
  refusal: 'content-filter',
}
const geminiFinish: Record<string, string> = { STOP: 'stop', MAX_TOKENS: 'length', SAFETY: 'content-filter' }

/** Reads the stream with the SDK(s) of `format`; returns one summary per SDK reading path, plus the content seen before a throw. */
export async function readWithSdk(
  format: FormatId,
  origin: string,
): Promise<{ summaries: Summary[]; error?: unknown; partialText: string }> {
  let partialText = ''
  try {
    if (format === 'chat-completions') {
      const client = new OpenAI({ apiKey: 'test', baseURL: `${origin}/v1`, maxRetries: 0 })
      const params = { model: 'm', messages: [{ role: 'user' as const, content: 'Hi' }] }
      const calls = new Map<number, { name: string; arguments: string }>()
      let finish = ''
      let usage: Summary['usage']
      for await (const chunk of await client.chat.completions.create({ ...params, stream: true })) {
        if (chunk.usage) usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens }
        const choice = chunk.choices[0]
        if (!choice) continue
        partialText += choice.delta.content ?? ''
        for (const call of choice.delta.tool_calls ?? []) {
          const entry = calls.get(call.index) ?? { name: '', arguments: '' }
          entry.name += call.function?.name ?? ''
          entry.arguments += call.function?.arguments ?? ''
          calls.set(call.index, entry)
        }
        if (choice.finish_reason) finish = openaiFinish[choice.finish_reason] ?? 'other'
      }
      const iterated: Summary = {
        text: partialText,
        toolCalls: [...calls.values()].map((call) => ({
          name: call.name,
          arguments: JSON.parse(call.arguments || '{}') as unknown,
        })),
        finish,
      }
      if (usage) iterated.usage = usage
      const final = await client.chat.completions.stream(params).finalChatCompletion()
      const choice = final.choices[0]
      const accumulated: Summary = {
        text: choice?.message.content ?? '',
        toolCalls: (choice?.message.tool_calls ?? []).flatMap((call) =>
          call.type === 'function'
            ? [{ name: call.function.name, arguments: JSON.parse(call.function.arguments || '{}') as unknown }]
            : [],
        ),
        finish: openaiFinish[choice?.finish_reason ?? ''] ?? 'other',
      }
      if (final.usage) accumulated.usage = { input: final.usage.prompt_tokens, output: final.usage.completion_tokens }
      return { summaries: [iterated, accumulated], partialText }
    }
    if (format === 'responses')
      return await readResponses(origin, (text) => {
        partialText += text
      })
    if (format === 'messages') {
      const client = new Anthropic({ apiKey: 'test', baseURL: origin, maxRetries: 0 })
      const stream = client.messages.stream({
        model: 'm',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Hi' }],
      })
      stream.on('text', (delta) => {
        partialText += delta
      })
      const message = await stream.finalMessage()
      const usage = message.usage
      return {
        summaries: [
          {
            text: message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
            toolCalls: message.content.flatMap((block) =>
              block.type === 'tool_use' ? [{ name: block.name, arguments: block.input }] : [],
            ),
            finish: anthropicFinish[message.stop_reason ?? ''] ?? 'other',
            usage: {
              input:
                usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
              output: usage.output_tokens,
            },
          },
        ],
        partialText,
      }
    }
    const client = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: origin } })
    const toolCalls: Summary['toolCalls'] = []
    let finish = ''
    let usage: Summary['usage']
    for await (const chunk of await client.models.generateContentStream({ model: 'm', contents: 'Hi' })) {
      const candidate = chunk.candidates?.[0]
      for (const part of candidate?.content?.parts ?? []) {
        if (part.text !== undefined && !part.thought) partialText += part.text
        if (part.functionCall)
          toolCalls.push({ name: part.functionCall.name ?? '', arguments: part.functionCall.args ?? {} })
      }
      if (candidate?.finishReason) finish = geminiFinish[candidate.finishReason] ?? 'other'
      const meta = chunk.usageMetadata
      if (meta) {
        usage = {
          input: meta.promptTokenCount ?? 0,
          output: (meta.candidatesTokenCount ?? 0) + (meta.thoughtsTokenCount ?? 0),
        }
      }
    }
    if (finish === 'stop' && toolCalls.length > 0) finish = 'tool-calls'
    const summary: Summary = { text: partialText, toolCalls, finish }
    if (usage) summary.usage = usage
    return { summaries: [summary], partialText }
  } catch (error) {
    return { summaries: [], error, partialText }
  }
}

/** A Responses answer as a summary (status → finish; function calls are the tool-calls signal). */
function responsesSummary(response: OpenAI.Responses.Response): Summary {
  const toolCalls = response.output.flatMap((item) =>
    item.type === 'function_call'
      ? [{ name: item.name, arguments: JSON.parse(item.arguments || '{}') as unknown }]
      : [],
  )
  const reason = response.incomplete_details?.reason
  const finish =
    response.status === 'incomplete'
      ? reason === 'content_filter'
        ? 'content-filter'
        : 'length'
      : toolCalls.length > 0
        ? 'tool-calls'
        : response.status === 'completed'
          ? 'stop'
          : 'other'
  const text = response.output
    .flatMap((item) => (item.type === 'message' ? item.content : []))
    .map((part) => (part.type === 'output_text' ? part.text : ''))
    .join('')
  const summary: Summary = { text, toolCalls, finish }
  if (response.usage) summary.usage = { input: response.usage.input_tokens, output: response.usage.output_tokens }
  return summary
}

/** Reads a Responses stream twice: raw events (`create({stream: true})`) and the strict `responses.stream()` helper. */
async function readResponses(
  origin: string,
  onText: (text: string) => void,
): Promise<{ summaries: Summary[]; partialText: string }> {
  const client = new OpenAI({ apiKey: 'test', baseURL: `${origin}/v1`, maxRetries: 0 })
  const params = { model: 'm', input: 'Hi' }
  let partialText = ''
  let completed: OpenAI.Responses.Response | undefined
  for await (const event of await client.responses.create({ ...params, stream: true })) {
    if (event.type === 'response.output_text.delta') {
      partialText += event.delta
      onText(event.delta)
    }
    if (event.type === 'response.completed' || event.type === 'response.incomplete') completed = event.response
    if (event.type === 'response.failed') throw new Error(event.response.error?.message ?? 'response.failed')
  }
  if (!completed) throw new Error('no terminal event')
  const final = await client.responses.stream(params).finalResponse()
  return { summaries: [responsesSummary(completed), responsesSummary(final)], partialText }
}
