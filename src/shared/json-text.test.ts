import { describe, expect, it } from 'vitest'
import { jsonText } from './json-text.js'

/** A deterministic generator (an LCG), so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

const chars = [
  'a',
  'Z',
  ' ',
  '"',
  '\\',
  '\n',
  '\u0000',
  '\u001f',
  '\u007f',
  'é',
  '\u2028',
  '😀',
  '\ud800',
  '\udfff',
  '/',
  '<',
]

function randomString(next: () => number): string {
  let out = ''
  const length = Math.floor(next() * 8)
  for (let i = 0; i < length; i++) out += chars[Math.floor(next() * chars.length)]
  return out
}

function randomValue(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 4 ? 5 : 7))
  switch (pick) {
    case 0:
      return randomString(next)
    case 1:
      return [0, -0, 1.5, -3, 1e21, 1e-7, 2 ** 53, 0.1 + 0.2][Math.floor(next() * 8)]
    case 2:
      return next() < 0.5
    case 3:
      return null
    case 4:
      return ['', '0', '10', 'toString', '__proto__', 'key'][Math.floor(next() * 6)]
    case 5:
      return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1))
    default: {
      const out: Record<string, unknown> = {}
      const keys = Math.floor(next() * 4)
      for (let i = 0; i < keys; i++)
        out[[randomString(next), '1', '0', 'b'][Math.floor(next() * 4)] as string] = randomValue(next, depth + 1)
      return out
    }
  }
}

describe('jsonText', () => {
  it('writes plain JSON data exactly as JSON.stringify does', () => {
    const next = random(13)
    for (let i = 0; i < 5000; i++) {
      const value = randomValue(next, 0)
      expect(jsonText(value)).toBe(JSON.stringify(value))
      // what JSON.parse gives (own `__proto__` keys, integer-like keys first) as well
      const parsed: unknown = JSON.parse(JSON.stringify(value))
      expect(jsonText(parsed)).toBe(JSON.stringify(parsed))
    }
    const parsed = JSON.parse('{"__proto__":{"a":1},"b":[1,"x"],"2":true,"1":null}')
    expect(jsonText(parsed)).toBe('{"1":null,"2":true,"__proto__":{"a":1},"b":[1,"x"]}')
    const long = 'word '.repeat(2000)
    for (const tail of ['', '"', '\\', '\n', '\u2028', '\ud83d', '\ud83d\ude00', '\u001f'])
      for (const text of [long + tail, tail + long, long + tail + long])
        expect(jsonText({ output: text })).toBe(JSON.stringify({ output: text }))
  })

  it('hands everything else to JSON.stringify (same text, same exceptions)', () => {
    class Point {
      x = 1
    }
    const values: unknown[] = [
      { at: new Date(0) },
      { toJSON: () => 'custom' },
      { a: undefined, b: () => 1, c: Symbol('s'), d: 1 },
      [undefined, () => 1, Symbol('s')],
      // biome-ignore lint/suspicious/noSparseArray: a hole is written as null
      [1, , 3],
      { n: Number.NaN, i: Number.POSITIVE_INFINITY },
      new Point(),
      Object.assign(Object.create(null), { a: 1 }),
      Object.assign([1, 2], { extra: true }),
      { nested: { deeper: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{ x: 1 }]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]] } },
      new String('boxed'),
      [new Number(2), new Boolean(false)],
    ]
    for (const value of values) expect(jsonText(value)).toBe(JSON.stringify(value))
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic.self = cyclic
    expect(() => jsonText(cyclic)).toThrow(TypeError)
    expect(() => jsonText({ big: 1n })).toThrow(TypeError)
  })

  it('does not write keys inherited from a polluted prototype', () => {
    const proto = Object.prototype as Record<string, unknown>
    proto.polluted = 1
    try {
      expect(jsonText({ a: 1 })).toBe(JSON.stringify({ a: 1 }))
    } finally {
      delete proto.polluted
    }
  })
})
