/**
 * IR stream events → Responses SSE (responses-api.md §6.3, §6.4, §9.7), a grammar every probed client accepts:
 *
 *     response.created  response.in_progress  item*  (response.completed | response.incomplete | response.failed)  [DONE]
 *
 * - Every item gets `output_item.added` (with its `id`, empty content / `summary: []` / `arguments: ""`) and
 *   `output_item.done` (complete); `output_index` is dense in `added` order; every item-scoped event carries
 *   `item_id`, and `sequence_number` increases by one per event.
 * - Text: one message item per IR text block, `content_part.added` before the first delta. A block flagged as a
 *   refusal (`providerData['chat-completions'].refusal`) streams as a `refusal` part.
 * - Reasoning: a reasoning item whose text streams as `reasoning_summary_text` (one summary part); its
 *   `encrypted_content` (the policy-3 envelope of another provider's signature) is written in `output_item.done`,
 *   because Anthropic's signature arrives at the end of the block. A Gemini signature on a function call goes in a
 *   reasoning item just before that call.
 * - The terminal event's `response` has the same `id` as `response.created`, the full `output` and `usage` with
 *   every integer field.
 * - `error` → `event: error` (flat, with `sequence_number`), then `response.failed` with the output so far, then
 *   `[DONE]`; codes Codex understands (errors.ts).
 */
import type * as ir from '../../ir/index.js'
import { forwardStep } from '../../stream/forward.js'
import { jsonFrame } from '../../stream/sse-encode.js'
import { type StreamStep, stepToTransformStream } from '../../stream/step.js'
import type { EncodeStreamOptions, SseFrame, SseMessage } from '../format.js'
import { ResponsesDecoder } from './decode-stream.js'
import { attachItem } from './encode-items.js'
import { applyStatus, responseShell } from './encode-response.js'
import { streamErrorCode, streamErrorMessage } from './errors.js'
import { closeItem, type OpenItem } from './item-done.js'
import { LongTexts } from './long-text.js'
import {
  callOutputItem,
  itemIdMaker,
  messageItem,
  outputTextPart,
  responseIdOf,
  webSearchItem,
} from './output-items.js'
import { attachEnvelope, mergeData } from './reasoning.js'
import { type CallName, callNames } from './tool-names.js'
import { encodeUsage } from './usage.js'

type Wire = Record<string, unknown>

const isRefusal = (providerData: ir.ProviderData | undefined) => providerData?.['chat-completions']?.refusal === true

export class ResponsesEncoder implements StreamStep<ir.StreamEvent, SseFrame> {
  private started = false
  private ended = false
  private sequence = 0
  private shell: Wire = {}
  private nextId: (prefix: string) => string = itemIdMaker('')
  private readonly open = new Map<number, OpenItem>()
  /** Finished items by output index. */
  private readonly done: Wire[] = []
  private outputCount = 0
  private usage: Partial<ir.Usage> = {}
  private readonly longTexts: LongTexts

  /**
   * `names`: the request's custom tools (their calls stream as `custom_tool_call` items) and namespace functions;
   * `onResponse`: called with the response of a `response.completed` / `response.incomplete` event.
   */
  constructor(
    private readonly names: ReadonlyMap<string, CallName> = new Map(),
    private readonly onResponse?: (response: Wire) => void,
  ) {
    this.longTexts = new LongTexts(onResponse !== undefined)
  }

