/**
 * Gemini `streamGenerateContent?alt=sse` → IR stream events. @see wire-formats.md §3.8, §4.3, §5.10
 *
 * Each SSE `data` is a complete GenerateContentResponse carrying only the new parts. Consecutive text parts of the
 * same kind (thought or not) continue one block; a change of kind ends it. A `functionCall` arrives whole: it becomes
 * tool-call-start, one delta with the JSON arguments, and tool-call-end. `thoughtSignature` on any part rides on that
 * part's event as `providerData['content-generation'].thoughtSignature`. `usageMetadata` is a running total (latest
 * wins). Only candidate 0 is read (interlingua streams one choice). Bad vendor data becomes an `error` event; nothing
 * follows an error.
 */
import type * as ir from '../../ir/index.js'
import { isRecord as isObject } from '../../shared/is-record.js'
import { generateToolCallId } from '../../shared/tool-ids.js'
import { plainString } from '../../stream/quick-json.js'
import { type StreamStep, stepToTransformStream } from '../../stream/step.js'
import type { SseMessage } from '../format.js'
import { decodeError } from './errors.js'
import { toFinishReason } from './finish-reason.js'
import { attachCitations, groundingSearch } from './grounding.js'
import { type ContentGenerationUsage, decodeUsage } from './usage.js'

type Json = Record<string, unknown>

function signatureData(part: Json): ir.ProviderData | undefined {
  return typeof part.thoughtSignature === 'string'
    ? { 'content-generation': { thoughtSignature: part.thoughtSignature } }
    : undefined
}

/**
 * The hottest chunk, one plain text part (`content` in either key order) with a flat `usageMetadata`, read without
 * parsing the whole chunk (see quick-json.ts): only the usage object, when present, goes through `JSON.parse` (and is
 * parsed again only when its text changes). Taken once the stream has started; anything else takes the general path.
 */
const quickText = new RegExp(
  `^\\{"candidates":\\[\\{"content":\\{(?:"parts":\\[\\{"text":"(${plainString})"\\}\\],"role":"model"|` +
    `"role":"model","parts":\\[\\{"text":"(${plainString})"\\}\\])\\},"index":0\\}\\]` +
    `(?:,"usageMetadata":(\\{[^{}\\[\\]]*\\}))?,"modelVersion":"${plainString}"(?:,"responseId":"${plainString}")?\\}$`,
)

