import { errorCodeForStatus } from '../../ir/error.js'
import type * as ir from '../../ir/index.js'
import { finiteNumber as numberOr } from '../../shared/finite-number.js'
import { isRecord } from '../../shared/is-record.js'
import { generateToolCallId } from '../../shared/tool-ids.js'
import { plainCount, plainString } from '../../stream/quick-json.js'
import { type StreamStep, stepToTransformStream } from '../../stream/step.js'
import type { SseMessage } from '../format.js'
import { toFinishReason } from './finish-reason.js'
import { decodeUsage } from './usage.js'

/**
 * chat-completions SSE → IR stream events.
 *
 * - Only `choices[0]` (the choice with `index` 0) is decoded; choices with `index > 0` (`n > 1`) are
 *   ignored, because the IR stream grammar has a single message.
 * - Each content kind (`content`, `reasoning_content`/`reasoning`, `refusal`) is one block; when a kind
 *   resumes after a different kind was streamed, a new block starts (so reasoning → tool call → reasoning
 *   stays in order). Tool calls are one block each, keyed by `tool_calls[].index`. Blocks stay open until
 *   `finish_reason`, then all end, in index order, carrying the reasoning carrier's provider data.
 * - `delta.reasoning_details` (the policy-3 carrier, sent whole once before the finish chunk; the last
 *   value wins, like the SDK's accumulator) is attached on the `*-end` events: reasoning entries to the
 *   reasoning blocks in order, `provider-data` entries to the tool call with that id (else the block at
 *   that index). Carried reasoning with no streamed block becomes a block of its own.
 * - The finish is held until `[DONE]` (or the end of input) so the trailing `choices: []` usage chunk can
 *   ride on it. That is the only thing ever held.
 * - Bad vendor data (invalid JSON, a non-object chunk, an `error` chunk) becomes one `error` event and
 *   nothing follows it. Input that ends with neither `[DONE]` nor a finish becomes an `error` too.
 */
export function decodeStreamStep(): StreamStep<SseMessage, ir.StreamEvent> {
  return new ChunkDecoder()
}

export function createDecodeStream(): TransformStream<SseMessage, ir.StreamEvent> {
  return stepToTransformStream(decodeStreamStep())
}

type Out = ir.StreamEvent[]
type Kind = 'text' | 'reasoning' | 'refusal' | 'tool-call'

interface Block {
  index: number
  kind: Kind
  /** Tool calls: the call id. */
  id?: string
  providerData?: ir.ProviderData
}

const refusalData: ir.ProviderData = { 'chat-completions': { refusal: true } }

/**
 * The hottest chunk, a content delta in the API's own compact form, read without `JSON.parse` (see quick-json.ts);
 * taken only once the stream has started and before the finish.
 */
const quickContent = new RegExp(
  `^\\{"id":"${plainString}","object":"chat\\.completion\\.chunk","created":${plainCount},"model":"${plainString}",` +
    `(?:"service_tier":(?:null|"${plainString}"),)?(?:"system_fingerprint":(?:null|"${plainString}"),)?` +
    `"choices":\\[\\{"index":0,"delta":\\{"content":"(${plainString})"\\},"logprobs":null,"finish_reason":null\\}\\]` +
    `(?:,"usage":null)?(?:,"obfuscation":"${plainString}")?\\}$`,
)

class ChunkDecoder implements StreamStep<SseMessage, ir.StreamEvent> {
  private done = false
  private started = false
  private messageId = ''
  private nextIndex = 0
  private readonly blocks: Block[] = []
  /** The block currently receiving each text-like kind. */
  private readonly current: Partial<Record<'text' | 'reasoning' | 'refusal', Block>> = {}
  private lastKind: Kind | undefined
  private readonly toolCalls = new Map<number, Block>()
  private details: unknown[] | undefined
  private finish: ir.FinishEvent | undefined
  private lastUsage: ir.Usage | undefined

  push(message: SseMessage, out: Out): void {
    if (this.done) return
    if (this.started && !this.finish) {
      const quick = quickContent.exec(message.data)
      if (quick !== null) {
        const text = quick[1] as string
        if (text !== '') out.push({ type: 'text-delta', index: this.textLike('text', out).index, text })
        return
      }
    }
    const data = message.data.trim()
    if (data === '') return
    if (data === '[DONE]') {
      this.endAll(out)
      return
    }
    let chunk: unknown
    try {
      chunk = JSON.parse(data)
    } catch {
      this.fail(out, { code: 'upstream', status: 502, message: 'chat-completions stream: a chunk is not valid JSON' })
      return
    }
    if (!isRecord(chunk)) {
      this.fail(out, {
        code: 'upstream',
        status: 502,
        message: 'chat-completions stream: a chunk is not a JSON object',
      })
      return
    }
    if (chunk.error) {
      this.fail(out, streamErrorInfo(chunk.error))
      return
    }
    this.chunk(chunk, out)
  }