  push(event: ir.StreamEvent, out: SseFrame[]): void {
    if (this.ended) return
    if (event.type === 'ping') {
      out.push({ comment: 'keepalive' })
      return
    }
    if (event.type === 'message-start') {
      if (!this.started) this.start(out, event)
      if (event.usage) Object.assign(this.usage, event.usage)
      return
    }
    if (!this.started) this.start(out, undefined)
    switch (event.type) {
      case 'text-start': {
        const refusal = isRefusal(event.providerData)
        const part: ir.TextPart | ir.RefusalPart = { type: refusal ? 'refusal' : 'text', text: '' }
        if (event.providerData) part.providerData = event.providerData
        const attach = attachEnvelope(event.providerData)
        if (attach) this.standalone(out, attachItem(attach, this.nextId('rs')))
        const item = this.openItem(out, event.index, refusal ? 'refusal' : 'text', part, 'msg')
        item.chunks = []
        const message = messageItem(item.id, [], 'in_progress')
        this.emit(out, 'response.output_item.added', { output_index: item.outputIndex, item: message })
        const empty = refusal ? { type: 'refusal', refusal: '' } : outputTextPart({ type: 'text', text: '' })
        this.emit(out, 'response.content_part.added', {
          item_id: item.id,
          output_index: item.outputIndex,
          content_index: 0,
          part: empty,
        })
        return
      }
      case 'text-delta': {
        const item = this.open.get(event.index)
        if (!item || (item.kind !== 'text' && item.kind !== 'refusal')) return
        item.part.providerData = mergeData(item.part.providerData, event.providerData)
        if (event.text === '') return
        item.chunks?.push(event.text)
        item.length = (item.length ?? 0) + event.text.length
        // The hottest frame, written directly: the same bytes as `emit` (same key order), one JSON.stringify of the
        // delta instead of two spreads and a stringify of the whole object.
        const type = item.kind === 'refusal' ? 'response.refusal.delta' : 'response.output_text.delta'
        item.deltaScope ??= `,"item_id":${JSON.stringify(item.id)},"output_index":${item.outputIndex},"content_index":0,"delta":`
        const data =
          `{"type":"${type}","sequence_number":${this.sequence++}${item.deltaScope}${JSON.stringify(event.text)}` +
          `${item.kind === 'refusal' ? '' : ',"logprobs":[]'}}`
        out.push(jsonFrame(type, data))
        return
      }
      case 'reasoning-start': {
        const part: ir.ReasoningPart | ir.RedactedReasoningPart =
          event.redactedData === undefined
            ? { type: 'reasoning', text: '' }
            : { type: 'redacted-reasoning', data: event.redactedData }
        if (event.providerData) part.providerData = event.providerData
        const item = this.openItem(out, event.index, 'reasoning', part, 'rs')
        this.emit(out, 'response.output_item.added', {
          output_index: item.outputIndex,
          item: { id: item.id, type: 'reasoning', summary: [] },
        })
        return
      }
      case 'reasoning-delta': {
        const item = this.open.get(event.index)
        if (item?.part.type !== 'reasoning') return
        item.part.providerData = mergeData(item.part.providerData, event.providerData)
        if (event.text === '') return
        const scope = { item_id: item.id, output_index: item.outputIndex, summary_index: 0 }
        if (!item.summaryOpen) {
          item.summaryOpen = true
          this.emit(out, 'response.reasoning_summary_part.added', {
            ...scope,
            part: { type: 'summary_text', text: '' },
          })
        }
        item.part.text += event.text
        this.emit(out, 'response.reasoning_summary_text.delta', { ...scope, delta: event.text })
        return
      }
      case 'tool-call-start': {
        const part: ir.ToolCallPart = { type: 'tool-call', id: event.id, name: event.name, arguments: '' }
        if (event.providerData) part.providerData = event.providerData
        // A Gemini signature rides a reasoning item just before its call (Gemini sends calls whole, signature on start).
        const attach = attachEnvelope(event.providerData)
        if (attach) this.standalone(out, attachItem(attach, this.nextId('rs')))
        const item = this.openItem(out, event.index, 'tool-call', part, 'fc')
        const added = callOutputItem(part, item.id, 'in_progress', this.names)
        if (added.type === 'function_call') added.arguments = ''
        else added.input = ''
        this.emit(out, 'response.output_item.added', { output_index: item.outputIndex, item: added })
        return
      }
      case 'tool-call-delta': {
        const item = this.open.get(event.index)
        if (item?.part.type !== 'tool-call') return
        item.part.providerData = mergeData(item.part.providerData, event.providerData)
        if (event.argumentsDelta === '') return
        item.part.arguments += event.argumentsDelta
        // Custom tool input is not JSON: it is written whole at the end.
        if (item.part.providerData?.responses?.custom === true || this.names.get(item.part.name)?.custom === true)
          return
        this.emit(out, 'response.function_call_arguments.delta', {
          item_id: item.id,
          output_index: item.outputIndex,
          delta: event.argumentsDelta,
        })
        return
      }
      case 'text-end':
      case 'reasoning-end':
      case 'tool-call-end': {
        const item = this.open.get(event.index)
        if (!item) return
        item.part.providerData = mergeData(item.part.providerData, event.providerData)
        if (event.type === 'text-end' && event.citations && item.part.type === 'text')
          item.part.citations = [...(item.part.citations ?? []), ...event.citations]
        this.close(out, event.index, item)
        return
      }
      case 'web-search':
        this.webSearch(out, event.part)
        return
      case 'usage':
        Object.assign(this.usage, event.usage)
        return
      case 'finish':
        if (event.usage) Object.assign(this.usage, event.usage)
        this.finish(out, event.finishReason)
        return
      case 'error':
        this.fail(out, event.error)
        return
    }
  }

  /**
   * Continues a stream whose earlier frames were written by someone else (a same-format stream forwarded as it came):
   * the response `start` was announced, `sequence` is the next sequence number and `items` the complete items already
   * sent (by `output_index`), which a `response.failed` lists as the output so far.
   */
  resume(start: ir.MessageStartEvent, sequence: number, items: readonly Wire[] = []): void {
    for (let i = 0; i < items.length; i++) if (items[i]) this.done[i] = items[i] as Wire
    this.sequence = sequence
    this.begin(start)
  }

  end(out: SseFrame[]): void {
    if (this.ended) return
    if (!this.started) this.start(out, undefined)
    this.finish(out, { unified: 'stop' })
  }

  private emit(out: SseFrame[], type: string, payload: Wire): void {
    out.push(this.longTexts.frame(type, JSON.stringify({ type, sequence_number: this.sequence++, ...payload })))
  }

