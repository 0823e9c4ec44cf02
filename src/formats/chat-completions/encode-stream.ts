import type * as ir from '../../ir/index.js'
import { newId } from '../../shared/ids.js'
import { jsonFrame } from '../../stream/sse-encode.js'
import { type StreamStep, stepToTransformStream } from '../../stream/step.js'
import type { EncodeStreamOptions, SseFrame } from '../format.js'
import { fromFinishReason } from './finish-reason.js'
import { encodeReasoningCarrier } from './reasoning-carrier.js'
import { encodeUsage } from './usage.js'
import { encodeAnnotations } from './web-search.js'

/**
 * IR stream events → chat-completions SSE frames (`data: <chunk>` only, `[DONE]` at the end, `: ping`
 * comments as keep-alives), in the shape the official `openai` SDK accumulates:
 *
 * - `message-start` → the first chunk, `delta: {role: 'assistant', content: ''}`.
 * - text → `delta.content`; a text block flagged `providerData['chat-completions'].refusal` → `delta.refusal`;
 *   reasoning → `delta.reasoning_content`; tool calls → `delta.tool_calls[{index: <ordinal>, …}]`.
 * - Reasoning blocks and blocks with foreign provider data → ONE `delta.reasoning_details` (the policy-3
 *   carrier, whole) just before the finish chunk, because the SDK keeps only the last value of that field.
 * - `finish` → `delta: {}` + `finish_reason`, then (with `includeUsage`) a `choices: []` usage chunk, then `[DONE]`.
 * - `error` → `data: {"error": {message, type, param, code}}` then `[DONE]`; nothing after it.
 * - Input that ends with neither finish nor error is closed as a `stop` finish.
 *
 * Grammar violations (events before `message-start`, unknown block indices, events after the end) never throw.
 */
export function encodeStreamStep(options?: EncodeStreamOptions): StreamStep<ir.StreamEvent, SseFrame> {
  return new ChunkEncoder(options?.includeUsage === true)
}

export function createEncodeStream(options?: EncodeStreamOptions): TransformStream<ir.StreamEvent, SseFrame> {
  return stepToTransformStream(encodeStreamStep(options))
}

interface BlockRecord {
  part: ir.AssistantPart
  /** Text: where it begins in the message's content (UTF-16 units), for its citations' offsets. */
  offset?: number
  /** chat-completions `tool_calls[].index` (ordinal among tool calls). */
  toolIndex?: number
  refusal?: boolean
}

const done: SseFrame = { data: '[DONE]' }

function isRefusal(providerData: ir.ProviderData | undefined): boolean {
  return providerData?.['chat-completions']?.refusal === true
}

function mergeProviderData(part: ir.AssistantPart, providerData: ir.ProviderData | undefined): void {
  if (!providerData) return
  const merged: ir.ProviderData = { ...part.providerData }
  for (const key of Object.keys(providerData) as ir.FormatId[]) merged[key] = { ...merged[key], ...providerData[key] }
  part.providerData = merged
}

class ChunkEncoder implements StreamStep<ir.StreamEvent, SseFrame> {
  private ended = false
  private id = ''
  private model = ''
  private created = 0
  private started = false
  private readonly blocks = new Map<number, BlockRecord>()
  private toolCount = 0
  private usage: Partial<ir.Usage> = {}
  /** The message content's length so far (UTF-16 units): where the next text begins. */
  private contentLength = 0
  /** A one-delta chunk around its `delta` members (set at start). */
  private head = ''
  private tail = ''
  /** The hot text chunk around its JSON string: `head` + `"content":`, and what follows the string. */
  private contentHead = ''
  private deltaTail = ''

  constructor(private readonly includeUsage: boolean) {}

