/** The client-format matrix every cloud provider's tests run: the four client formats × models, JSON and stream. */
import { expect } from 'vitest'
import type { FormatId } from '../../src/ir/index.js'
import { formatIds, type Json, post, type Scenario, summarize, summarizeSse, wireRequest } from '../gateway-helpers.js'

/** Sends a wire request of `client`'s format for `model` to a gateway served at `url`, with the client's key header. */
export function sendWire(url: string, client: FormatId, model: string, scenario: Scenario = {}): Promise<Response> {
  const { path, body } = wireRequest(client, model, scenario)
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: post(client, path, body).headers,
    body: JSON.stringify(body),
  })
}

/** `[client, model, stream]` for every client format, model and stream flag. */
export function matrixCells(models: string[]): Array<readonly [FormatId, string, boolean]> {
  return formatIds.flatMap((client) =>
    models.flatMap((model) => [false, true].map((stream) => [client, model, stream] as const)),
  )
}

/** A text answer and a tool call, through the gateway at `url`, read in the client's format. */
export async function expectTextAndTools(url: string, client: FormatId, model: string, stream: boolean) {
  const text = await sendWire(url, client, model, { stream })
  expect(text.status).toBe(200)
  const summary = stream ? summarizeSse(client, await text.text()) : summarize(client, await text.json())
  expect(summary.text).toBe('This is the interlingua mock model answering "Say hello".')
  const tools = await sendWire(url, client, model, { stream, tools: true })
  expect(tools.status).toBe(200)
  const called = stream ? summarizeSse(client, await tools.text()) : summarize(client, await tools.json())
  expect(called.tools).toEqual(['get_weather'])
}

/** The client's second turn: its first answer replayed, then the tool's result. */
export function secondTurn(format: FormatId, first: Json, firstRequest: Json): Json {
  if (format === 'messages') {
    const call = first.content.find((block: Json) => block.type === 'tool_use')
    return {
      ...firstRequest,
      messages: [
        ...firstRequest.messages,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '18C and sunny' }] },
      ],
    }
  }
  if (format === 'chat-completions') {
    const message = first.choices[0].message
    return {
      ...firstRequest,
      messages: [
        ...firstRequest.messages,
        message,
        { role: 'tool', tool_call_id: message.tool_calls[0].id, content: '18C and sunny' },
      ],
    }
  }
  if (format === 'responses') {
    const call = first.output.find((item: Json) => item.type === 'function_call')
    return {
      ...firstRequest,
      input: [
        ...firstRequest.input,
        ...first.output,
        { type: 'function_call_output', call_id: call.call_id, output: '18C and sunny' },
      ],
    }
  }
  const parts = first.candidates[0].content.parts
  const call = parts.find((part: Json) => part.functionCall)
  return {
    ...firstRequest,
    contents: [
      ...firstRequest.contents,
      { role: 'model', parts },
      {
        role: 'user',
        parts: [{ functionResponse: { name: call.functionCall.name, response: { result: '18C and sunny' } } }],
      },
    ],
  }
}
