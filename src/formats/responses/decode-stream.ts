/**
 * Responses SSE → IR stream events (responses-api.md §6.5). State is keyed by `output_index` (ids may rotate).
 *
 * - `response.created` → `message-start`. Text: one IR text block per (message item, content part); refusal parts
 *   are text blocks flagged `providerData['chat-completions'].refusal` (the IR stream convention).
 * - Reasoning items → a reasoning block opened at the first summary/reasoning-text delta or at `output_item.done`
 *   (so an envelope holding `redacted_thinking` can still open it as redacted); the envelope's provider data rides
 *   on `reasoning-end`. A carrier of a Gemini signature (reasoning.ts) goes onto the next function call or text.
 * - Function calls → tool-call blocks; arguments from the deltas, or whole from `.done` / `output_item.done` when no
 *   delta came. Custom tool calls → a tool call whose arguments are `{"input": …}`, written once at the end.
 * - `response.completed` / `response.incomplete` / `response.done` → the blocks still open end, then `finish`
 *   with the usage of the terminal `response`. `response.failed`, `error` (flat or nested), a chunk that is not
 *   JSON, or an end without a terminal event → one `error` event, and nothing follows it.
 * - Unknown events, `keepalive`, hosted-tool progress and `[DONE]` are ignored.
 */
import type * as ir from '../../ir/index.js'
import { isRecord } from '../../shared/is-record.js'
import { plainCount, plainString } from '../../stream/quick-json.js'
import { type StreamStep, stepToTransformStream } from '../../stream/step.js'
import type { SseMessage } from '../format.js'
import { reasoningData } from './decode-items.js'
import { decodeError } from './errors.js'
import { toFinishReason } from './finish-reason.js'
import { readEnvelope } from './reasoning.js'
import { decodeUsage } from './usage.js'

type Wire = Record<string, unknown>
const refusalData: ir.ProviderData = { 'chat-completions': { refusal: true } }

/** The hottest event, a text delta in the API's own compact form, read without `JSON.parse` (see quick-json.ts). */
const quickTextDelta = new RegExp(
  `^\\{"type":"response\\.output_text\\.delta","sequence_number":(${plainCount}),"item_id":"${plainString}",` +
    `"output_index":(${plainCount}),"content_index":(${plainCount}),"delta":"(${plainString})","logprobs":\\[\\]` +
    `(?:,"obfuscation":"${plainString}")?\\}$`,
)

interface Block {
  index: number
  kind: 'text' | 'reasoning' | 'tool-call'
  /** Tool calls: whether any argument delta was emitted; custom calls buffer their raw input. */
  sentArguments?: boolean
  custom?: boolean
  input?: string
  callId?: string
}

interface ItemState {
  type: string
  /** Text blocks by content index; the reasoning / tool-call block. */
  parts: Map<number, Block>
  block?: Block
  /** Reasoning: summary parts seen (for "\n\n" between them). */
  summaries?: number
}

/** The `message-start` of a stream's `response` object (`response.created` and its siblings). */
export function startEventOf(response: unknown): ir.MessageStartEvent {
  const body = isRecord(response) ? response : {}
  const start: ir.MessageStartEvent = {
    type: 'message-start',
    id: typeof body.id === 'string' ? body.id : 'resp_stream',
    model: typeof body.model === 'string' ? body.model : '',
  }
  if (typeof body.created_at === 'number') start.created = body.created_at
  return start
}

export class ResponsesDecoder implements StreamStep<SseMessage, ir.StreamEvent> {
  private started = false
  private ended = false
  private nextIndex = 0
  private hasToolCall = false
  private readonly items = new Map<number, ItemState>()
  /** A Gemini signature carried by a reasoning item, for the function call or text block that follows it. */
  private pending: ir.ProviderData | undefined
  /** The last `sequence_number` seen and the `message-start` emitted (for a same-format stream's error tail). */
  lastSequence = -1
  startEvent: ir.MessageStartEvent | undefined
  /** The complete items of `output_item.done` by `output_index`, as they came, when kept (a forwarded stream's tail). */
  doneItems: Wire[] | undefined

