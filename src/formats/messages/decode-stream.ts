/**
 * Anthropic Messages SSE → IR stream events. @see wire-formats.md §2.7, §4.3, §5.10
 *
 * Dispatch is on `data.type` (the event name is the fallback), like the official SDK. Wire block indices are
 * mapped to IR block indices (0-based, contiguous in start order). A web search (`server_tool_use` named
 * `web_search`, its input streamed, then `web_search_tool_result` whole in its start) is one IR `web-search` event at
 * the result; text citations of it ride on `text-end`. Other server-tool blocks and unknown block types have no IR
 * stream equivalent: their start, deltas and stop are skipped entirely (a stream has no warnings channel; the
 * non-streaming decoder reports them). Unknown event
 * and delta types are ignored, as the SDK does. Bad vendor data (malformed JSON, wrong shapes, a stream that ends
 * before `message_stop`) becomes an `error` event, never a stream error; nothing follows an error.
 */
import type * as ir from '../../ir/index.js'
import { isRecord } from '../../shared/is-record.js'
import { plainCount, plainString } from '../../stream/quick-json.js'
import { type StreamStep, stepToTransformStream } from '../../stream/step.js'
import type { SseMessage } from '../format.js'
import { extrasOf, redactedKeys, toolUseKeys, withData } from './blocks.js'
import { decodeError } from './errors.js'
import { toFinishReason } from './finish-reason.js'
import { decodePartialUsage, decodeUsage, type MessagesUsage } from './usage.js'
import { searchQuery, webCitations, webSearchPart } from './web-search.js'

type Json = Record<string, unknown>

interface OpenBlock {
  kind: 'text' | 'reasoning' | 'tool-call'
  index: number
  signature?: string
  citations?: unknown[]
}

/** A wire block that is skipped (server tools, unknown types): its deltas and stop are ignored. */
const skipped = 'skipped' as const

const textKeys = new Set(['type', 'text', 'citations'])
const thinkingKeys = new Set(['type', 'thinking', 'signature'])

function upstreamError(message: string): ir.ErrorEvent {
  return { type: 'error', error: { code: 'upstream', status: 502, message, rawFormat: 'messages' } }
}

const isIndex = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0

/** The hottest event, a text delta in the API's own compact form, read without `JSON.parse` (see quick-json.ts). */
const quickTextDelta = new RegExp(
  `^\\{"type":"content_block_delta","index":(${plainCount}),"delta":\\{"type":"text_delta","text":"(${plainString})"\\}\\}$`,
)

