/**
 * IR stream events → Anthropic Messages SSE frames. @see wire-formats.md §2.7, §4.3, §5.10
 *
 * The official SDK needs named events, a `usage` object in `message_start` and `message_delta`, a closing
 * `message_stop`, and block indices 0..n contiguous in start order with blocks strictly sequential. The IR may
 * have several blocks open at once (chat-completions interleaves tool calls by index): one block is "current" on
 * the wire and the events of the other open blocks are queued until it ends, then replayed in start order. The
 * queue holds only what the upstream interleaves. Text blocks are opened on the wire at their first non-empty
 * delta, so an empty text block is not written at all (the API rejects empty text blocks sent back to it).
 */
import type * as ir from '../../ir/index.js'
import { envelopeFor, foreignRedacted, unsignedEnvelope } from '../../shared/reasoning-envelope.js'
import { toMessagesToolId } from '../../shared/tool-ids.js'
import { jsonFrame } from '../../stream/sse-encode.js'
import { type StreamStep, stepToTransformStream } from '../../stream/step.js'
import type { EncodeStreamOptions, SseFrame } from '../format.js'
import { omitsThinking } from './encode-response.js'
import { encodeError } from './errors.js'
import { fromFinishReason } from './finish-reason.js'
import { encodeUsage } from './usage.js'

type Json = Record<string, unknown>
type BlockEvent = Exclude<
  ir.StreamEvent,
  ir.MessageStartEvent | ir.UsageEvent | ir.FinishEvent | ir.ErrorEvent | ir.PingEvent | ir.WebSearchEvent
>

interface Block {
  kind: 'text' | 'thinking' | 'redacted' | 'tool-call'
  /** Wire index once the block is written (text blocks open lazily). */
  wireIndex?: number
  /** Provider data of the messages namespace, merged over start, deltas and end. */
  data?: Json
  /** Events waiting while another block holds the wire. */
  pending?: BlockEvent[]
  /** Other providers' signatures seen on the block (sent in an envelope when it has none of its own). */
  foreign?: string
  /** A text block's hot delta frame up to its JSON string (made at the first delta). */
  deltaHead?: string
}

const coreKeys = new Set(['type', 'text', 'thinking', 'signature', 'citations', 'data', 'id', 'name', 'input'])

/** `block` with the start event's own extra keys (cache_control, caller, …) spread back. */
function withExtras(block: Json, data: Json | undefined): Json {
  if (data) for (const key in data) if (!coreKeys.has(key)) block[key] = data[key]
  return block
}

function wireUsage(usage: Partial<ir.Usage>): Json {
  const wire = encodeUsage(usage)
  const out: Json = {
    output_tokens: wire.output_tokens,
    input_tokens: wire.input_tokens,
    cache_creation_input_tokens: wire.cache_creation_input_tokens,
    cache_read_input_tokens: wire.cache_read_input_tokens,
  }
  if (wire.output_tokens_details) out.output_tokens_details = wire.output_tokens_details
  return out
}

function mergeUsage(into: Partial<ir.Usage>, from: Partial<ir.Usage> | undefined): void {
  if (!from) return
  for (const key in from) {
    const value = from[key as keyof ir.Usage]
    if (value !== undefined) into[key as keyof ir.Usage] = value
  }
}

const endOf = {
  text: 'text-end',
  thinking: 'reasoning-end',
  redacted: 'reasoning-end',
  'tool-call': 'tool-call-end',
} as const