  push(message: SseMessage, out: ir.StreamEvent[]): void {
    if (this.ended) return
    const quick = quickTextDelta.exec(message.data)
    if (quick !== null) {
      this.lastSequence = Number(quick[1])
      this.start(out, undefined)
      const item = this.items.get(Number(quick[2]))
      const text = quick[4] as string
      if (item?.type !== 'message' || text === '') return
      out.push({ type: 'text-delta', index: this.textBlock(out, item, Number(quick[3]), false).index, text })
      return
    }
    const data = message.data.trim()
    if (data === '' || data === '[DONE]') return
    let event: unknown
    try {
      event = JSON.parse(data)
    } catch {
      this.fail(out, { code: 'upstream', status: 502, message: 'responses stream: an event is not valid JSON' })
      return
    }
    if (!isRecord(event)) {
      this.fail(out, { code: 'upstream', status: 502, message: 'responses stream: an event is not a JSON object' })
      return
    }
    try {
      this.event(event, out)
    } catch {
      this.fail(out, {
        code: 'upstream',
        status: 502,
        message: `responses stream: malformed ${String(event.type)} event`,
      })
    }
  }

  end(out: ir.StreamEvent[]): void {
    if (this.ended) return
    this.fail(out, {
      code: 'upstream',
      status: 502,
      message: this.started
        ? 'responses stream ended before response.completed'
        : 'responses stream ended without any event',
    })
  }

  private event(event: Wire, out: ir.StreamEvent[]): void {
    const type = String(event.type)
    if (typeof event.sequence_number === 'number') this.lastSequence = event.sequence_number
    if (type === 'error') {
      const inner = isRecord(event.error) ? event.error : event
      const status = typeof inner.status === 'number' ? inner.status : statusOf(inner.code)
      this.fail(out, decodeError(status, { error: inner }))
      return
    }
    if (type === 'response.created' || type === 'response.in_progress' || type === 'response.queued') {
      this.start(out, event.response)
      return
    }
    this.start(out, event.response)
    if (type === 'response.failed') {
      const response = isRecord(event.response) ? event.response : {}
      const error = isRecord(response.error) ? response.error : { message: 'The upstream response failed' }
      this.fail(out, decodeError(statusOf(error.code), { error }))
      return
    }
    if (type === 'response.completed' || type === 'response.incomplete' || type === 'response.done') {
      this.terminal(out, isRecord(event.response) ? event.response : {})
      return
    }
    const outputIndex = typeof event.output_index === 'number' ? event.output_index : -1
    switch (type) {
      case 'response.output_item.added':
        if (isRecord(event.item)) this.added(out, outputIndex, event.item)
        return
      case 'response.content_part.added': {
        const item = this.items.get(outputIndex)
        const part = isRecord(event.part) ? event.part : {}
        if (item?.type === 'message')
          this.textBlock(out, item, Number(event.content_index ?? 0), part.type === 'refusal')
        return
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        const item = this.items.get(outputIndex)
        if (item?.type !== 'message' || typeof event.delta !== 'string' || event.delta === '') return
        const block = this.textBlock(out, item, Number(event.content_index ?? 0), type === 'response.refusal.delta')
        out.push({ type: 'text-delta', index: block.index, text: event.delta })
        return
      }
      case 'response.reasoning_summary_part.added': {
        const item = this.items.get(outputIndex)
        if (item?.type === 'reasoning') item.summaries = (item.summaries ?? 0) + 1
        return
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const item = this.items.get(outputIndex)
        if (item?.type !== 'reasoning' || typeof event.delta !== 'string') return
        const block = this.reasoningBlock(out, item, undefined)
        const index = Number(event.summary_index ?? event.content_index ?? 0)
        const separator =
          type === 'response.reasoning_summary_text.delta' && index > 0 && !item.parts.has(index) ? '\n\n' : ''
        item.parts.set(index, block)
        if (event.delta !== '' || separator !== '')
          out.push({ type: 'reasoning-delta', index: block.index, text: separator + event.delta })
        return
      }
      case 'response.function_call_arguments.delta': {
        const block = this.items.get(outputIndex)?.block
        if (block?.kind !== 'tool-call' || typeof event.delta !== 'string' || event.delta === '') return
        block.sentArguments = true
        out.push({ type: 'tool-call-delta', index: block.index, argumentsDelta: event.delta })
        return
      }
      case 'response.custom_tool_call_input.delta': {
        const block = this.items.get(outputIndex)?.block
        if (block?.custom && typeof event.delta === 'string') block.input = (block.input ?? '') + event.delta
        return
      }
      case 'response.output_item.done':
        if (isRecord(event.item)) {
          if (this.doneItems) this.doneItems[outputIndex] = event.item
          this.itemDone(out, outputIndex, event.item)
        }
        return
      default:
        return
    }
  }

