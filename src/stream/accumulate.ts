import { InterlinguaError } from '../errors.js'
import type * as ir from '../ir/index.js'

type Block =
  | { kind: 'text'; text: string; citations?: ir.Citation[]; providerData?: ir.ProviderData }
  | { kind: 'reasoning'; text: string; redactedData?: string; providerData?: ir.ProviderData }
  | { kind: 'tool-call'; id: string; name: string; arguments: string; providerData?: ir.ProviderData }
  | { kind: 'web-search'; part: ir.WebSearchPart; providerData?: undefined }

/** The running snapshot of a response being streamed. */
export interface StreamSnapshot {
  id: string
  model: string
  created?: number
  /** Blocks by stream index. */
  blocks: Map<number, Block>
  /** Indices in start order. */
  order: number[]
  usage: Partial<ir.Usage>
  hasUsage: boolean
  finish?: ir.FinishEvent
}

export function createSnapshot(): StreamSnapshot {
  return { id: '', model: '', blocks: new Map(), order: [], usage: {}, hasUsage: false }
}

function mergeProviderData(block: Block, data: ir.ProviderData | undefined): void {
  if (data === undefined) return
  const target: ir.ProviderData = block.providerData ?? {}
  for (const key of Object.keys(data) as ir.FormatId[]) {
    const value = data[key]
    if (value === undefined) continue
    target[key] = { ...target[key], ...value }
  }
  block.providerData = target
}

function mergeUsage(snapshot: StreamSnapshot, usage: Partial<ir.Usage> | undefined): void {
  if (usage === undefined) return
  snapshot.hasUsage = true
  for (const key in usage) {
    const value = usage[key as keyof ir.Usage]
    if (value !== undefined) snapshot.usage[key as keyof ir.Usage] = value
  }
}

function startBlock(snapshot: StreamSnapshot, index: number, block: Block, data: ir.ProviderData | undefined): void {
  if (!snapshot.blocks.has(index)) snapshot.order.push(index)
  snapshot.blocks.set(index, block)
  mergeProviderData(block, data)
}

/** Folds one event into the snapshot. Throws on an `error` event. */
export function foldEvent(snapshot: StreamSnapshot, event: ir.StreamEvent): void {
  switch (event.type) {
    case 'message-start':
      snapshot.id = event.id
      snapshot.model = event.model
      if (event.created !== undefined) snapshot.created = event.created
      mergeUsage(snapshot, event.usage)
      return
    case 'text-start':
      startBlock(snapshot, event.index, { kind: 'text', text: '' }, event.providerData)
      return
    case 'reasoning-start': {
      const block: Block = { kind: 'reasoning', text: '' }
      if (event.redactedData !== undefined) block.redactedData = event.redactedData
      startBlock(snapshot, event.index, block, event.providerData)
      return
    }
    case 'tool-call-start':
      startBlock(
        snapshot,
        event.index,
        { kind: 'tool-call', id: event.id, name: event.name, arguments: '' },
        event.providerData,
      )
      return
    case 'text-delta':
    case 'reasoning-delta': {
      const block = snapshot.blocks.get(event.index)
      if (block === undefined || block.kind === 'tool-call' || block.kind === 'web-search') return
      block.text += event.text
      mergeProviderData(block, event.providerData)
      return
    }
    case 'tool-call-delta': {
      const block = snapshot.blocks.get(event.index)
      if (block?.kind !== 'tool-call') return
      block.arguments += event.argumentsDelta
      mergeProviderData(block, event.providerData)
      return
    }
    case 'text-end':
    case 'reasoning-end':
    case 'tool-call-end': {
      const block = snapshot.blocks.get(event.index)
      if (block !== undefined) mergeProviderData(block, event.providerData)
      if (event.type === 'text-end' && event.citations && block?.kind === 'text')
        block.citations = [...(block.citations ?? []), ...event.citations]
      return
    }
    case 'web-search': {
      // Not a block: kept in arrival order under an index no block uses.
      const index = -1 - snapshot.order.length
      snapshot.order.push(index)
      snapshot.blocks.set(index, { kind: 'web-search', part: event.part })
      return
    }
    case 'usage':
      mergeUsage(snapshot, event.usage)
      return
    case 'finish':
      snapshot.finish = event
      mergeUsage(snapshot, event.usage)
      return
    case 'error':
      throw new InterlinguaError(event.error.code, event.error.message, {
        status: event.error.status,
        ...(event.error.param === undefined ? {} : { param: event.error.param }),
      })
    case 'ping':
      return
  }
}

