/**
 * The Responses side of the strict stand-ins (./strict-upstream.ts), strict the way OpenAI is:
 * - a reasoning item's `encrypted_content` must be one this upstream issued ("could not be verified");
 * - an `item_reference` must name a reasoning item this upstream answered a request with that did not say
 *   `store: false` (OpenAI stores by default; the AI SDK's `openai(model)` refers back to it): else "not found";
 * - a `function_call_output` must answer a `function_call` of the same `call_id` in `input` (unless the request
 *   continues a stored response): "No tool call found for function call output".
 */
import { randomBytes } from 'node:crypto'
import type * as ir from '../../ir/index.js'
import type { Json } from './json.js'

export interface ResponsesLedger {
  check(body: Json): string | undefined
  /** A reasoning part whose item carries an `encrypted_content` this upstream issued. */
  reasoning(text: string): ir.ReasoningPart
  /** Keeps the ids of the reasoning items in an answer's text (JSON or SSE), unless the request said `store: false`. */
  store(body: Json, answer: string): void
  /** Takes a body's reasoning items and references as this upstream's (a recorded history replayed to it). */
  adopt(body: Json): void
}

export function createResponsesLedger(): ResponsesLedger {
  const issued = new Set<string>()
  const stored = new Set<string>()
  return {
    check(body) {
      if (!Array.isArray(body.input)) return undefined
      const calls = new Set<string>()
      for (const [i, item] of (body.input as Json[]).entries()) {
        if (item.type === 'item_reference' && !stored.has(item.id))
          return `Item with id '${item.id}' not found (input[${i}])`
        if (item.type === 'reasoning' && item.encrypted_content != null && !issued.has(item.encrypted_content))
          return `input[${i}]: The encrypted content for item ${item.id} could not be verified.`
        if (item.type === 'function_call' || item.type === 'custom_tool_call') calls.add(item.call_id)
        const output = item.type === 'function_call_output' || item.type === 'custom_tool_call_output'
        if (output && body.previous_response_id == null && !calls.has(item.call_id))
          return `No tool call found for function call output with call_id ${item.call_id}. (input[${i}])`
      }
      return undefined
    },
    reasoning(text) {
      const encrypted = `gAAAAAB${randomBytes(48).toString('base64')}`
      issued.add(encrypted)
      const item = { type: 'reasoning', summary: [{ type: 'summary_text', text }], encrypted_content: encrypted }
      return { type: 'reasoning', text, providerData: { responses: { item } } }
    },
    store(body, answer) {
      if (body.store === false) return
      for (const [, id] of answer.matchAll(/"id":"(rs_[\w-]+)"/g)) stored.add(id as string)
    },
    adopt(body) {
      if (!Array.isArray(body.input)) return
      for (const item of body.input as Json[]) {
        if (item.type === 'reasoning' && typeof item.encrypted_content === 'string') issued.add(item.encrypted_content)
        else if (item.type === 'item_reference') stored.add(item.id)
      }
    },
  }
}
