/**
 * IR stream events → Gemini `streamGenerateContent?alt=sse` frames. @see wire-formats.md §3.8, §4.3, §5.10
 *
 * Every frame is `data: <complete GenerateContentResponse>` — never an `event:` line, never `[DONE]` (the
 * @google/genai SDK ignores the former and throws on the latter). Text and thought deltas are sent as they come; a
 * tool call's argument fragments are buffered (only that call's) and sent as one `functionCall` part at its end,
 * because Gemini sends calls whole. Our own `thoughtSignature` is written on the part it belongs to; another
 * provider's signature rides in an envelope in the same field (policy 3). The last
 * frame carries `finishReason` (`STOP` for tool turns, as the service does) and the final `usageMetadata`. An error
 * becomes `{"error":{"code":<HTTP status>,…}}`, which the SDK raises as ApiError; nothing follows it.
 */
import type * as ir from '../../ir/index.js'
import { envelopeFor } from '../../shared/reasoning-envelope.js'
import { jsonFrame } from '../../stream/sse-encode.js'
import { type StreamStep, stepToTransformStream } from '../../stream/step.js'
import type { EncodeStreamOptions, SseFrame } from '../format.js'
import { encodeError } from './errors.js'
import { fromFinishReason } from './finish-reason.js'
import { encodeUsage } from './usage.js'

type Json = Record<string, unknown>
const F = 'content-generation'

/** The hot text frame up to its JSON string. */
const textFrameHead = '{"candidates":[{"content":{"role":"model","parts":[{"text":'

interface PendingCall {
  name: string
  args: string
  signature?: string
  geminiId?: string
}

/** Our own thoughtSignature, or another provider's signature in an envelope (policy 3). */
function ownSignature(providerData: ir.ProviderData | undefined): string | undefined {
  const value = providerData?.['content-generation']?.thoughtSignature
  return typeof value === 'string' ? value : envelopeFor(providerData, 'content-generation')
}

