import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InterlinguaError } from '../../errors.js'
import { decodeRequest } from './decode-request.js'
import { decodeResponse } from './decode-response.js'
import { encodeRequest } from './encode-request.js'
import { encodeResponse } from './encode-response.js'

type Path = Array<string | number>
const dir = join(import.meta.dirname, '../../../test/fixtures/messages')
const load = (suffix: string): unknown[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith(suffix))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))

function paths(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  if (prefix.length > 0) out.push(prefix)
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) paths(item, [...prefix, i], out)
  } else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out)
  return out
}

function replaced(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement
  const [head, ...rest] = path
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? replaced(item, rest, replacement) : item))
  const copy = { ...(value as Record<string, unknown>) }
  copy[head as string] = replaced(copy[head as string], rest, replacement)
  return copy
}

const odd = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.string({ maxLength: 3 }),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.constant({ type: 'bogus' }),
  fc.constant({ type: 'base64' }),
)

function run(bodies: unknown[], convert: (body: unknown) => unknown): void {
  fc.assert(
    fc.property(fc.nat(), fc.nat(), odd, (which, where, value) => {
      const body = bodies[which % bodies.length]
      const all = paths(body)
      const mutated = replaced(body, all[where % all.length] as Path, value)
      try {
        convert(mutated)
      } catch (error) {
        expect(InterlinguaError.isInstance(error)).toBe(true)
        expect((error as InterlinguaError).code).toBe('invalid-request')
      }
    }),
    { numRuns: 1000 },
  )
}

describe('mutated fixtures never escape as a TypeError', () => {
  it('requests', () => run(load('.request.json'), (body) => encodeRequest(decodeRequest(body).value)))
  it('responses', () => run(load('.response.json'), (body) => encodeResponse(decodeResponse(body).value)))
})