  /** The response id, item ids and shell of a stream that starts (or resumes) with `event`. */
  private begin(event: ir.MessageStartEvent | undefined): void {
    this.started = true
    const id = responseIdOf(event?.id || '')
    this.nextId = itemIdMaker(id)
    this.shell = responseShell(id, event?.model ?? '', event?.created ?? Math.floor(Date.now() / 1000))
  }

  private start(out: SseFrame[], event: ir.MessageStartEvent | undefined): void {
    this.begin(event)
    this.emit(out, 'response.created', { response: { ...this.shell } })
    this.emit(out, 'response.in_progress', { response: { ...this.shell } })
  }

  private openItem(
    out: SseFrame[],
    index: number,
    kind: OpenItem['kind'],
    part: OpenItem['part'],
    prefix: string,
  ): OpenItem {
    const previous = this.open.get(index)
    if (previous) this.close(out, index, previous)
    const item: OpenItem = { outputIndex: this.outputCount++, id: this.nextId(prefix), kind, part }
    this.open.set(index, item)
    return item
  }

  /** A web search the provider ran: its item added, the search's progress events, and done. */
  private webSearch(out: SseFrame[], part: ir.WebSearchPart): void {
    const outputIndex = this.outputCount++
    const id = this.nextId('ws')
    const item = webSearchItem(part, id)
    this.emit(out, 'response.output_item.added', {
      output_index: outputIndex,
      item: { ...item, status: 'in_progress' },
    })
    const scope = { output_index: outputIndex, item_id: id }
    this.emit(out, 'response.web_search_call.in_progress', scope)
    this.emit(out, 'response.web_search_call.searching', scope)
    this.emit(out, 'response.web_search_call.completed', scope)
    this.emit(out, 'response.output_item.done', { output_index: outputIndex, item })
    this.done[outputIndex] = item
  }

  /** An item with no body (a signature carrier): added and done at once. */
  private standalone(out: SseFrame[], item: Wire): void {
    const outputIndex = this.outputCount++
    this.emit(out, 'response.output_item.added', {
      output_index: outputIndex,
      item: { id: item.id, type: 'reasoning', summary: [] },
    })
    this.emit(out, 'response.output_item.done', { output_index: outputIndex, item })
    this.done[outputIndex] = item
  }

  private close(out: SseFrame[], index: number, item: OpenItem): void {
    this.open.delete(index)
    const complete = closeItem((type, payload) => this.emit(out, type, payload), item, this.names, this.longTexts)
    this.emit(out, 'response.output_item.done', { output_index: item.outputIndex, item: complete })
    this.done[item.outputIndex] = complete
  }

  private closeAll(out: SseFrame[]): void {
    for (const [index, item] of [...this.open.entries()].sort((a, b) => a[1].outputIndex - b[1].outputIndex))
      this.close(out, index, item)
  }

  private finish(out: SseFrame[], reason: ir.FinishReason): void {
    this.closeAll(out)
    const response: Wire = { ...this.shell }
    applyStatus(response, reason, Math.floor(Date.now() / 1000))
    const type =
      response.status === 'incomplete'
        ? 'response.incomplete'
        : response.status === 'failed'
          ? 'response.failed'
          : 'response.completed'
    this.terminal(out, type, response)
  }

  private fail(out: SseFrame[], error: ir.ErrorInfo): void {
    this.closeAll(out)
    const code = streamErrorCode(error)
    const message = streamErrorMessage(error)
    this.emit(out, 'error', { code, message, param: error.param ?? null })
    this.terminal(out, 'response.failed', { ...this.shell, status: 'failed', error: { code, message } })
  }

  /** The terminal event (the output so far and the usage on its response), then `[DONE]`. */
  private terminal(out: SseFrame[], type: string, response: Wire): void {
    response.output = this.done.filter(Boolean)
    response.usage = encodeUsage(this.usage)
    this.emit(out, type, { response })
    out.push({ data: '[DONE]' })
    this.ended = true
    if (this.onResponse && type !== 'response.failed') this.onResponse(this.longTexts.materialize(response))
  }
}

/**
 * A same-format Responses stream, forwarded as it came: `decoder` validates it, and an error is written after the
 * forwarded frames (same response id, the next sequence number), then `response.failed` — whose `output` lists the
 * items the stream completed (`output_item.done`) before it broke; an item cut before its `done` is not in it — and
 * `[DONE]`.
 */
export function forwardResponsesStep(): StreamStep<SseMessage, string> {
  const decoder = new ResponsesDecoder()
  decoder.doneItems = []
  return forwardStep(decoder, (error, out) => {
    const encoder = new ResponsesEncoder()
    if (decoder.startEvent) encoder.resume(decoder.startEvent, decoder.lastSequence + 1, decoder.doneItems)
    encoder.push(error, out)
  })
}

export function encodeStreamStep(options?: EncodeStreamOptions): StreamStep<ir.StreamEvent, SseFrame> {
  return new ResponsesEncoder(callNames(options?.request), options?.onResponse)
}

export function createEncodeStream(options?: EncodeStreamOptions): TransformStream<ir.StreamEvent, SseFrame> {
  return stepToTransformStream(encodeStreamStep(options))
}
