/**
 * Token usage of a passthrough answer (policy 1: its bytes are forwarded untouched), read without decoding it: the
 * usage object is cut out of the text after the format's usage key (`"usage":{…}`, `"usageMetadata":{…}`) and parsed
 * alone. A stream costs nothing per chunk: the first chunk and a bounded tail are kept, and scanned once at the end —
 * the first usage object (Anthropic's `message_start` input counts) merged with the last (the final counts).
 */
import type { UsageField } from '../formats/format.js'
import type { ChunkWatcher } from '../http/passthrough.js'
import type * as ir from '../ir/index.js'
import { eventData } from '../stream/sse-event-data.js'

const quote = 34
const backslash = 92
const openBrace = 123
const closeBrace = 125

/** Where the JSON object starting at `start` (a `{`) ends (after its `}`), or -1 when it does not end in `text`. */
function objectEnd(text: string, start: number): number {
  let depth = 0
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === quote) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i)
        if (d === backslash) i++
        else if (d === quote) break
      }
    } else if (c === openBrace) depth++
    else if (c === closeBrace && --depth === 0) return i + 1
  }
  return -1
}

/** The object value of the key at `at` (the index of `"key"`), or undefined (`null`, cut short, not JSON). */
function objectAt(text: string, at: number, marker: string): Record<string, unknown> | undefined {
  let i = at + marker.length
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 10 || text.charCodeAt(i) === 13) i++
  if (text.charCodeAt(i) !== 58 /* : */) return undefined
  i++
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 10 || text.charCodeAt(i) === 13) i++
  if (text.charCodeAt(i) !== openBrace) return undefined
  const end = objectEnd(text, i)
  if (end < 0) return undefined
  try {
    const value = JSON.parse(text.slice(i, end)) as unknown
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/**
 * The first (or last) object value of `key` in `text`. A key inside a string (a tool argument, text) is escaped
 * (`\"usage\"`), so it never matches.
 */
export function usageObjectIn(text: string, key: string, last: boolean): Record<string, unknown> | undefined {
  const marker = `"${key}"`
  let at = last ? text.lastIndexOf(marker) : text.indexOf(marker)
  while (at >= 0) {
    const value = objectAt(text, at, marker)
    if (value) return value
    at = last ? (at === 0 ? -1 : text.lastIndexOf(marker, at - 1)) : text.indexOf(marker, at + 1)
  }
  return undefined
}

/** The usage of a whole answer body (passthrough JSON): its last usage object. */
export function usageOfText(text: string, field: UsageField): ir.Usage | undefined {
  const raw = usageObjectIn(text, field.key, true)
  return raw ? field.decode(raw) : undefined
}

/** The tail kept: the last chunks, at least `minTailChunks` and `minTailBytes` (the final usage object is in it). */
const minTailBytes = 2 * 1024
const minTailChunks = 3

/** Chunks as one text, bytes decoded together (a character split between two chunks stays whole). */
function textOf(chunks: ReadonlyArray<string | Uint8Array>): string {
  const decoder = new TextDecoder()
  let text = ''
  for (const chunk of chunks) text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
  return text + decoder.decode()
}

/**
 * Watches a passthrough stream for its usage, reported through `onUsage` when it ends (or fails, or the client
 * leaves: what was sent until then). Per chunk it only keeps a reference; the scan runs once, at the end, over the
 * first chunk (the first usage object: Anthropic's `message_start` input counts) and the tail (the last one: the final
 * counts), merged field by field, the last winning.
 */
export function usageWatcher(field: UsageField, onUsage: (usage: ir.Usage) => void): ChunkWatcher {
  let first: string | Uint8Array | undefined
  const tail: Array<string | Uint8Array> = []
  let tailBytes = 0
  return {
    chunk(chunk) {
      if (first === undefined) first = chunk
      tail.push(chunk)
      tailBytes += chunk.length
      while (tail.length > minTailChunks && tailBytes - (tail[0] as string | Uint8Array).length >= minTailBytes)
        tailBytes -= (tail.shift() as string | Uint8Array).length
    },
    end() {
      if (first === undefined) return
      const start = usageObjectIn(textOf([first]), field.key, false)
      const end = usageObjectIn(textOf(tail), field.key, true)
      const usage = start || end ? field.decode({ ...start, ...end }) : undefined
      if (usage) onUsage(usage)
    },
  }
}

/** A chat-completions usage-only chunk (`choices: []` and a `usage` object): its usage, else undefined. */
function usageOnly(event: string, field: UsageField): ir.Usage | undefined {
  const data = eventData(event)
  if (data === undefined) return undefined
  try {
    const chunk = JSON.parse(data) as { choices?: unknown; usage?: unknown }
    const { choices, usage } = chunk
    if (!Array.isArray(choices) || choices.length > 0) return undefined
    if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) return undefined
    return field.decode(usage as Record<string, unknown>)
  } catch {
    return undefined
  }
}

/**
 * The usage of a chat-completions passthrough stream whose `stream_options.include_usage` the gateway asked for, the
 * client not: the usage-only chunk is cut out of the forwarded bytes (the client sees what it would have seen without
 * it) and its usage reported when the stream ends. Each chunk is whole SSE events; it is decoded and scanned for a
 * `"usage"` key whose value is an object — the other chunks (`"usage":null`) are forwarded as they are.
 */
export function usageChunkCutter(field: UsageField, onUsage: (usage: ir.Usage) => void): ChunkWatcher {
  let usage: ir.Usage | undefined
  let ended = false
  const decoder = new TextDecoder()
  return {
    chunk() {},
    edit(bytes) {
      const text = decoder.decode(bytes)
      if (usageObjectIn(text, field.key, false) === undefined) return bytes
      let kept = ''
      let cut = false
      for (const event of text.split(/(?<=\r?\n\r?\n)/)) {
        const found = usageOnly(event, field)
        if (found) {
          usage = found
          cut = true
        } else kept += event
      }
      if (!cut) return bytes
      return kept === '' ? undefined : new TextEncoder().encode(kept)
    },
    end() {
      if (ended) return
      ended = true
      if (usage) onUsage(usage)
    },
  }
}