export function decodeStreamStep(): StreamStep<SseMessage, ir.StreamEvent> {
  let started = false
  let done = false
  let next = 0
  let open: { kind: 'text' | 'reasoning'; index: number } | undefined
  let calls = 0
  let sawCall = false
  let usage: ir.Usage | undefined
  let id = ''
  let pendingFinish: ir.FinishReason | undefined
  /** Grounding: whether its search was sent, and the citations for the open text block's end. */
  let searched = false
  let citations: ir.Citation[] | undefined
  // The last usageMetadata text the quick path parsed, and its value.
  let usageText: string | undefined
  let usageWire: Json | undefined

  const fail = (out: ir.StreamEvent[], error: ir.ErrorInfo) => {
    closeOpen(out)
    out.push({ type: 'error', error })
    done = true
  }
  const closeOpen = (out: ir.StreamEvent[], providerData?: ir.ProviderData) => {
    if (!open) return
    const end: ir.TextEndEvent | ir.ReasoningEndEvent = {
      type: open.kind === 'text' ? 'text-end' : 'reasoning-end',
      index: open.index,
    }
    if (providerData) end.providerData = providerData
    if (citations && end.type === 'text-end') end.citations = citations
    citations = undefined
    out.push(end)
    open = undefined
  }

  /** A text or thought part's text (after its kind and signature were read). */
  const textPart = (
    out: ir.StreamEvent[],
    kind: 'text' | 'reasoning',
    text: string,
    providerData?: ir.ProviderData,
  ) => {
    if (open && open.kind !== kind) closeOpen(out)
    if (text === '') {
      // An empty part carrying only a signature attaches it to the open block (or ends a block with it).
      if (providerData && open)
        out.push({
          type: open.kind === 'text' ? 'text-delta' : 'reasoning-delta',
          index: open.index,
          text: '',
          providerData,
        })
      else if (providerData && !open) {
        const index = next++
        out.push({ type: kind === 'text' ? 'text-start' : 'reasoning-start', index, providerData })
        out.push({ type: kind === 'text' ? 'text-end' : 'reasoning-end', index })
      }
      return
    }
    if (!open) {
      open = { kind, index: next++ }
      out.push({ type: kind === 'text' ? 'text-start' : 'reasoning-start', index: open.index })
    }
    const delta: ir.TextDeltaEvent | ir.ReasoningDeltaEvent = {
      type: kind === 'text' ? 'text-delta' : 'reasoning-delta',
      index: open.index,
      text,
    }
    if (providerData) delta.providerData = providerData
    out.push(delta)
  }
  // The wire object `usage` was decoded from: the quick path hands the same parsed object again while the running
  // total is unchanged, and its decoding is reused.
  let usageFrom: Json | undefined
  const usageMetadata = (out: ir.StreamEvent[], wire: Json) => {
    if (wire !== usageFrom) {
      usage = decodeUsage(wire as ContentGenerationUsage)
      usageFrom = wire
    }
    if (usage) out.push({ type: 'usage', usage: { ...usage } })
  }
  /** Google Search grounding (grounding.ts): the search once, its citations on the open text block (no offsets). */
  const grounding = (out: ir.StreamEvent[], metadata: Json) => {
    const search = searched ? undefined : groundingSearch(metadata, `${id}_search0`)
    if (search) {
      searched = true
      out.push({ type: 'web-search', part: search })
    }
    if (open?.kind !== 'text') return
    const holder: ir.TextPart = { type: 'text', text: '' }
    attachCitations(metadata, [holder], true)
    if (holder.citations) citations = holder.citations
  }
  /** The quick path: true when it decoded the chunk. */
  const quick = (data: string, out: ir.StreamEvent[]): boolean => {
    const match = quickText.exec(data)
    if (match === null) return false
    const wireText = match[3]
    if (wireText !== undefined && wireText !== usageText) {
      try {
        usageWire = JSON.parse(wireText) as Json
      } catch {
        return false
      }
      usageText = wireText
    }
    textPart(out, 'text', (match[1] ?? match[2]) as string)
    if (wireText !== undefined) usageMetadata(out, usageWire as Json)
    return true
  }

  return {
    push(message, out) {
      if (done) return
      if (started && quick(message.data, out)) return
      let chunk: unknown
      try {
        chunk = JSON.parse(message.data)
      } catch {
        fail(out, {
          code: 'upstream',
          status: 502,
          message: 'content-generation stream: malformed JSON in an SSE event',
        })
        return
      }
      if (!isObject(chunk)) {
        fail(out, {
          code: 'upstream',
          status: 502,
          message: 'content-generation stream: an SSE event is not a JSON object',
        })
        return
      }
      if (isObject(chunk.error)) {
        const code = typeof chunk.error.code === 'number' ? chunk.error.code : 500
        fail(out, decodeError(code >= 400 && code <= 599 ? code : 500, chunk))
        return
      }
      if (!started) {
        started = true
        id =
          typeof chunk.responseId === 'string'
            ? chunk.responseId
            : generateToolCallId('resp_', message.data.slice(0, 64))
        const start: ir.MessageStartEvent = {
          type: 'message-start',
          id,
          model: typeof chunk.modelVersion === 'string' ? chunk.modelVersion : '',
        }
        // Gemini reports the prompt's count from the first chunk on: clients that read input tokens at the start of a
        // stream (LangChain's Anthropic client reads message_start only) get the real number (issue 10 §6).
        const known = isObject(chunk.usageMetadata)
          ? decodeUsage(chunk.usageMetadata as ContentGenerationUsage)
          : undefined
        if (known && known.inputTokens > 0) {
          start.usage = { inputTokens: known.inputTokens }
          if (known.cachedInputTokens !== undefined) start.usage.cachedInputTokens = known.cachedInputTokens
        }
        out.push(start)
      }
      const candidate =
        Array.isArray(chunk.candidates) && isObject(chunk.candidates[0]) ? chunk.candidates[0] : undefined
      const content = candidate && isObject(candidate.content) ? candidate.content : undefined
      const parts = content && Array.isArray(content.parts) ? content.parts : []
      for (const part of parts) {
        if (!isObject(part)) continue
        const providerData = signatureData(part)
        if (isObject(part.functionCall)) {
          closeOpen(out)
          const call = part.functionCall
          const name = typeof call.name === 'string' ? call.name : ''
          const index = next++
          const callId =
            typeof call.id === 'string' && call.id ? call.id : generateToolCallId('call_', `${id}:${calls}:${name}`)
          calls++
          sawCall = true
          const own: Json = { ...(providerData?.['content-generation'] ?? {}) }
          if (typeof call.id === 'string' && call.id) own.id = call.id
          const start: ir.StreamEvent = { type: 'tool-call-start', index, id: callId, name }
          if (Object.keys(own).length > 0) start.providerData = { 'content-generation': own }
          out.push(start)
          out.push({
            type: 'tool-call-delta',
            index,
            argumentsDelta: JSON.stringify(isObject(call.args) ? call.args : {}),
          })
          out.push({ type: 'tool-call-end', index })
          continue
        }
        if (typeof part.text === 'string')
          textPart(out, part.thought === true ? 'reasoning' : 'text', part.text, providerData)
      }
      if (candidate && isObject(candidate.groundingMetadata)) grounding(out, candidate.groundingMetadata)
      if (isObject(chunk.usageMetadata)) usageMetadata(out, chunk.usageMetadata)
      const finishRaw = candidate && typeof candidate.finishReason === 'string' ? candidate.finishReason : undefined
      const blocked =
        !candidate && isObject(chunk.promptFeedback) && typeof chunk.promptFeedback.blockReason === 'string'
      if (finishRaw || blocked) {
        closeOpen(out)
        const finishReason: ir.FinishReason = blocked
          ? {
              unified: 'content-filter',
              raw: String((chunk.promptFeedback as Json).blockReason),
              rawFormat: 'content-generation',
            }
          : toFinishReason(finishRaw, sawCall)
        // Held until the stream ends: a trailing chunk may still carry the final usage.
        pendingFinish = finishReason
      }
    },
    end(out) {
      if (done) return
      if (pendingFinish) {
        const finish: ir.StreamEvent = { type: 'finish', finishReason: pendingFinish }
        if (usage) finish.usage = usage
        out.push(finish)
        return
      }
      if (!started) out.push({ type: 'message-start', id: generateToolCallId('resp_', 'empty'), model: '' })
      fail(out, {
        code: 'upstream',
        status: 502,
        message: 'content-generation stream ended before a finishReason',
      })
    },
  }
}

export function createDecodeStream(): TransformStream<SseMessage, ir.StreamEvent> {
  return stepToTransformStream(decodeStreamStep())
}