  private start(out: ir.StreamEvent[], response: unknown): void {
    if (this.started) return
    this.started = true
    const start = startEventOf(response)
    this.startEvent = start
    out.push(start)
  }

  private added(out: ir.StreamEvent[], outputIndex: number, item: Wire): void {
    const state: ItemState = { type: String(item.type), parts: new Map() }
    this.items.set(outputIndex, state)
    if (item.type === 'function_call' || item.type === 'custom_tool_call') {
      const callId = typeof item.call_id === 'string' ? item.call_id : `call_${String(item.id ?? outputIndex)}`
      const block: Block = { index: this.nextIndex++, kind: 'tool-call', callId }
      if (item.type === 'custom_tool_call') block.custom = true
      state.block = block
      this.hasToolCall = true
      const start: ir.ToolCallStartEvent = {
        type: 'tool-call-start',
        index: block.index,
        id: callId,
        name: typeof item.name === 'string' ? item.name : '',
      }
      const providerData: ir.ProviderData = { ...this.pending }
      this.pending = undefined
      if (block.custom) providerData.responses = { custom: true }
      if (Object.keys(providerData).length > 0) start.providerData = providerData
      out.push(start)
    }
  }

  private textBlock(out: ir.StreamEvent[], item: ItemState, contentIndex: number, refusal: boolean): Block {
    let block = item.parts.get(contentIndex)
    if (!block) {
      block = { index: this.nextIndex++, kind: 'text' }
      item.parts.set(contentIndex, block)
      const start: ir.TextStartEvent = { type: 'text-start', index: block.index }
      const providerData = refusal ? { ...refusalData, ...this.pending } : this.pending
      if (providerData) start.providerData = providerData
      this.pending = undefined
      out.push(start)
    }
    return block
  }

  private reasoningBlock(out: ir.StreamEvent[], item: ItemState, redactedData: string | undefined): Block {
    if (!item.block) {
      item.block = { index: this.nextIndex++, kind: 'reasoning' }
      const start: ir.ReasoningStartEvent = { type: 'reasoning-start', index: item.block.index }
      if (redactedData !== undefined) start.redactedData = redactedData
      out.push(start)
    }
    return item.block
  }

