/**
 * Token usage of a passthrough answer (policy 1: its bytes are forwarded untouched), read without decoding it: the
 * usage object is cut out of the text after the format's usage key (`"usage":{…}`, `"usageMetadata":{…}`) and parsed
 * alone. A stream costs nothing per chunk: the first chunk and a bounded tail are kept, and scanned once at the end —
 * the first usage object (Anthropic's `message_start` input counts) merged with the last (the final counts).
 */
import type { UsageField } from '../formats/format.js'
import type * as ir from '../ir/index.js'
import { type ChunkSource, type ExchangeResult, isChunkSource } from './exchange.js'

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

/** Bytes of the tail kept: the final usage-bearing event is within it (at least the last `minTailChunks` chunks). */
const minTailBytes = 16 * 1024
const minTailChunks = 3

/** The usage of a streamed answer: the first usage object of its first chunk merged with the last one of its tail. */
function usageOfStream(first: string, tail: string, field: UsageField): ir.Usage | undefined {
  const start = usageObjectIn(first, field.key, false)
  const end = usageObjectIn(tail, field.key, true)
  if (!start && !end) return undefined
  return field.decode({ ...start, ...end })
}

/**
 * `source` unchanged, reporting the stream's usage through `onUsage` when it ends (before the end reaches the
 * caller), or when it is cancelled (what was sent until then).
 */
export function tapStreamUsage(
  source: ChunkSource,
  field: UsageField,
  onUsage: (usage: ir.Usage) => void,
): ChunkSource {
  let first: string | Uint8Array | undefined
  const tail: Array<string | Uint8Array> = []
  let tailBytes = 0
  let reported = false
  const report = () => {
    if (reported || first === undefined) return
    reported = true
    const decoder = new TextDecoder()
    const text = (chunk: string | Uint8Array) =>
      typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
    let joined = ''
    for (const chunk of tail) joined += text(chunk)
    const start = typeof first === 'string' ? first : new TextDecoder().decode(first)
    const usage = usageOfStream(start, joined, field)
    if (usage) onUsage(usage)
  }
  return {
    async next() {
      const chunk = await source.next()
      if (chunk === undefined) {
        report()
        return chunk
      }
      if (first === undefined) first = chunk
      tail.push(chunk)
      tailBytes += chunk.length
      while (tail.length > minTailChunks && tailBytes - (tail[0] as string | Uint8Array).length >= minTailBytes)
        tailBytes -= (tail.shift() as string | Uint8Array).length
      return chunk
    },
    cancel() {
      source.cancel()
      report()
    },
  }
}

/**
 * Reads the usage of a successful passthrough answer into `onUsage`: a JSON body at once, a stream when it ends (the
 * body is wrapped, its bytes unchanged).
 */
export function tapPassthroughUsage(
  result: ExchangeResult,
  field: UsageField | undefined,
  onUsage: (usage: ir.Usage) => void,
): void {
  if (!field || result.status < 200 || result.status > 299) return
  const body = result.body
  if (isChunkSource(body)) result.body = tapStreamUsage(body, field, onUsage)
  else if (body !== null) {
    // A passthrough JSON answer is the upstream's bytes: decoded here only because someone listens for its usage.
    const usage = usageOfText(typeof body === 'string' ? body : new TextDecoder().decode(body), field)
    if (usage) onUsage(usage)
  }
}