  push(event: ir.StreamEvent, out: SseFrame[]): void {
    if (this.ended) return
    if (event.type === 'ping') {
      out.push({ comment: 'ping' })
      return
    }
    if (event.type === 'error') {
      out.push(jsonFrame(undefined, JSON.stringify({ error: errorObject(event.error) })))
      out.push(done)
      this.ended = true
      return
    }
    if (event.type === 'message-start') {
      if (this.started) return
      this.start(out, event)
      if (event.usage) Object.assign(this.usage, event.usage)
      return
    }
    if (!this.started) this.start(out, undefined)
    switch (event.type) {
      case 'text-start':
        this.blocks.set(event.index, {
          part: { type: isRefusal(event.providerData) ? 'refusal' : 'text', text: '' },
          refusal: isRefusal(event.providerData),
          offset: this.contentLength,
        })
        this.merge(event.index, event.providerData)
        return
      case 'text-delta': {
        this.merge(event.index, event.providerData)
        if (event.text === '') return
        const refusal = this.blocks.get(event.index)?.refusal ?? isRefusal(event.providerData)
        if (!refusal) this.contentLength += event.text.length
        // The hottest frame, written directly: the same bytes as `delta` (same key order), one JSON.stringify of the
        // text instead of three objects and a stringify of the whole chunk.
        out.push(
          jsonFrame(
            undefined,
            refusal
              ? `${this.head}"refusal":${JSON.stringify(event.text)}${this.deltaTail}`
              : this.contentHead + JSON.stringify(event.text) + this.deltaTail,
          ),
        )
        return
      }
      case 'reasoning-start': {
        const part: ir.AssistantPart =
          event.redactedData === undefined
            ? { type: 'reasoning', text: '' }
            : { type: 'redacted-reasoning', data: event.redactedData }
        this.blocks.set(event.index, { part })
        this.merge(event.index, event.providerData)
        return
      }
      case 'reasoning-delta': {
        this.merge(event.index, event.providerData)
        const part = this.blocks.get(event.index)?.part
        if (part?.type === 'reasoning') part.text += event.text
        if (event.text !== '') this.delta(out, { reasoning_content: event.text })
        return
      }
      case 'tool-call-start': {
        const toolIndex = this.toolCount++
        this.blocks.set(event.index, {
          part: { type: 'tool-call', id: event.id, name: event.name, arguments: '' },
          toolIndex,
        })
        this.merge(event.index, event.providerData)
        this.delta(out, {
          tool_calls: [
            { index: toolIndex, id: event.id, type: 'function', function: { name: event.name, arguments: '' } },
          ],
        })
        return
      }
      case 'tool-call-delta': {
        this.merge(event.index, event.providerData)
        const toolIndex = this.blocks.get(event.index)?.toolIndex
        if (toolIndex === undefined || event.argumentsDelta === '') return
        this.delta(out, { tool_calls: [{ index: toolIndex, function: { arguments: event.argumentsDelta } }] })
        return
      }
      case 'text-end': {
        this.merge(event.index, event.providerData)
        // A search model sends its annotations in a delta of their own, after the text they cite.
        const offset = this.blocks.get(event.index)?.offset
        if (event.citations?.length && offset !== undefined)
          this.delta(out, { annotations: encodeAnnotations(event.citations, offset, this.contentLength - offset) })
        return
      }
      case 'reasoning-end':
      case 'tool-call-end':
        this.merge(event.index, event.providerData)
        return
      case 'usage':
        Object.assign(this.usage, event.usage)
        return
      case 'finish':
        if (event.usage) Object.assign(this.usage, event.usage)
        this.finish(out, event.finishReason)
        return
    }
  }

  end(out: SseFrame[]): void {
    if (this.ended) return
    if (!this.started) this.start(out, undefined)
    this.finish(out, { unified: 'stop' })
  }

  private start(out: SseFrame[], event: ir.MessageStartEvent | undefined): void {
    this.started = true
    this.id = event?.id || newId('chatcmpl-')
    this.model = event?.model ?? ''
    this.created = event?.created ?? Math.floor(Date.now() / 1000)
    this.head = `{"id":${JSON.stringify(this.id)},"object":"chat.completion.chunk","created":${JSON.stringify(this.created)},"model":${JSON.stringify(this.model)},"choices":[{"index":0,"delta":{`
    this.tail = this.includeUsage ? ',"usage":null}' : '}'
    this.contentHead = `${this.head}"content":`
    this.deltaTail = `},"logprobs":null,"finish_reason":null}]${this.tail}`
    // The same bytes as `delta(out, { role: 'assistant', content: '' })`, from the precomputed halves.
    out.push(jsonFrame(undefined, `${this.head}"role":"assistant","content":""${this.deltaTail}`))
  }

  private merge(index: number, providerData: ir.ProviderData | undefined): void {
    const block = this.blocks.get(index)
    if (block && providerData) mergeProviderData(block.part, providerData)
  }

  private chunk(choices: unknown[], usage?: unknown): string {
    const chunk: Record<string, unknown> = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices,
    }
    if (this.includeUsage) chunk.usage = usage ?? null
    return JSON.stringify(chunk)
  }

  private delta(out: SseFrame[], delta: Record<string, unknown>, finishReason: string | null = null): void {
    out.push(jsonFrame(undefined, this.chunk([{ index: 0, delta, logprobs: null, finish_reason: finishReason }])))
  }

  private finish(out: SseFrame[], reason: ir.FinishReason): void {
    const parts = [...this.blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, block]) => block.part)
    const carrier = encodeReasoningCarrier(parts)
    if (carrier.details) this.delta(out, { reasoning_details: carrier.details })
    // The same bytes as `delta(out, {}, finishReason)`.
    const finishReason = JSON.stringify(fromFinishReason(reason, this.toolCount > 0))
    out.push(jsonFrame(undefined, `${this.head}},"logprobs":null,"finish_reason":${finishReason}}]${this.tail}`))
    if (this.includeUsage) {
      const usage: ir.Usage = {
        ...this.usage,
        inputTokens: this.usage.inputTokens ?? 0,
        outputTokens: this.usage.outputTokens ?? 0,
      }
      out.push(jsonFrame(undefined, this.chunk([], encodeUsage(usage))))
    }
    out.push(done)
    this.ended = true
  }
}

function errorType(error: ir.ErrorInfo): string {
  if (error.rawFormat === 'chat-completions' && error.vendorType) return error.vendorType
  if (error.status === 429) return 'rate_limit_error'
  if (error.status >= 500) return 'server_error'
  if (error.status === 401) return 'authentication_error'
  if (error.status === 403) return 'permission_error'
  return 'invalid_request_error'
}

/** The chat-completions error body's `error` object. */
function errorObject(error: ir.ErrorInfo): {
  message: string
  type: string
  param: string | null
  code: string | null
} {
  return {
    message: error.message,
    type: errorType(error),
    param: error.param ?? null,
    code:
      error.rawFormat === 'chat-completions' && error.vendorCode ? error.vendorCode : error.code.replaceAll('-', '_'),
  }
}
