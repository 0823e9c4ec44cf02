/**
 * Token usage of a passthrough answer (policy 1: its bytes are forwarded untouched), read without decoding it: the
 * usage object is found in the bytes after the format's usage key (`"usage":{…}`, `"usageMetadata":{…}`), and only
 * it is decoded and parsed. A stream costs nothing per chunk: the first chunk and a bounded tail are kept, and scanned
 * once at the end — the first usage object (Anthropic's `message_start` input counts) merged with the last (the final
 * counts).
 */
import type { UsageField } from '../formats/format.js'
import type { ChunkWatcher } from '../http/passthrough.js'
import type * as ir from '../ir/index.js'
import { eventData } from '../stream/sse-event-data.js'

const quote = 34
const backslash = 92
const openBrace = 123
const closeBrace = 125

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Where the JSON object starting at `start` (a `{`) ends (after its `}`), or -1 when it does not end in `bytes`. */
function objectEnd(bytes: Uint8Array, start: number): number {
  let depth = 0
  for (let i = start; i < bytes.length; i++) {
    const c = bytes[i]
    if (c === quote) {
      // A UTF-8 sequence never holds a byte below 0x80: a quote or a brace byte is always that character.
      for (i++; i < bytes.length; i++) {
        const d = bytes[i]
        if (d === backslash) i++
        else if (d === quote) break
      }
    } else if (c === openBrace) depth++
    else if (c === closeBrace && --depth === 0) return i + 1
  }
  return -1
}

const isBlank = (c: number | undefined) => c === 32 || c === 10 || c === 13

/** The object value of the key at `at` (the index of `"key"`), or undefined (`null`, cut short, not JSON). */
function objectAt(bytes: Uint8Array, at: number, markerLength: number): Record<string, unknown> | undefined {
  let i = at + markerLength
  while (isBlank(bytes[i])) i++
  if (bytes[i] !== 58 /* : */) return undefined
  i++
  while (isBlank(bytes[i])) i++
  if (bytes[i] !== openBrace) return undefined
  const end = objectEnd(bytes, i)
  if (end < 0) return undefined
  try {
    const value = JSON.parse(decoder.decode(bytes.subarray(i, end))) as unknown
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/**
 * A `"key"` marker as bytes, with the shift tables of a Horspool search (forward: by the window's last byte; backward:
 * by its first), so that a scan looks at a few bytes of every marker's length rather than at every byte. Made once per
 * key.
 */
interface Marker {
  bytes: Uint8Array
  forward: Uint16Array
  backward: Uint16Array
}

const markers = new Map<string, Marker>()

function markerOf(key: string): Marker {
  let marker = markers.get(key)
  if (marker) return marker
  const bytes = encoder.encode(`"${key}"`)
  const m = bytes.length
  const forward = new Uint16Array(256).fill(m)
  const backward = new Uint16Array(256).fill(m)
  for (let j = 0; j < m - 1; j++) forward[bytes[j] as number] = m - 1 - j
  for (let j = m - 1; j > 0; j--) backward[bytes[j] as number] = j
  marker = { bytes, forward, backward }
  markers.set(key, marker)
  return marker
}

/** Whether `marker` is at `at` in `bytes`. */
function markerAt(bytes: Uint8Array, marker: Uint8Array, at: number): boolean {
  for (let j = 0; j < marker.length; j++) if (bytes[at + j] !== marker[j]) return false
  return true
}

/**
 * The first (or last) object value of `key` in `body` — the bytes as they were received, scanned without decoding them
 * (only the object found is). A key inside a string (a tool argument, text) is escaped (`\"usage\"`), so it never
 * matches.
 */
export function usageObjectIn(
  body: string | Uint8Array,
  key: string,
  last: boolean,
): Record<string, unknown> | undefined {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body
  const marker = markerOf(key)
  const m = marker.bytes.length
  const final = bytes.length - m
  if (last) {
    for (let at = final; at >= 0; ) {
      if (!markerAt(bytes, marker.bytes, at)) {
        at -= marker.backward[bytes[at] as number] as number
        continue
      }
      const value = objectAt(bytes, at, m)
      if (value) return value
      at--
    }
    return undefined
  }
  for (let at = 0; at <= final; ) {
    if (!markerAt(bytes, marker.bytes, at)) {
      at += marker.forward[bytes[at + m - 1] as number] as number
      continue
    }
    const value = objectAt(bytes, at, m)
    if (value) return value
    at++
  }
  return undefined
}

/** The usage of a whole answer body (passthrough JSON): its last usage object. */
export function usageOfBody(body: string | Uint8Array, field: UsageField): ir.Usage | undefined {
  const raw = usageObjectIn(body, field.key, true)
  return raw ? field.decode(raw) : undefined
}

/** The tail kept: the last chunks, at least `minTailChunks` and `minTailBytes` (the final usage object is in it). */
const minTailBytes = 2 * 1024
const minTailChunks = 3

/** Chunks as one run of bytes (a text chunk, an error frame the gateway wrote, as UTF-8). */
function bytesOf(chunks: ReadonlyArray<string | Uint8Array>): Uint8Array {
  const parts = chunks.map((chunk) => (typeof chunk === 'string' ? encoder.encode(chunk) : chunk))
  if (parts.length === 1) return parts[0] as Uint8Array
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
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
      const start = usageObjectIn(first, field.key, false)
      // The last chunk alone first: a usage object whole in it comes after any other, so it is the tail's last one too
      // (the tail is joined only when the last chunk has none, or it is cut there).
      const end =
        usageObjectIn(tail.at(-1) as string | Uint8Array, field.key, true) ??
        usageObjectIn(bytesOf(tail), field.key, true)
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
 * it) and its usage reported when the stream ends. Each chunk is whole SSE events, scanned for a `"usage"` key whose
 * value is an object and decoded only when it has one — the other chunks (`"usage":null`) are forwarded as they are.
 */
export function usageChunkCutter(field: UsageField, onUsage: (usage: ir.Usage) => void): ChunkWatcher {
  let usage: ir.Usage | undefined
  let ended = false
  return {
    chunk() {},
    edit(bytes) {
      // Decoded only when it holds a usage object (the usage-only chunk): the others carry `"usage":null` or none.
      if (usageObjectIn(bytes, field.key, false) === undefined) return bytes
      const text = decoder.decode(bytes)
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
      return kept === '' ? undefined : encoder.encode(kept)
    },
    end() {
      if (ended) return
      ended = true
      if (usage) onUsage(usage)
    },
  }
}
