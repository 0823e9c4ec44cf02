/** The usage scan reads bytes as received: the same objects as a scan of the decoded text, whatever surrounds them. */
import { describe, expect, it } from 'vitest'
import { decodeUsage } from '../formats/chat-completions/usage.js'
import { usageChunkCutter, usageObjectIn, usageOfBody, usageWatcher } from './usage-scan.js'

const encoder = new TextEncoder()

/** The reference: every `"key"` of the decoded text, in order, whose value parses as an object on its own. */
function reference(text: string, key: string, last: boolean): unknown {
  const found: unknown[] = []
  const marker = `"${key}"`
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
    const rest = /^[ \n\r]*:[ \n\r]*\{/.exec(text.slice(at + marker.length))
    if (!rest) continue
    const start = at + marker.length + rest[0].length - 1
    // The shortest balanced prefix that parses (a brace inside a string is skipped by trying longer ones).
    for (let end = text.indexOf('}', start); end >= 0; end = text.indexOf('}', end + 1)) {
      try {
        const value = JSON.parse(text.slice(start, end + 1)) as unknown
        if (typeof value === 'object' && value !== null) found.push(value)
        break
      } catch {}
    }
  }
  return last ? found.at(-1) : found[0]
}

/** A deterministic pseudo-random source (xorshift). */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 2 ** 32
  }
}

describe('usageObjectIn over bytes', () => {
  it('finds what a scan of the decoded text finds, around multi-byte text, escaped keys and near misses', () => {
    const next = random(22)
    const pieces = [
      '"usage":{"a":1}',
      '"usage" : {"b":{"c":"}"}}',
      '"usage":null',
      '"usages":{"x":1}',
      '"usag":{"y":1}',
      'x"usage"',
      '"text":"\\"usage\\": {\\"z\\": 1}"',
      '"é✓🔑":"ü"',
      '"usage":{"d":"日本語"}',
      '"n":[1,2,{"usage":{"e":2}}]',
      '"usage"\n:\r\n{"f":3}',
      '"usage":{"cut":',
      '"usageMetadata":{"g":1}',
      '"usageMetadat":{"h":1}',
      '"ageMetadata":{"i":1}',
      '"usageMetadata":[1]',
    ]
    for (let round = 0; round < 400; round++) {
      const parts = Array.from({ length: 1 + Math.floor(next() * 6) }, () => pieces[Math.floor(next() * pieces.length)])
      const text = `{${parts.join(',')}}`
      for (const key of ['usage', 'usageMetadata'])
        for (const last of [false, true]) {
          const expected = reference(text, key, last)
          expect(usageObjectIn(encoder.encode(text), key, last), `${key} in ${text}, last: ${last}`).toEqual(expected)
          expect(usageObjectIn(text, key, last)).toEqual(expected)
        }
    }
  })

  it('reads a whole body, and a stream from its first chunk and its tail, split inside a character', () => {
    const field = { key: 'usage', decode: decodeUsage }
    const body = encoder.encode(
      '{"choices":[{"message":{"content":"🔑 \\"usage\\":{}"}}],"usage":{"prompt_tokens":3,"completion_tokens":4}}',
    )
    expect(usageOfBody(body, field)).toMatchObject({ inputTokens: 3, outputTokens: 4 })
    let seen: unknown
    const watcher = usageWatcher(field, (usage) => {
      seen = usage
    })
    const stream = encoder.encode(
      `data: {"choices":[{"delta":{"content":"${'日本'.repeat(900)}"}}],"usage":null}\n\ndata: {"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":6}}\n\n`,
    )
    // Chunks cut at every 1000th byte: inside three-byte characters.
    for (let at = 0; at < stream.length; at += 1000) watcher.chunk(stream.subarray(at, at + 1000))
    watcher.end()
    expect(seen).toMatchObject({ inputTokens: 5, outputTokens: 6 })
    // The last cut inside the usage object: found in the joined tail.
    seen = undefined
    const again = usageWatcher(field, (usage) => {
      seen = usage
    })
    const cut = stream.length - 20
    for (const [from, to] of [
      [0, 3000],
      [3000, cut],
      [cut, stream.length],
    ])
      again.chunk(stream.subarray(from, to))
    again.end()
    expect(seen).toMatchObject({ inputTokens: 5, outputTokens: 6 })
  })

  it('cuts the usage-only chunk and forwards the others as the same bytes, undecoded', () => {
    let seen: unknown
    const cutter = usageChunkCutter({ key: 'usage', decode: decodeUsage }, (usage) => {
      seen = usage
    })
    const plain = encoder.encode('data: {"choices":[{"delta":{"content":"é"}}],"usage":null}\n\n')
    expect(cutter.edit?.(plain)).toBe(plain)
    const last = encoder.encode(
      'data: {"choices":[{"delta":{}}],"usage":null}\n\ndata: {"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2}}\n\n',
    )
    expect(new TextDecoder().decode(cutter.edit?.(last))).toBe('data: {"choices":[{"delta":{}}],"usage":null}\n\n')
    cutter.end()
    expect(seen).toMatchObject({ inputTokens: 1, outputTokens: 2 })
  })
})
