/**
 * Wrong-typed input anywhere in a real request never escapes as a TypeError: fast-check replaces one leaf (or
 * inner node) of every request fixture with a value of another type; conversion to every format either succeeds or
 * throws `InterlinguaError` with code `invalid-request` and a message that starts with a JSON path.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { convertRequest, convertResponse } from '../src/convert.js'
import { InterlinguaError } from '../src/errors.js'
import { formatIds, readJson, scenarios } from './helpers/fixtures.js'
import { type Path, paths, replaced } from './helpers/mutate.js'

const oddValues = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.string({ maxLength: 4 }),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.constant([1, 'x', null]),
  fc.constant({ type: 'bogus' }),
)

function expectCleanFailure(run: () => unknown): void {
  try {
    run()
  } catch (error) {
    if (!InterlinguaError.isInstance(error)) throw error
    expect(['invalid-request', 'unsupported-feature']).toContain(error.code)
  }
}

describe.each(formatIds)('mutated %s fixtures', (from) => {
  const requests = scenarios(from, '.request.json').map((name) => readJson(from, `${name}.request.json`))
  const responses = scenarios(from, '.response.json').map((name) => readJson(from, `${name}.response.json`))

  it('requests: never a TypeError', () => {
    if (requests.length === 0) return
    fc.assert(
      fc.property(fc.nat(), fc.nat(), oddValues, fc.constantFrom(...formatIds), (which, where, value, to) => {
        const body = requests[which % requests.length]
        const all = paths(body)
        const path = all[where % all.length] as Path
        const mutated = replaced(body, path, value)
        expectCleanFailure(() => convertRequest(mutated, { from, to, model: 'm' }))
      }),
      { numRuns: 300 },
    )
  })

  it('responses: never a TypeError', () => {
    if (responses.length === 0) return
    fc.assert(
      fc.property(fc.nat(), fc.nat(), oddValues, fc.constantFrom(...formatIds), (which, where, value, to) => {
        const body = responses[which % responses.length]
        const all = paths(body)
        const path = all[where % all.length] as Path
        const mutated = replaced(body, path, value)
        expectCleanFailure(() => convertResponse(mutated, { from, to }))
      }),
      { numRuns: 300 },
    )
  })

  it('the error names the JSON path of the bad field', () => {
    const body = requests[0]
    if (!body) return
    const bodyPaths = paths(body)
    // A top-level collection replaced by a number is always invalid; the path must be in the message.
    const key = from === 'content-generation' ? 'contents' : from === 'responses' ? 'input' : 'messages'
    expect(bodyPaths.some((p) => p[0] === key)).toBe(true)
    let caught: unknown
    try {
      convertRequest(replaced(body, [key], 5), { from, to: 'messages', model: 'm' })
    } catch (error) {
      caught = error
    }
    expect(InterlinguaError.isInstance(caught)).toBe(true)
    expect((caught as Error).message.startsWith(`${key}:`)).toBe(true)
  })
})