export function encodeStreamStep(options?: EncodeStreamOptions): StreamStep<ir.StreamEvent, SseFrame> {
  const omitThinking = omitsThinking(options)
  const blocks = new Map<number, Block>()
  /** Blocks started while another held the wire, in start order. */
  const waiting: number[] = []
  let current: number | undefined
  let nextWireIndex = 0
  let started = false
  let done = false
  let sawToolCall = false
  const usage: Partial<ir.Usage> = {}
  let out: SseFrame[] = []

  const write = (event: string, data: Json): void => {
    out.push(jsonFrame(event, JSON.stringify(data)))
  }

  function messageStart(id: string, model: string, known: Partial<ir.Usage> | undefined): void {
    started = true
    mergeUsage(usage, known)
    const wire = encodeUsage(known ?? {})
    // Like the real service: a small non-zero output count at the start; message_delta carries the real one.
    if (known?.outputTokens === undefined) wire.output_tokens = 1
    const message = {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: wire,
    }
    write('message_start', { type: 'message_start', message })
  }

  function open(block: Block, content: Json): void {
    block.wireIndex = nextWireIndex++
    write('content_block_start', { type: 'content_block_start', index: block.wireIndex, content_block: content })
  }

  const delta = (block: Block, value: Json): void =>
    write('content_block_delta', { type: 'content_block_delta', index: block.wireIndex, delta: value })

  /** Writes one block event; the block holds the wire. */
  function apply(event: BlockEvent): void {
    if (event.type === 'text-start' || event.type === 'reasoning-start' || event.type === 'tool-call-start') {
      const data = event.providerData?.messages
      current = event.index
      if (event.type === 'text-start') {
        blocks.set(event.index, { kind: 'text', data })
      } else if (event.type === 'reasoning-start') {
        const redacted = event.redactedData !== undefined
        const block: Block = { kind: redacted ? 'redacted' : 'thinking', data }
        const foreign = envelopeFor(event.providerData, 'messages')
        if (foreign) block.foreign = foreign
        blocks.set(event.index, block)
        const content = redacted
          ? {
              type: 'redacted_thinking',
              data: foreignRedacted(event.providerData, 'messages')
                ? envelopeFor(event.providerData, 'messages', event.redactedData)
                : event.redactedData,
            }
          : { type: 'thinking', thinking: '', signature: '' }
        open(block, withExtras(content, data))
      } else {
        sawToolCall = true
        const block: Block = { kind: 'tool-call', data }
        blocks.set(event.index, block)
        // Another provider's signature on the call (Gemini sends it with the call) rides in a redacted_thinking block
        // just before it, which Anthropic clients replay verbatim (policy 3).
        const envelope = envelopeFor(event.providerData, 'messages')
        if (envelope) {
          const index = nextWireIndex++
          const content_block = { type: 'redacted_thinking', data: envelope }
          write('content_block_start', { type: 'content_block_start', index, content_block })
          write('content_block_stop', { type: 'content_block_stop', index })
        }
        open(block, withExtras({ type: 'tool_use', id: toMessagesToolId(event.id), name: event.name, input: {} }, data))
      }
      return
    }
    const block = blocks.get(event.index)
    if (!block) return
    const own = event.providerData?.messages
    if (own) block.data = { ...block.data, ...own }
    if (block.kind === 'thinking' && event.providerData)
      block.foreign = envelopeFor(event.providerData, 'messages') ?? block.foreign
    switch (event.type) {
      case 'text-delta':
        if (event.text === '') return
        if (block.wireIndex === undefined) open(block, withExtras({ type: 'text', text: '' }, block.data))
        // The hottest frame, written directly: the same bytes as `delta` (same key order), one JSON.stringify.
        block.deltaHead ??= `{"type":"content_block_delta","index":${block.wireIndex},"delta":{"type":"text_delta","text":`
        out.push(jsonFrame('content_block_delta', `${block.deltaHead + JSON.stringify(event.text)}}}`))
        return
      case 'reasoning-delta':
        if (block.kind === 'thinking' && event.text !== '' && !omitThinking)
          delta(block, { type: 'thinking_delta', thinking: event.text })
        return
      case 'tool-call-delta':
        if (event.argumentsDelta !== '') delta(block, { type: 'input_json_delta', partial_json: event.argumentsDelta })
        return
      default:
        end(event.index, block)
    }
  }

  function end(index: number, block: Block): void {
    const data = block.data
    if (block.kind === 'text') {
      const citations = Array.isArray(data?.citations) ? data.citations : undefined
      if (block.wireIndex === undefined && citations?.length) open(block, withExtras({ type: 'text', text: '' }, data))
      if (citations && block.wireIndex !== undefined)
        for (const citation of citations) delta(block, { type: 'citations_delta', citation })
    } else if (block.kind === 'thinking') {
      const own = typeof data?.signature === 'string' && data.signature !== '' ? data.signature : undefined
      // Never an empty signature: another provider's in an envelope, else the envelope of nothing (policy 3).
      delta(block, { type: 'signature_delta', signature: own ?? block.foreign ?? unsignedEnvelope() })
    }
    if (block.wireIndex !== undefined)
      write('content_block_stop', { type: 'content_block_stop', index: block.wireIndex })
    blocks.delete(index)
    if (current === index) current = undefined
  }

  /** Hands the wire to the waiting blocks in start order, replaying what they queued. */
  function promote(): void {
    while (current === undefined && waiting.length > 0) {
      const index = waiting.shift() as number
      const queued = blocks.get(index)?.pending ?? []
      blocks.delete(index)
      for (const event of queued) apply(event)
    }
  }

  function route(event: BlockEvent): void {
    if (!started) messageStart('msg_interlingua', '', undefined)
    const isStart = event.type === 'text-start' || event.type === 'reasoning-start' || event.type === 'tool-call-start'
    if (isStart && blocks.has(event.index)) return // a repeated start for an open block
    if (isStart && current !== undefined) {
      // Placeholder until the block gets the wire; `kind` is set for real when the start is replayed.
      blocks.set(event.index, { kind: 'text', pending: [event] })
      waiting.push(event.index)
      return
    }
    const pending = blocks.get(event.index)?.pending
    if (pending && !isStart) pending.push(event)
    else apply(event)
    promote()
  }

  /** Ends every open block, current first, then the waiting ones in start order. */
  function closeAll(): void {
    for (;;) {
      if (current !== undefined) {
        const block = blocks.get(current)
        if (block) end(current, block)
        current = undefined
      }
      if (waiting.length === 0) return
      const index = waiting.shift() as number
      const queued = blocks.get(index)?.pending ?? []
      blocks.delete(index)
      for (const event of queued) apply(event)
      if (current !== undefined) {
        const block = blocks.get(current)
        if (block) apply({ type: endOf[block.kind], index: current })
      }
    }
  }

  /**
   * Anthropic's own search goes back as its blocks (the use with its input, the result whole in its start); another
   * provider's search has no encrypted results a client could replay, so it is left out (its text still comes).
   */
  function webSearch(part: ir.WebSearchPart): void {
    const blocks = part.providerData?.messages?.blocks
    if (!Array.isArray(blocks)) return
    if (!started) messageStart('msg_interlingua', '', undefined)
    for (const wire of blocks as Json[]) {
      const index = nextWireIndex++
      const input = wire.type === 'server_tool_use' ? wire.input : undefined
      const content_block = input === undefined ? wire : { ...wire, input: {} }
      write('content_block_start', { type: 'content_block_start', index, content_block })
      if (input !== undefined)
        write('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) },
        })
      write('content_block_stop', { type: 'content_block_stop', index })
    }
  }

  function finish(finishReason: ir.FinishReason, stopSequence: string | undefined, final: ir.Usage | undefined): void {
    closeAll()
    mergeUsage(usage, final)
    const stopReason = fromFinishReason(finishReason, sawToolCall, stopSequence)
    write('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: stopSequence ?? null },
      usage: wireUsage(usage),
    })
    write('message_stop', { type: 'message_stop' })
    done = true
  }

  return {
    push(event, sink) {
      out = sink
      if (done) return
      switch (event.type) {
        case 'message-start':
          if (!started) messageStart(event.id, event.model, event.usage)
          return
        case 'usage':
          mergeUsage(usage, event.usage)
          return
        case 'finish':
          if (!started) messageStart('msg_interlingua', '', undefined)
          finish(event.finishReason, event.stopSequence, event.usage)
          return
        case 'error':
          write('error', encodeError(event.error).body as Json)
          done = true
          return
        case 'ping':
          write('ping', { type: 'ping' })
          return
        case 'web-search':
          webSearch(event.part)
          return
        default:
          route(event)
      }
    },
    end(sink) {
      out = sink
      if (done || !started) return
      // The input ended without finish or error: close cleanly so the client gets a complete message.
      finish({ unified: 'stop' }, undefined, undefined)
    },
  }
}

export function createEncodeStream(options?: EncodeStreamOptions): TransformStream<ir.StreamEvent, SseFrame> {
  return stepToTransformStream(encodeStreamStep(options))
}