function toPart(block: Block): ir.AssistantPart {
  const withData = <T extends ir.AssistantPart>(part: T): T => {
    if (block.providerData !== undefined) part.providerData = block.providerData
    return part
  }
  switch (block.kind) {
    case 'text':
      if (block.providerData?.['chat-completions']?.refusal === true) {
        const { refusal: _flag, ...rest } = block.providerData['chat-completions']
        const { 'chat-completions': _cc, ...others } = block.providerData
        const data: ir.ProviderData = Object.keys(rest).length > 0 ? { ...others, 'chat-completions': rest } : others
        const part: ir.RefusalPart = { type: 'refusal', text: block.text }
        if (Object.keys(data).length > 0) part.providerData = data
        return part
      }
      return withData(
        block.citations
          ? { type: 'text', text: block.text, citations: block.citations }
          : { type: 'text', text: block.text },
      )
    case 'reasoning':
      if (block.redactedData !== undefined) return withData({ type: 'redacted-reasoning', data: block.redactedData })
      return withData({ type: 'reasoning', text: block.text })
    case 'tool-call':
      return withData({
        type: 'tool-call',
        id: block.id,
        name: block.name,
        arguments: block.arguments === '' ? '{}' : block.arguments,
      })
    case 'web-search':
      return block.part
  }
}

/** The response a finished snapshot describes. Throws `upstream` when the stream ended without `finish`. */
export function finalizeSnapshot(snapshot: StreamSnapshot): ir.Response {
  const finish = snapshot.finish
  if (finish === undefined) {
    throw new InterlinguaError('upstream', 'The stream ended before it finished (no finish event)')
  }
  const response: ir.Response = {
    id: snapshot.id,
    model: snapshot.model,
    content: snapshot.order.map((index) => toPart(snapshot.blocks.get(index) as Block)),
    finishReason: finish.finishReason,
  }
  if (snapshot.created !== undefined) response.created = snapshot.created
  if (finish.stopSequence !== undefined) response.stopSequence = finish.stopSequence
  if (snapshot.hasUsage) {
    response.usage = { inputTokens: 0, outputTokens: 0, ...snapshot.usage } as ir.Usage
  }
  return response
}

/** Folds a complete IR event sequence into the response it describes (synchronous). */
export function accumulateEvents(events: Iterable<ir.StreamEvent>): ir.Response {
  const snapshot = createSnapshot()
  for (const event of events) foldEvent(snapshot, event)
  return finalizeSnapshot(snapshot)
}

/**
 * Reads an IR event stream to its end and returns the response it describes. Serves a non-streaming
 * client from a streaming upstream.
 * @throws InterlinguaError for an `error` event (its code, status and message), or `upstream` when the stream ends without `finish`.
 */
export async function accumulate(
  events: ReadableStream<ir.StreamEvent> | AsyncIterable<ir.StreamEvent>,
): Promise<ir.Response> {
  const snapshot = createSnapshot()
  if (Symbol.asyncIterator in events) {
    for await (const event of events as AsyncIterable<ir.StreamEvent>) foldEvent(snapshot, event)
    return finalizeSnapshot(snapshot)
  }
  const reader = (events as ReadableStream<ir.StreamEvent>).getReader()
  try {
    for (;;) {
      const result = await reader.read()
      if (result.done) break
      foldEvent(snapshot, result.value)
    }
  } catch (error) {
    await reader.cancel(error).catch(() => {})
    throw error
  } finally {
    reader.releaseLock()
  }
  return finalizeSnapshot(snapshot)
}
