/**
 * Converse stream → IR stream events. The input is the decoded frames of Bedrock's binary event stream, one
 * `SseMessage` per frame: `event` is the frame's `:event-type` (`messageStart`, `contentBlockStart`,
 * `contentBlockDelta`, `contentBlockStop`, `messageStop`, `metadata`) or, for an exception frame, its
 * `:exception-type` (`throttlingException`, …); `data` is the JSON payload.
 *
 * Text and reasoning blocks have no `contentBlockStart` (their first delta opens them); a tool call's does. The
 * usage comes in `metadata`, after `messageStop`: `finish` is emitted there (or at the end when no `metadata`
 * follows). A reasoning block's `signature` delta is kept on its end event (`providerData.converse.signature`);
 * `redactedContent` opens a redacted reasoning block. Bad vendor data becomes an `error` event; nothing follows an
 * error.
 */
import type * as ir from '../../ir/index.js'
import { newId } from '../../shared/ids.js'
import { isRecord } from '../../shared/is-record.js'
import { type StreamStep, stepToTransformStream } from '../../stream/step.js'
import type { SseMessage } from '../format.js'
import { exceptionError, isException } from './errors.js'
import { toFinishReason } from './finish-reason.js'
import { decodeUsage } from './usage.js'

type Json = Record<string, unknown>

interface OpenBlock {
  kind: 'text' | 'reasoning' | 'tool-call'
  index: number
  signature?: string
}

function upstreamError(message: string): ir.ErrorEvent {
  return { type: 'error', error: { code: 'upstream', status: 502, message, rawFormat: 'converse' } }
}

const isIndex = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0

