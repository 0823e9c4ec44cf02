/**
 * Issue 10 §4, the decoder audit as a property: mutate valid requests of every format (the fixtures) — an unknown
 * discriminator (`type`, `role`), a wrong type on a known field — and the decoder must either refuse with a 400
 * naming the JSON path of the mutated field (or a parent of it), or carry the mutated body through a same-format
 * codec round trip exactly. Never a silent drop. Seeded, bounded.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InterlinguaError } from '../src/errors.js'
import { formats } from '../src/formats/index.js'

type Path = Array<string | number>
type Json = unknown

const fixtures = join(import.meta.dirname, 'fixtures')

/**
 * Free-form values the wire formats do not define (JSON Schemas, tool arguments and results, metadata): a mutation
 * inside them is just another valid document, so the audit does not descend into them.
 */
const freeForm = new Set([
  'parameters',
  'input_schema',
  'parametersJsonSchema',
  'schema',
  'responseJsonSchema',
  'responseSchema',
  'args',
  'input',
  'arguments',
  'response',
  'metadata',
  'json_schema',
  'format',
  'provider_data',
])

/** Every path to a value inside `body` (not the root), not descending into free-form values. */
function paths(value: Json, prefix: Path = []): Path[] {
  const out: Path[] = []
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) out.push([...prefix, i], ...paths(value[i], [...prefix, i]))
  } else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) {
      out.push([...prefix, k])
      if (!freeForm.has(k)) out.push(...paths(v, [...prefix, k]))
    }
  return out
}

function setAt(body: Json, path: Path, value: Json): Json {
  const copy = structuredClone(body) as Record<string | number, Json>
  let node = copy as Record<string | number, Json>
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>
  node[path[path.length - 1] as string | number] = value
  return copy
}

function getAt(body: Json, path: Path): Json {
  let node = body as Record<string | number, Json>
  for (const key of path) node = node?.[key] as Record<string | number, Json>
  return node
}

/** `a.b[0].c` (the codecs' path notation). */
function dotted(path: Path): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('')
}

/** A wrong-typed replacement for a value. */
function wrongType(value: Json): Json {
  if (typeof value === 'string') return 42
  if (typeof value === 'number') return 'forty-two'
  if (typeof value === 'boolean') return 'yes'
  if (Array.isArray(value)) return { not: 'an array' }
  if (value && typeof value === 'object') return 'not an object'
  return undefined
}

interface Outcome {
  ok: boolean
  detail: string
}

function judge(formatIndex: number, mutated: Json, path: Path): Outcome {
  const format = formats[formatIndex] as (typeof formats)[number]
  let decoded: ReturnType<typeof format.decodeRequest>
  try {
    decoded = format.decodeRequest(mutated, { model: 'm' })
  } catch (error) {
    if (!InterlinguaError.isInstance(error) || error.code !== 'invalid-request')
      return { ok: false, detail: `threw ${String(error)}` }
    const named = error.param ?? error.message
    // The error names the mutated field or one of its parents (zod reports a union at its parent).
    const ok = path.some((_, i) => named.startsWith(dotted(path.slice(0, i + 1))))
    return { ok, detail: `refused at ${named} for ${dotted(path)}` }
  }
  const encoded = format.encodeRequest(decoded.value)
  const same = isDeepStrictEqual(encoded.value, mutated)
  const reported = decoded.warnings.length + encoded.warnings.length > 0
  return {
    ok: same || reported,
    detail: `${format.id}: accepted ${dotted(path)}; round trip ${same ? 'exact' : 'differs'}`,
  }
}

const discriminators = new Set(['type', 'role'])

describe.each(formats.map((format, index) => [format.id, index] as const))('%s decoder audit', (id, index) => {
  const dir = join(fixtures, id)
  const bodies = readdirSync(dir)
    .filter((f) => f.endsWith('.request.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Json)

  it('an unknown discriminator is refused naming its path, or carried exactly', () => {
    for (const body of bodies) {
      for (const path of paths(body).filter((p) => discriminators.has(String(p[p.length - 1])))) {
        if (typeof getAt(body, path) !== 'string') continue
        const outcome = judge(index, setAt(body, path, 'bogus_kind'), path)
        expect(outcome.ok, outcome.detail).toBe(true)
      }
    }
  })

  it('a wrong type on any field is refused naming its path, or carried exactly (every field of every fixture)', () => {
    const failures: string[] = []
    for (const body of bodies)
      for (const path of paths(body)) {
        const replacement = wrongType(getAt(body, path))
        if (replacement === undefined) continue
        const outcome = judge(index, setAt(body, path, replacement), path)
        if (!outcome.ok) failures.push(outcome.detail)
      }
    expect(failures).toEqual([])
  })

  it('two random mutations at once never crash the decoder or escape as a non-400 (property, seeded)', () => {
    const cases = bodies.flatMap((body) => paths(body).map((path) => ({ body, path })))
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.constantFrom(...cases), (a, b) => {
        let mutated = setAt(a.body, a.path, wrongType(getAt(a.body, a.path)) ?? null)
        // The second mutation only when its parent survived the first (a replaced parent has no such path).
        if (a.body === b.body && typeof getAt(mutated, b.path.slice(0, -1)) === 'object')
          mutated = setAt(mutated, b.path, 'bogus_kind')
        try {
          formats[index]?.decodeRequest(mutated, { model: 'm' })
        } catch (error) {
          if (!InterlinguaError.isInstance(error) || error.code !== 'invalid-request') throw error
        }
      }),
      { seed: 20261124, numRuns: 300 },
    )
  })
})