export function encodeStreamStep(_options: EncodeStreamOptions = {}): StreamStep<ir.StreamEvent, SseFrame> {
  let id = ''
  let model = ''
  let usage: Partial<ir.Usage> | undefined
  let ended = false
  const kinds = new Map<number, 'text' | 'reasoning'>()
  const signatures = new Map<number, string>()
  const calls = new Map<number, PendingCall>()

  const frame = (parts: Json[], finishReason?: string): SseFrame => {
    const candidate: Json = { content: { role: 'model', parts }, index: 0 }
    if (finishReason) candidate.finishReason = finishReason
    const body: Json = { candidates: [candidate] }
    if (usage) body.usageMetadata = encodeUsage(usage)
    body.modelVersion = model
    body.responseId = id
    return jsonFrame(undefined, JSON.stringify(body))
  }
  // A frame's members after `candidates` (usage, model, id), kept until one of them changes: the hot text frame is
  // written from it directly, the same bytes as `frame` (same key order).
  let tail: string | undefined
  // What follows a hot text frame's JSON string: the part's end (with `"thought":true` for a thought) and the tail.
  let textEnd: string | undefined
  let thoughtEnd: string | undefined
  const frameTail = (): string => {
    tail ??=
      `${usage ? `,"usageMetadata":${JSON.stringify(encodeUsage(usage))}` : ''}` +
      `,"modelVersion":${JSON.stringify(model)},"responseId":${JSON.stringify(id)}}`
    return tail
  }
  const textFrameEnd = (index: number): string => {
    if (kinds.get(index) === 'reasoning') {
      thoughtEnd ??= `,"thought":true}]},"index":0}]${frameTail()}`
      return thoughtEnd
    }
    textEnd ??= `}]},"index":0}]${frameTail()}`
    return textEnd
  }
  const invalidateTail = () => {
    tail = undefined
    textEnd = undefined
    thoughtEnd = undefined
  }
  const textPart = (index: number, text: string, providerData?: ir.ProviderData): Json => {
    const part: Json = { text }
    if (kinds.get(index) === 'reasoning') part.thought = true
    const signature = ownSignature(providerData) ?? signatures.get(index)
    if (signature) {
      part.thoughtSignature = signature
      signatures.delete(index)
    }
    return part
  }

  return {
    push(event, out) {
      if (ended) return
      switch (event.type) {
        case 'message-start':
          id = event.id
          model = event.model
          if (event.usage) usage = { ...event.usage }
          invalidateTail()
          return
        case 'text-start':
        case 'reasoning-start': {
          kinds.set(event.index, event.type === 'text-start' ? 'text' : 'reasoning')
          // A redacted block: an empty thought whose envelope holds the data (a Gemini client replays it).
          const redacted = event.type === 'reasoning-start' ? event.redactedData : undefined
          const signature =
            redacted === undefined ? ownSignature(event.providerData) : envelopeFor(event.providerData, F, redacted)
          if (signature) signatures.set(event.index, signature)
          return
        }
        case 'text-delta':
        case 'reasoning-delta':
          if (event.providerData === undefined && !signatures.has(event.index)) {
            if (event.text === '') return
            out.push(jsonFrame(undefined, textFrameHead + JSON.stringify(event.text) + textFrameEnd(event.index)))
            return
          }
          if (event.text === '' && !ownSignature(event.providerData)) return
          out.push(frame([textPart(event.index, event.text, event.providerData)]))
          return
        case 'text-end':
        case 'reasoning-end': {
          const signature = ownSignature(event.providerData) ?? signatures.get(event.index)
          if (signature) {
            signatures.set(event.index, signature)
            out.push(frame([textPart(event.index, '')]))
          }
          kinds.delete(event.index)
          signatures.delete(event.index)
          return
        }
        case 'tool-call-start': {
          const call: PendingCall = { name: event.name, args: '' }
          const signature = ownSignature(event.providerData)
          if (signature) call.signature = signature
          const geminiId = event.providerData?.['content-generation']?.id
          if (typeof geminiId === 'string') call.geminiId = geminiId
          calls.set(event.index, call)
          return
        }
        case 'tool-call-delta': {
          const call = calls.get(event.index)
          if (call) call.args += event.argumentsDelta
          return
        }
        case 'tool-call-end': {
          const call = calls.get(event.index)
          if (!call) return
          calls.delete(event.index)
          let args: unknown = {}
          try {
            const parsed: unknown = call.args.trim() === '' ? {} : JSON.parse(call.args)
            if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed
          } catch {
            // Truncated or invalid arguments (e.g. a length stop): Gemini needs an object, so `{}`.
          }
          const functionCall: Json = { name: call.name, args }
          if (call.geminiId) functionCall.id = call.geminiId
          const part: Json = { functionCall }
          const signature = ownSignature(event.providerData) ?? call.signature
          if (signature) part.thoughtSignature = signature
          out.push(frame([part]))
          return
        }
        case 'usage':
          usage = { ...usage, ...event.usage }
          invalidateTail()
          return
        case 'finish':
          if (event.usage) usage = event.usage
          out.push(frame([{ text: '' }], fromFinishReason(event.finishReason)))
          ended = true
          return
        case 'error': {
          const { status, body } = encodeError(event.error)
          const error = (body as { error?: Json }).error ?? {}
          out.push(
            jsonFrame(
              undefined,
              JSON.stringify({ error: { ...error, code: status >= 400 && status <= 599 ? status : 500 } }),
            ),
          )
          ended = true
          return
        }
        case 'ping':
          // Real Gemini never sends SSE comments, and @google/genai 1.x stalls on one: a ping is not written.
          return
      }
    },
    end(out) {
      if (ended) return
      out.push(frame([{ text: '' }], 'STOP'))
    },
  }
}

export function createEncodeStream(options?: EncodeStreamOptions): TransformStream<ir.StreamEvent, SseFrame> {
  return stepToTransformStream(encodeStreamStep(options))
}