  end(out: Out): void {
    if (this.done) return
    if (this.finish) {
      this.endAll(out)
      return
    }
    this.fail(out, {
      code: 'upstream',
      status: 502,
      message: this.started
        ? 'chat-completions stream ended before finish_reason'
        : 'chat-completions stream ended without any chunk',
    })
  }

  private chunk(chunk: Record<string, unknown>, out: Out): void {
    if (!this.started) {
      this.started = true
      this.messageId = typeof chunk.id === 'string' ? chunk.id : 'chatcmpl-stream'
      const start: ir.MessageStartEvent = {
        type: 'message-start',
        id: this.messageId,
        model: typeof chunk.model === 'string' ? chunk.model : '',
      }
      if (typeof chunk.created === 'number') start.created = chunk.created
      out.push(start)
    }
    const choices = Array.isArray(chunk.choices) ? chunk.choices : []
    const choice = choices.find((entry) => isRecord(entry) && (entry.index ?? 0) === 0) as
      | Record<string, unknown>
      | undefined
    if (choice && !this.finish) {
      if (isRecord(choice.delta)) this.delta(choice.delta, out)
      if (typeof choice.finish_reason === 'string') {
        this.closeBlocks(out)
        this.finish = { type: 'finish', finishReason: toFinishReason(choice.finish_reason, this.toolCalls.size > 0) }
      }
    }
    if (isRecord(chunk.usage)) {
      const usage = decodeUsage(chunk.usage) as ir.Usage
      this.lastUsage = usage
      if (this.finish) this.finish.usage = usage
      else out.push({ type: 'usage', usage })
    }
  }

