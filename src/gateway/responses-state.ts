/**
 * Responses state through a `ResponseStore` (response-store.ts): expanding `previous_response_id` and `item_reference`
 * into the whole conversation before translation, and recording each answer (JSON or the stream's terminal event).
 */
import { InterlinguaError } from '../errors.js'
import type { SseMessage } from '../formats/format.js'
import { type ExchangeResult, isChunkSource } from '../http/exchange.js'
import { createSseDecodeStep } from '../stream/sse-decode.js'
import type { ResponseStore } from './response-store.js'

type Json = Record<string, unknown>

function notFound(param: string, message: string): never {
  throw new InterlinguaError('invalid-request', message, { param, format: 'responses' })
}

/**
 * The request with `previous_response_id` replaced by the stored input + output it names (the Open Responses
 * definition; `instructions` are not carried over), and each `item_reference` by the stored item. 400 when missing —
 * or, with `keepMissing` (a Responses upstream, which has its own store), left as it is for the upstream; then
 * undefined when nothing was expanded.
 */
export async function expandState(body: Json, store: ResponseStore, scope: string): Promise<Json>
export async function expandState(
  body: Json,
  store: ResponseStore,
  scope: string,
  keepMissing: true,
): Promise<Json | undefined>
export async function expandState(
  body: Json,
  store: ResponseStore,
  scope: string,
  keepMissing = false,
): Promise<Json | undefined> {
  const out: Json = { ...body }
  let input: unknown[] =
    typeof body.input === 'string'
      ? [{ role: 'user', content: body.input }]
      : Array.isArray(body.input)
        ? [...body.input]
        : []
  let expanded = false
  const previous = body.previous_response_id
  if (typeof previous === 'string') {
    const stored = await store.get(scope, previous)
    if (stored) {
      const output = Array.isArray(stored.response.output) ? stored.response.output : []
      input = [...stored.input, ...output, ...input]
      delete out.previous_response_id
      expanded = true
    } else if (!keepMissing) notFound('previous_response_id', `Previous response with id '${previous}' not found.`)
  }
  for (let i = 0; i < input.length; i++) {
    const item = input[i] as Json | null
    if (item?.type !== 'item_reference') continue
    const found = typeof item.id === 'string' ? await store.item(scope, item.id) : undefined
    if (found !== undefined) {
      input[i] = found
      expanded = true
    } else if (!keepMissing) {
      notFound(`input[${i}]`, `Item with id '${String(item.id)}' not found: it was not stored here, or it expired.`)
    }
  }
  if (keepMissing && !expanded) return undefined
  if (expanded || Array.isArray(body.input)) out.input = input
  return out
}

/** Whether a Responses body's text may refer to stored state (one scan each; a body without either is not walked). */
export function mayReferToState(text: string): boolean {
  return text.includes('"item_reference"') || text.includes('"previous_response_id"')
}

/** The input items a request's answer is stored with. */
export function inputItems(body: Json): unknown[] {
  if (typeof body.input === 'string') return [{ role: 'user', content: body.input }]
  return Array.isArray(body.input) ? body.input : []
}

/** Stores the answer to `input` (a JSON body, or the terminal event of a stream) and returns the result to send. */
export async function recordAnswer(
  result: ExchangeResult,
  input: unknown[],
  store: ResponseStore,
  scope: string,
): Promise<ExchangeResult> {
  const body = result.body
  if (result.status !== 200 || body === null) return result
  const put = async (value: unknown) => {
    const json = value as Json | null
    if (typeof json?.id === 'string' && Array.isArray(json.output))
      await store.put(scope, { id: json.id, input, response: json })
  }
  if (!isChunkSource(body)) {
    await put(JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)))
    return result
  }
  // A stream: watch the bytes going to the client for the terminal event (the client is not held up by the store).
  const sse = createSseDecodeStep()
  const messages: SseMessage[] = []
  let failed = false
  const watch = (chunk: string | Uint8Array) => {
    if (failed) return
    try {
      sse.push(chunk, messages)
    } catch {
      failed = true
    }
    for (const message of messages) {
      if (!message.data.includes('"response.completed"') && !message.data.includes('"response.incomplete"')) continue
      const event = JSON.parse(message.data) as Json
      if (event.type === 'response.completed' || event.type === 'response.incomplete')
        put(event.response).catch(() => {})
    }
    messages.length = 0
  }
  result.body = {
    async next() {
      const chunk = await body.next()
      if (chunk !== undefined) watch(chunk)
      return chunk
    },
    cancel: () => body.cancel(),
  }
  return result
}
