import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Path, paths, replaced } from '../../../test/helpers/mutate.js'
import { InterlinguaError } from '../../errors.js'
import { decodeRequest } from './decode-request.js'
import { decodeResponse } from './decode-response.js'
import { encodeRequest } from './encode-request.js'
import { encodeResponse } from './encode-response.js'

const dir = join(import.meta.dirname, '../../../test/fixtures/messages')
const load = (suffix: string): unknown[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith(suffix))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))

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
