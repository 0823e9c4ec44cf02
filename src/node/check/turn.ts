/**
 * An answer reduced to what the checks judge (`Turn`): its text, tool calls, reasoning, the opaque signatures that
 * must come back on the next turn, and the raw finish reason. Made by the official SDK when it is installed
 * (./sdk.ts), else here by the library's own decoders: `decodeResponse` for JSON, the stream decoder and
 * `accumulateEvents` for a stream.
 */
import { getFormat } from '../../formats/index.js'
import type * as ir from '../../ir/index.js'
import { accumulateEvents } from '../../stream/accumulate.js'
import type { CheckFormat, Exchange } from './wire.js'

export interface Turn {
  text: string
  /** Arguments parsed (an object, or the raw string when it is not JSON). */
  calls: { id?: string; name?: string; args: unknown }[]
  reasoning: { text: string }[]
  /** Thinking signatures, encrypted reasoning, Gemini thought signatures: what the next turn must send back. */
  signatures: string[]
  finish?: string
}

/** Signature-like values in a part's provider data (the library keeps them per format, or unwrapped envelopes). */
function signaturesIn(data: ir.ProviderData | undefined): string[] {
  const found: string[] = []
  for (const own of Object.values(data ?? {})) {
    if (typeof own !== 'object' || own === null) continue
    const record = own as Record<string, unknown>
    const item = record.item as Record<string, unknown> | undefined
    for (const value of [record.signature, record.thoughtSignature, record.data, item?.encrypted_content])
      if (typeof value === 'string' && value !== '') found.push(value)
  }
  return found
}

export function turnOfResponse(response: ir.Response): Turn {
  const turn: Turn = { text: '', calls: [], reasoning: [], signatures: [] }
  if (response.finishReason.raw !== undefined) turn.finish = response.finishReason.raw
  for (const part of response.content) {
    if (part.type === 'text') turn.text += part.text
    else if (part.type === 'tool-call') {
      let args: unknown = part.arguments
      try {
        args = JSON.parse(part.arguments)
      } catch {}
      turn.calls.push({ id: part.id, name: part.name, args })
    } else if (part.type === 'reasoning') turn.reasoning.push({ text: part.text })
    if ('providerData' in part) turn.signatures.push(...signaturesIn(part.providerData))
  }
  return turn
}

/** The answer as the library's decoders read it, or why they could not. */
export function libraryTurn(format: CheckFormat, exchange: Exchange): Turn | string {
  try {
    if (exchange.events) return turnOfResponse(accumulateEvents(exchange.events))
    return turnOfResponse(getFormat(format).decodeResponse(exchange.json).value)
  } catch (error) {
    return `not a valid ${format} answer: ${(error as Error).message}`
  }
}
