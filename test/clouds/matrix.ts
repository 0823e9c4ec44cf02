/** The client-format matrix every cloud provider's tests run: the four client formats × models, JSON and stream. */
import { expect } from 'vitest'
import type { FormatId } from '../../src/ir/index.js'
import { formatIds, post, type Scenario, summarize, summarizeSse, wireRequest } from '../gateway-helpers.js'

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