export function decodeStreamStep(): StreamStep<SseMessage, ir.StreamEvent> {
  const blocks = new Map<number, OpenBlock | typeof skipped>()
  let nextIndex = 0
  let started = false
  let done = false
  let sawToolUse = false
  const usage: Partial<MessagesUsage> = {}
  let hasUsage = false
  let stopReason: string | null | undefined
  let stopSequence: string | undefined
  /** `server_tool_use` web search blocks by wire index (input JSON as streamed), then by id once stopped. */
  const searchInputs = new Map<number, { block: Json; input: string }>()
  const searches = new Map<string, { block: Json; input: string }>()

  function mergeUsage(wire: unknown): void {
    if (!isRecord(wire)) return
    hasUsage = true
    // Cumulative values: a present field overwrites, an absent or null one keeps the earlier value.
    for (const key in wire) if (wire[key] !== undefined && wire[key] !== null) usage[key] = wire[key]
  }

  function endEvent(block: OpenBlock): ir.StreamEvent {
    if (block.kind === 'text') {
      const event: ir.TextEndEvent = { type: 'text-end', index: block.index }
      if (block.citations) {
        const citations = webCitations(block.citations)
        if (citations) event.citations = citations
        event.providerData = { messages: { citations: block.citations } }
      }
      return event
    }
    if (block.kind === 'reasoning') {
      const event: ir.ReasoningEndEvent = { type: 'reasoning-end', index: block.index }
      if (block.signature !== undefined) event.providerData = { messages: { signature: block.signature } }
      return event
    }
    return { type: 'tool-call-end', index: block.index }
  }

  function closeAll(out: ir.StreamEvent[]): void {
    for (const block of blocks.values()) if (block !== skipped) out.push(endEvent(block))
    blocks.clear()
  }

  function fail(out: ir.StreamEvent[], event: ir.ErrorEvent): void {
    done = true
    blocks.clear()
    out.push(event)
  }

  function blockStart(data: Json, out: ir.StreamEvent[]): string | undefined {
    const wireIndex = data.index
    const block = data.content_block
    if (!isIndex(wireIndex)) return 'content_block_start.index: expected a non-negative integer'
    if (!isRecord(block) || typeof block.type !== 'string') return 'content_block_start.content_block: expected a block'
    if (blocks.has(wireIndex)) return `content_block_start.index: block ${wireIndex} is already open`
    const index = nextIndex
    switch (block.type) {
      case 'text': {
        const event: ir.TextStartEvent = { type: 'text-start', index }
        out.push(withData(event, extrasOf(block, textKeys)))
        if (typeof block.text === 'string' && block.text !== '')
          out.push({ type: 'text-delta', index, text: block.text })
        blocks.set(wireIndex, { kind: 'text', index })
        break
      }
      case 'thinking': {
        const event: ir.ReasoningStartEvent = { type: 'reasoning-start', index }
        out.push(withData(event, extrasOf(block, thinkingKeys)))
        if (typeof block.thinking === 'string' && block.thinking !== '')
          out.push({ type: 'reasoning-delta', index, text: block.thinking })
        const open: OpenBlock = { kind: 'reasoning', index }
        if (typeof block.signature === 'string' && block.signature !== '') open.signature = block.signature
        blocks.set(wireIndex, open)
        break
      }
      case 'redacted_thinking': {
        if (typeof block.data !== 'string') return 'content_block_start.content_block.data: expected string'
        const event: ir.ReasoningStartEvent = { type: 'reasoning-start', index, redactedData: block.data }
        out.push(withData(event, extrasOf(block, redactedKeys)))
        blocks.set(wireIndex, { kind: 'reasoning', index })
        break
      }
      case 'tool_use': {
        if (typeof block.id !== 'string') return 'content_block_start.content_block.id: expected string'
        if (typeof block.name !== 'string') return 'content_block_start.content_block.name: expected string'
        const event: ir.ToolCallStartEvent = { type: 'tool-call-start', index, id: block.id, name: block.name }
        out.push(withData(event, extrasOf(block, toolUseKeys)))
        if (isRecord(block.input) && Object.keys(block.input).length > 0)
          out.push({ type: 'tool-call-delta', index, argumentsDelta: JSON.stringify(block.input) })
        sawToolUse = true
        blocks.set(wireIndex, { kind: 'tool-call', index })
        break
      }
      case 'web_search_tool_result': {
        const id = String(block.tool_use_id)
        const use = searches.get(id)
        searches.delete(id)
        const query = searchQuery(use?.input)
        // The use block as the non-streamed answer has it (its input whole), for a messages client.
        const whole = use
          ? { ...use.block, input: query === undefined ? {} : JSON.parse(use.input as string) }
          : undefined
        out.push({ type: 'web-search', part: webSearchPart(block, whole, query) })
        blocks.set(wireIndex, skipped)
        return undefined
      }
      default:
        if (block.type === 'server_tool_use' && block.name === 'web_search' && typeof block.id === 'string') {
          const input = isRecord(block.input) && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : ''
          searchInputs.set(wireIndex, { block, input })
        }
        blocks.set(wireIndex, skipped)
        return undefined
    }
    nextIndex++
    return undefined
  }

  function blockDelta(data: Json, out: ir.StreamEvent[]): string | undefined {
    const block = isIndex(data.index) ? blocks.get(data.index) : undefined
    if (block === undefined) return `content_block_delta.index: no open block ${String(data.index)}`
    if (block === skipped) {
      const search = searchInputs.get(data.index as number)
      const delta = data.delta
      if (search && isRecord(delta) && typeof delta.partial_json === 'string') search.input += delta.partial_json
      return undefined
    }
    const delta = data.delta
    if (!isRecord(delta)) return 'content_block_delta.delta: expected an object'
    const index = block.index
    switch (delta.type) {
      case 'text_delta':
        if (typeof delta.text !== 'string') return 'content_block_delta.delta.text: expected string'
        if (block.kind === 'text') out.push({ type: 'text-delta', index, text: delta.text })
        break
      case 'thinking_delta':
        if (typeof delta.thinking !== 'string') return 'content_block_delta.delta.thinking: expected string'
        if (block.kind === 'reasoning') out.push({ type: 'reasoning-delta', index, text: delta.thinking })
        break
      case 'input_json_delta':
        if (typeof delta.partial_json !== 'string') return 'content_block_delta.delta.partial_json: expected string'
        if (block.kind === 'tool-call' && delta.partial_json !== '')
          out.push({ type: 'tool-call-delta', index, argumentsDelta: delta.partial_json })
        break
      case 'signature_delta':
        if (typeof delta.signature !== 'string') return 'content_block_delta.delta.signature: expected string'
        block.signature = delta.signature
        break
      case 'citations_delta':
        if (block.kind === 'text') {
          if (block.citations) block.citations.push(delta.citation)
          else block.citations = [delta.citation]
        }
        break
      default:
      // Future delta types: ignored, as the SDK's accumulator does.
    }
    return undefined
  }

  function handle(data: Json, type: string, out: ir.StreamEvent[]): void {
    let problem: string | undefined
    switch (type) {
      case 'message_start': {
        const message = data.message
        if (!isRecord(message)) problem = 'message_start.message: expected an object'
        else if (started) problem = 'message_start: a second message_start'
        else {
          started = true
          mergeUsage(message.usage)
          const event: ir.MessageStartEvent = {
            type: 'message-start',
            id: typeof message.id === 'string' ? message.id : '',
            model: typeof message.model === 'string' ? message.model : '',
          }
          if (isRecord(message.usage)) event.usage = decodePartialUsage(message.usage as Partial<MessagesUsage>)
          out.push(event)
        }
        break
      }
      case 'content_block_start':
        problem = started ? blockStart(data, out) : 'content_block_start: before message_start'
        break
      case 'content_block_delta':
        problem = blockDelta(data, out)
        break
      case 'content_block_stop': {
        const block = isIndex(data.index) ? blocks.get(data.index) : undefined
        if (block === undefined) problem = `content_block_stop.index: no open block ${String(data.index)}`
        else {
          blocks.delete(data.index as number)
          if (block !== skipped) out.push(endEvent(block))
          const search = searchInputs.get(data.index as number)
          if (search) {
            searchInputs.delete(data.index as number)
            searches.set(String(search.block.id), search)
          }
        }
        break
      }
      case 'message_delta': {
        const delta = isRecord(data.delta) ? data.delta : {}
        if (delta.stop_reason !== undefined)
          stopReason = typeof delta.stop_reason === 'string' ? delta.stop_reason : null
        if (typeof delta.stop_sequence === 'string') stopSequence = delta.stop_sequence
        if (isRecord(data.usage)) {
          mergeUsage(data.usage)
          out.push({ type: 'usage', usage: decodePartialUsage(usage) })
        }
        break
      }
      case 'message_stop': {
        if (!started) {
          problem = 'message_stop: before message_start'
          break
        }
        closeAll(out)
        const event: ir.FinishEvent = { type: 'finish', finishReason: toFinishReason(stopReason, sawToolUse) }
        if (stopSequence !== undefined) event.stopSequence = stopSequence
        const final = hasUsage ? decodeUsage(usage) : undefined
        if (final) event.usage = final
        out.push(event)
        done = true
        break
      }
      case 'ping':
        out.push({ type: 'ping' })
        break
      case 'error':
        fail(out, { type: 'error', error: decodeError(200, data) })
        break
      default:
      // Unknown event types are ignored (the SDK yields them raw; its accumulator skips them).
    }
    if (problem !== undefined) fail(out, upstreamError(`messages stream: ${problem}`))
  }

  return {
    push(message, out) {
      if (done) return
      const text = message.data
      const quick = quickTextDelta.exec(text)
      if (quick !== null) {
        const block = blocks.get(Number(quick[1]))
        // An unknown index: the general path words the error.
        if (block !== undefined) {
          if (block !== skipped && block.kind === 'text')
            out.push({ type: 'text-delta', index: block.index, text: quick[2] as string })
          return
        }
      }
      if (text.trim() === '') {
        // The SDK skips named events with empty data; an empty ping is still a keep-alive.
        if (message.event === 'ping') out.push({ type: 'ping' })
        return
      }
      let data: unknown
      try {
        data = JSON.parse(text)
      } catch {
        fail(out, upstreamError(`messages stream: malformed JSON in a ${message.event ?? 'message'} event`))
        return
      }
      if (!isRecord(data)) {
        fail(out, upstreamError(`messages stream: ${message.event ?? 'message'} data is not an object`))
        return
      }
      const type = typeof data.type === 'string' ? data.type : message.event
      if (type !== undefined) handle(data, type, out)
    },
    end(out) {
      if (done) return
      closeAll(out)
      out.push(upstreamError('messages stream: the upstream ended before message_stop'))
    },
  }
}

export function createDecodeStream(): TransformStream<SseMessage, ir.StreamEvent> {
  return stepToTransformStream(decodeStreamStep())
}