  private delta(delta: Record<string, unknown>, out: Out): void {
    const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : delta.reasoning
    if (typeof reasoning === 'string' && reasoning !== '') {
      const block = this.textLike('reasoning', out)
      out.push({ type: 'reasoning-delta', index: block.index, text: reasoning })
    }
    if (typeof delta.content === 'string' && delta.content !== '') {
      const block = this.textLike('text', out)
      out.push({ type: 'text-delta', index: block.index, text: delta.content })
    }
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      const block = this.textLike('refusal', out)
      out.push({ type: 'text-delta', index: block.index, text: delta.refusal, providerData: refusalData })
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const call of delta.tool_calls) if (isRecord(call)) this.toolCall(call, out)
    }
    if (Array.isArray(delta.reasoning_details)) this.details = delta.reasoning_details
  }

  private textLike(kind: 'text' | 'reasoning' | 'refusal', out: Out): Block {
    let block = this.current[kind]
    if (!block || this.lastKind !== kind) {
      block = { index: this.nextIndex++, kind }
      this.blocks.push(block)
      this.current[kind] = block
      if (kind === 'reasoning') out.push({ type: 'reasoning-start', index: block.index })
      else if (kind === 'text') out.push({ type: 'text-start', index: block.index })
      else out.push({ type: 'text-start', index: block.index, providerData: refusalData })
    }
    this.lastKind = kind
    return block
  }

  private toolCall(call: Record<string, unknown>, out: Out): void {
    const wireIndex = typeof call.index === 'number' ? call.index : this.toolCalls.size
    const fn = isRecord(call.function) ? call.function : {}
    let block = this.toolCalls.get(wireIndex)
    if (!block) {
      const name = typeof fn.name === 'string' ? fn.name : ''
      const id =
        typeof call.id === 'string' && call.id !== ''
          ? call.id
          : generateToolCallId('call_', `${this.messageId}#${wireIndex}#${name}`)
      block = { index: this.nextIndex++, kind: 'tool-call', id }
      this.blocks.push(block)
      this.toolCalls.set(wireIndex, block)
      out.push({ type: 'tool-call-start', index: block.index, id, name })
    }
    this.lastKind = 'tool-call'
    if (typeof fn.arguments === 'string' && fn.arguments !== '') {
      out.push({ type: 'tool-call-delta', index: block.index, argumentsDelta: fn.arguments })
    }
  }

  /** Ends every block (index order) with the carrier's provider data attached. */
  private closeBlocks(out: Out): void {
    if (this.details) this.attachDetails(out)
    for (const block of this.blocks) {
      const type =
        block.kind === 'tool-call' ? 'tool-call-end' : block.kind === 'reasoning' ? 'reasoning-end' : 'text-end'
      const event: ir.TextEndEvent | ir.ReasoningEndEvent | ir.ToolCallEndEvent = { type, index: block.index }
      const providerData = block.kind === 'refusal' ? { ...refusalData, ...block.providerData } : block.providerData
      if (providerData) event.providerData = providerData
      out.push(event)
    }
    this.blocks.length = 0
  }

  private attachDetails(out: Out): void {
    const reasoningBlocks = this.blocks.filter((block) => block.kind === 'reasoning')
    let nextReasoning = 0
    for (const entry of this.details as unknown[]) {
      if (!isRecord(entry)) continue
      if (entry.type === 'reasoning.text' || entry.type === 'reasoning.encrypted') {
        let block: Block | undefined = entry.type === 'reasoning.text' ? reasoningBlocks[nextReasoning++] : undefined
        if (!block) {
          // Carried reasoning that was not streamed as text: a block of its own.
          if (entry.type === 'reasoning.text' && typeof entry.text !== 'string') continue
          if (entry.type === 'reasoning.encrypted' && typeof entry.data !== 'string') continue
          block = { index: this.nextIndex++, kind: 'reasoning' }
          this.blocks.push(block)
          if (entry.type === 'reasoning.encrypted') {
            out.push({ type: 'reasoning-start', index: block.index, redactedData: entry.data as string })
          } else {
            out.push({ type: 'reasoning-start', index: block.index })
            if (entry.text !== '') out.push({ type: 'reasoning-delta', index: block.index, text: entry.text as string })
          }
        }
        mergeInto(block, entry.provider_data)
      } else if (entry.type === 'provider-data') {
        const block =
          (typeof entry.id === 'string'
            ? this.blocks.find((b) => b.kind === 'tool-call' && b.id === entry.id)
            : undefined) ?? this.blocks.find((b) => b.index === entry.index)
        if (block) mergeInto(block, entry.provider_data)
      }
    }
  }

  private endAll(out: Out): void {
    if (!this.started) {
      this.fail(out, { code: 'upstream', status: 502, message: 'chat-completions stream ended without any chunk' })
      return
    }
    if (!this.finish) {
      this.closeBlocks(out)
      this.finish = { type: 'finish', finishReason: toFinishReason(undefined, this.toolCalls.size > 0) }
    }
    if (!this.finish.usage && this.lastUsage) this.finish.usage = this.lastUsage
    out.push(this.finish)
    this.done = true
  }

  private fail(out: Out, error: ir.ErrorInfo): void {
    out.push({ type: 'error', error })
    this.done = true
  }
}

function mergeInto(block: Block, extra: unknown): void {
  if (!isRecord(extra)) return
  const merged: ir.ProviderData = { ...block.providerData }
  for (const [key, value] of Object.entries(extra)) {
    if (isRecord(value)) merged[key as ir.FormatId] = { ...merged[key as ir.FormatId], ...value }
  }
  block.providerData = merged
}

const statusByType: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  rate_limit_error: 429,
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  requests: 429,
  tokens: 429,
  server_error: 500,
  api_error: 500,
  overloaded_error: 503,
}

/** The `error` object of an in-stream error chunk → IR. Total: never throws. */
export function streamErrorInfo(raw: unknown): ir.ErrorInfo {
  const error = isRecord(raw) ? raw : { message: typeof raw === 'string' ? raw : undefined }
  const type = typeof error.type === 'string' ? error.type : undefined
  const codeStatus = typeof error.code === 'number' && error.code >= 400 && error.code < 600 ? error.code : undefined
  const rawStatus = numberOr(error.status)
  const status =
    (rawStatus !== undefined && rawStatus >= 400 && rawStatus < 600 ? rawStatus : undefined) ??
    codeStatus ??
    (type ? statusByType[type] : undefined) ??
    500
  const info: ir.ErrorInfo = {
    code: errorCodeForStatus(status),
    status,
    message: typeof error.message === 'string' && error.message !== '' ? error.message : 'upstream stream error',
    rawFormat: 'chat-completions',
  }
  if (typeof error.param === 'string') info.param = error.param
  if (type) info.vendorType = type
  if (typeof error.code === 'string') info.vendorCode = error.code
  return info
}