export function decodeStreamStep(): StreamStep<SseMessage, ir.StreamEvent> {
  const blocks = new Map<number, OpenBlock>()
  let nextIndex = 0
  let started = false
  let stopped = false
  let done = false
  let sawToolUse = false
  let stopReason: unknown

  function endEvent(block: OpenBlock): ir.StreamEvent {
    if (block.kind === 'text') return { type: 'text-end', index: block.index }
    if (block.kind === 'tool-call') return { type: 'tool-call-end', index: block.index }
    const event: ir.ReasoningEndEvent = { type: 'reasoning-end', index: block.index }
    if (block.signature !== undefined) event.providerData = { converse: { signature: block.signature } }
    return event
  }

  function closeAll(out: ir.StreamEvent[]): void {
    for (const block of blocks.values()) out.push(endEvent(block))
    blocks.clear()
  }

  function finish(out: ir.StreamEvent[], usage: ir.Usage | undefined): void {
    const event: ir.FinishEvent = { type: 'finish', finishReason: toFinishReason(stopReason, sawToolUse) }
    if (usage) event.usage = usage
    out.push(event)
    done = true
  }

  function open(wireIndex: number, kind: OpenBlock['kind'], out: ir.StreamEvent[], redacted?: string): OpenBlock {
    const block: OpenBlock = { kind, index: nextIndex++ }
    if (kind === 'text') out.push({ type: 'text-start', index: block.index })
    else if (kind === 'reasoning') {
      const event: ir.ReasoningStartEvent = { type: 'reasoning-start', index: block.index }
      if (redacted !== undefined) {
        event.redactedData = redacted
        event.providerData = { converse: { redacted: true } }
      }
      out.push(event)
    }
    blocks.set(wireIndex, block)
    return block
  }

  function delta(data: Json, out: ir.StreamEvent[]): string | undefined {
    const wireIndex = data.contentBlockIndex
    const delta = data.delta
    if (!isIndex(wireIndex)) return 'contentBlockDelta.contentBlockIndex: expected a non-negative integer'
    if (!isRecord(delta)) return 'contentBlockDelta.delta: expected an object'
    let block = blocks.get(wireIndex)
    if (typeof delta.text === 'string') {
      block ??= open(wireIndex, 'text', out)
      if (block.kind === 'text' && delta.text !== '')
        out.push({ type: 'text-delta', index: block.index, text: delta.text })
      return undefined
    }
    if (isRecord(delta.toolUse)) {
      if (block?.kind !== 'tool-call') return `contentBlockDelta: no open tool call at ${wireIndex}`
      const input = delta.toolUse.input
      if (typeof input !== 'string') return 'contentBlockDelta.delta.toolUse.input: expected string'
      if (input !== '') out.push({ type: 'tool-call-delta', index: block.index, argumentsDelta: input })
      return undefined
    }
    const reasoning = delta.reasoningContent
    if (isRecord(reasoning)) {
      if (typeof reasoning.redactedContent === 'string') {
        if (block) return `contentBlockDelta: redacted content in open block ${wireIndex}`
        open(wireIndex, 'reasoning', out, reasoning.redactedContent)
        return undefined
      }
      block ??= open(wireIndex, 'reasoning', out)
      if (block.kind !== 'reasoning') return `contentBlockDelta: reasoning in a ${block.kind} block`
      if (typeof reasoning.text === 'string' && reasoning.text !== '')
        out.push({ type: 'reasoning-delta', index: block.index, text: reasoning.text })
      if (typeof reasoning.signature === 'string') block.signature = (block.signature ?? '') + reasoning.signature
    }
    // Other deltas (citations, images, tool results of server tools): no IR stream equivalent.
    return undefined
  }

  function handle(event: string, data: Json, out: ir.StreamEvent[]): string | undefined {
    switch (event) {
      case 'messageStart':
        if (started) return 'messageStart: a second messageStart'
        started = true
        out.push({ type: 'message-start', id: newId('msg_', 24), model: '' })
        return undefined
      case 'contentBlockStart': {
        if (!started) return 'contentBlockStart: before messageStart'
        const wireIndex = data.contentBlockIndex
        if (!isIndex(wireIndex)) return 'contentBlockStart.contentBlockIndex: expected a non-negative integer'
        if (blocks.has(wireIndex)) return `contentBlockStart: block ${wireIndex} is already open`
        const start = isRecord(data.start) ? data.start : {}
        const use = start.toolUse
        if (!isRecord(use)) return undefined
        if (typeof use.toolUseId !== 'string' || typeof use.name !== 'string')
          return 'contentBlockStart.start.toolUse: expected toolUseId and name'
        const block = open(wireIndex, 'tool-call', out)
        out.push({ type: 'tool-call-start', index: block.index, id: use.toolUseId, name: use.name })
        sawToolUse = true
        return undefined
      }
      case 'contentBlockDelta':
        return started ? delta(data, out) : 'contentBlockDelta: before messageStart'
      case 'contentBlockStop': {
        const block = isIndex(data.contentBlockIndex) ? blocks.get(data.contentBlockIndex) : undefined
        if (block) {
          blocks.delete(data.contentBlockIndex as number)
          out.push(endEvent(block))
        }
        return undefined
      }
      case 'messageStop':
        if (!started) return 'messageStop: before messageStart'
        closeAll(out)
        stopReason = data.stopReason
        stopped = true
        return undefined
      case 'metadata': {
        const usage = decodeUsage(data.usage)
        if (stopped) finish(out, usage)
        else if (usage) out.push({ type: 'usage', usage })
        return undefined
      }
      default:
        // Unknown event types are skipped, as the SDK does.
        return undefined
    }
  }

  return {
    push(message, out) {
      if (done) return
      let data: unknown
      try {
        data = JSON.parse(message.data)
      } catch {
        data = undefined
      }
      const event = message.event ?? ''
      if (isException(event)) {
        done = true
        const text = isRecord(data) && typeof data.message === 'string' ? data.message : `Bedrock ${event}`
        out.push({ type: 'error', error: exceptionError(event, undefined, text) })
        return
      }
      if (!isRecord(data)) {
        done = true
        out.push(upstreamError(`converse stream: ${event || 'an event'} without a JSON object payload`))
        return
      }
      const problem = handle(event, data, out)
      if (problem !== undefined) {
        done = true
        blocks.clear()
        out.push(upstreamError(`converse stream: ${problem}`))
      }
    },
    end(out) {
      if (done) return
      if (stopped) {
        finish(out, undefined)
        return
      }
      closeAll(out)
      out.push(upstreamError('converse stream: the upstream ended before messageStop'))
    },
  }
}

export function createDecodeStream(): TransformStream<SseMessage, ir.StreamEvent> {
  return stepToTransformStream(decodeStreamStep())
}
