import { describe, expect, it } from 'vitest'
import { InterlinguaError } from '../errors.js'
import * as z from './schema.js'
import { parseWire } from './validate.js'

/** The issues parseWire reports for `body` (path and message), or 'ok' when it passes. */
function issuesOf(schema: z.Schema, body: unknown): unknown {
  try {
    parseWire(schema, body, 'chat-completions')
    return 'ok'
  } catch (error) {
    if (!InterlinguaError.isInstance(error)) throw error
    return error.issues?.map((issue) => `${issue.path}: ${issue.message}`)
  }
}

const wide = z.looseObject({
  id: z.string(),
  n: z.optional(z.number({ int: true, min: 0 })),
  model: z.nullable(z.string()),
  ...Object.fromEntries(
    ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'].map((k) => [k, z.optional(z.string())]),
  ),
  stop: z.optional(z.nullable(z.union([z.string(), z.array(z.string())]))),
  tool: z.optional(
    z.discriminatedUnion('type', [
      z.looseObject({ type: z.literal('function'), name: z.string() }),
      z.looseObject({ type: z.enumOf(['web', 'file']) }),
    ]),
  ),
  meta: z.optional(z.record(z.string())),
})

describe('shared/schema', () => {
  it('validates in place: the same object comes back, with its unknown keys', () => {
    const body = {
      id: 'x',
      model: 'm',
      n: 3,
      stop: ['a'],
      tool: { type: 'web', extra: 1 },
      meta: { k: 'v' },
      other: [1],
    }
    expect(parseWire(wide, body, 'chat-completions')).toBe(body)
  })

  it('reports every bad field in the schema order, whatever the order of the body', () => {
    expect(issuesOf(wide, { k: 1, a: 2, n: -1 })).toEqual([
      'id: required field is missing (expected string)',
      'n: must be at least 0',
      'model: required field is missing (expected string)',
      'a: expected string, received number',
      'k: expected string, received number',
    ])
    expect(issuesOf(wide, { id: 1, a: 2 })).toEqual([
      'id: expected string, received number',
      'model: required field is missing (expected string)',
      'a: expected string, received number',
    ])
  })

  it('an integer check stops at a fraction; an unsafe integer is too big', () => {
    expect(issuesOf(wide, { id: '', model: null, n: 1.5 })).toEqual(['n: expected int, received number'])
    expect(issuesOf(wide, { id: '', model: null, n: 2 ** 60 })).toEqual(['n: must be at most 9007199254740991'])
  })

  it('a failed union names its deepest branch, or every expected type', () => {
    expect(issuesOf(wide, { id: '', model: null, stop: ['a', 2] })).toEqual([
      'stop[1]: expected string, received number',
    ])
    expect(issuesOf(wide, { id: '', model: null, stop: 5 })).toEqual([
      'stop: expected string or array, received number',
    ])
  })

  it('a discriminated union dispatches on the tag, and names an unknown tag', () => {
    expect(issuesOf(wide, { id: '', model: null, tool: { type: 'function' } })).toEqual([
      'tool.name: required field is missing (expected string)',
    ])
    expect(issuesOf(wide, { id: '', model: null, tool: { type: 'nope' } })).toEqual([
      'tool.type: invalid value (string)',
    ])
    expect(issuesOf(wide, { id: '', model: null, tool: { type: 'file' } })).toBe('ok')
  })

  it('a record wants a plain object and checks its values', () => {
    expect(issuesOf(wide, { id: '', model: null, meta: [] })).toEqual(['meta: expected record, received array'])
    expect(issuesOf(wide, { id: '', model: null, meta: { a: 'b', c: 1 } })).toEqual([
      'meta.c: expected string, received number',
    ])
  })

  it('a checked value reports its checker’s problems under the full path', () => {
    const schema = z.looseObject({
      list: z.checked((value) => (Array.isArray(value) ? undefined : { path: [0, 'x'], message: 'bad' })),
    })
    expect(issuesOf(schema, { list: 1 })).toEqual(['list[0].x: bad'])
    expect(issuesOf(schema, { list: [] })).toBe('ok')
  })
})
