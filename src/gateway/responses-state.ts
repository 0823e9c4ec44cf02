/**
 * Responses state through a `ResponseStore` (response-store.ts): expanding `previous_response_id` and `item_reference`
 * into the whole conversation before translation, and recording each answer (JSON, or the stream's terminal response).
 */
import { InterlinguaError } from '../errors.js'
import { type ExchangeResult, isChunkSource } from '../http/exchange.js'
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

/** What stores the answers to one request's `input` (its scope and store). */
export interface AnswerRecord {
  input: unknown[]
  scope: string
  store: ResponseStore
}

/** Stores a response body of `record`'s request (one with an `id` and an `output` list). */
export async function storeResponse(record: AnswerRecord, response: Json | null): Promise<void> {
  if (typeof response?.id === 'string' && Array.isArray(response.output))
    await record.store.put(record.scope, { id: response.id, input: record.input, response })
}

/**
 * Stores a JSON answer before it is sent (the client's next turn may reach another instance) and returns the result.
 * A stream's answer is stored by the encoder's `onResponse` when its terminal event is made (not read back from the
 * bytes: a long answer is not parsed again).
 */
export async function recordAnswer(result: ExchangeResult, record: AnswerRecord): Promise<ExchangeResult> {
  const body = result.body
  if (result.status !== 200 || body === null || isChunkSource(body)) return result
  await storeResponse(record, JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)) as Json)
  return result
}