  private itemDone(out: ir.StreamEvent[], outputIndex: number, item: Wire): void {
    const state = this.items.get(outputIndex) ?? { type: String(item.type), parts: new Map<number, Block>() }
    if (!this.items.has(outputIndex)) {
      this.items.set(outputIndex, state)
      if (item.type === 'function_call' || item.type === 'custom_tool_call') this.added(out, outputIndex, item)
    }
    if (item.type === 'message') {
      // Parts that arrived whole in the done item (no deltas) still become blocks.
      const content = Array.isArray(item.content) ? item.content : []
      content.forEach((part, j) => {
        if (!isRecord(part) || state.parts.has(j)) return
        const text = part.type === 'refusal' ? part.refusal : part.text
        if (typeof text !== 'string' || text === '') return
        const block = this.textBlock(out, state, j, part.type === 'refusal')
        out.push({ type: 'text-delta', index: block.index, text })
      })
      for (const block of [...state.parts.values()].sort((a, b) => a.index - b.index))
        out.push({ type: 'text-end', index: block.index })
    } else if (item.type === 'reasoning') {
      const carried = readEnvelope(item)
      if (carried?.kind === 'attach') {
        this.pending = carried.providerData
        this.items.delete(outputIndex)
        return
      }
      const summary = Array.isArray(item.summary) ? item.summary : []
      const text = summary
        .map((entry) => (isRecord(entry) && typeof entry.text === 'string' ? entry.text : ''))
        .join('\n\n')
      const fresh = !state.block
      const block = this.reasoningBlock(out, state, carried?.kind === 'redacted' ? carried.data : undefined)
      if (fresh && carried?.kind !== 'redacted' && text !== '')
        out.push({ type: 'reasoning-delta', index: block.index, text })
      const end: ir.ReasoningEndEvent = { type: 'reasoning-end', index: block.index }
      // Our envelope's signatures, or OpenAI's own encrypted reasoning (kept for a Responses upstream only).
      const providerData =
        carried !== undefined
          ? carried.providerData
          : typeof item.encrypted_content === 'string'
            ? reasoningData(item)
            : undefined
      if (providerData) end.providerData = providerData
      out.push(end)
    } else if (state.block?.kind === 'tool-call') {
      const block = state.block
      if (block.custom) {
        const input = typeof item.input === 'string' ? item.input : (block.input ?? '')
        out.push({ type: 'tool-call-delta', index: block.index, argumentsDelta: JSON.stringify({ input }) })
      } else if (!block.sentArguments && typeof item.arguments === 'string' && item.arguments !== '') {
        out.push({ type: 'tool-call-delta', index: block.index, argumentsDelta: item.arguments })
      }
      out.push({ type: 'tool-call-end', index: block.index })
      state.block = undefined
    }
    this.items.delete(outputIndex)
  }

  private terminal(out: ir.StreamEvent[], response: Wire): void {
    // Items the upstream never closed end now, in output order.
    for (const [outputIndex, state] of [...this.items.entries()].sort((a, b) => a[0] - b[0])) {
      const output = Array.isArray(response.output) ? response.output[outputIndex] : undefined
      this.itemDone(out, outputIndex, isRecord(output) ? output : { type: state.type })
    }
    const reason = isRecord(response.incomplete_details) ? response.incomplete_details.reason : undefined
    const finish: ir.FinishEvent = {
      type: 'finish',
      finishReason: toFinishReason(response.status ?? 'completed', reason, this.hasToolCall),
    }
    const usage = decodeUsage(response.usage)
    if (usage) finish.usage = usage
    out.push(finish)
    this.ended = true
  }

  private fail(out: ir.StreamEvent[], error: ir.ErrorInfo): void {
    out.push({ type: 'error', error })
    this.ended = true
  }
}

const statusByCode: Record<string, number> = {
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  context_length_exceeded: 400,
  invalid_prompt: 400,
  invalid_request_error: 400,
  invalid_api_key: 401,
  server_is_overloaded: 503,
}

function statusOf(code: unknown): number {
  return (typeof code === 'string' ? statusByCode[code] : undefined) ?? 500
}

export function decodeStreamStep(): StreamStep<SseMessage, ir.StreamEvent> {
  return new ResponsesDecoder()
}

export function createDecodeStream(): TransformStream<SseMessage, ir.StreamEvent> {
  return stepToTransformStream(decodeStreamStep())
}
