import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { InterlinguaError } from '../../errors.js'
import { decodeRequest } from './decode-request.js'
import { decodeResponse } from './decode-response.js'
import { encodeRequest } from './encode-request.js'
import { encodeResponse } from './encode-response.js'

const dir = join(import.meta.dirname, '../../../test/fixtures/content-generation')
const load = (name: string): unknown => JSON.parse(readFileSync(join(dir, name), 'utf8'))
const garbage: unknown[] = [null, 0, -1.5, '', 'x', true, [], [1, 'a'], {}, { a: 1 }]

/** Every path to a value inside `value`. */
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const out = [prefix]
  if (Array.isArray(value)) for (const [i, v] of value.entries()) out.push(...paths(v, [...prefix, i]))
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]))
  return out
}

function replaced(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement
  const [head, ...rest] = path as [string | number, ...Array<string | number>]
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>
  copy[head] = replaced(copy[head], rest, replacement)
  return copy
}

/** Decoding either succeeds (and re-encodes) or throws an InterlinguaError `invalid-request`, never a TypeError. */
function survives(run: () => void): void {
  try {
    run()
  } catch (error) {
    expect(InterlinguaError.isInstance(error) ? error.code : error).toBe('invalid-request')
  }
}

describe('content-generation: garbage in any field never crashes', () => {
  const files = readdirSync(dir)
  for (const file of files.filter((f) => f.endsWith('.request.json') || f.endsWith('.response.json'))) {
    it(file, () => {
      const body = load(file)
      for (const path of paths(body)) {
        for (const value of garbage) {
          const mutated = replaced(body, path, value)
          if (file.endsWith('.request.json'))
            survives(() => encodeRequest(decodeRequest(mutated, { model: 'm' }).value, { schemaDialect: 'openapi' }))
          else survives(() => encodeResponse(decodeResponse(mutated).value))
        }
      }
    })
  }

  it('names the path of typical mistakes', () => {
    const error = (body: unknown) => {
      try {
        decodeRequest(body, { model: 'm' })
      } catch (e) {
        return InterlinguaError.isInstance(e) ? e.param : 'not an InterlinguaError'
      }
      return 'no error'
    }
    const contents = [{ role: 'user', parts: [{ text: 'a' }] }]
    expect(error({ contents: [{ role: 'model', parts: [{ functionCall: { args: {} } }] }] })).toBe(
      'contents[0].parts[0].functionCall.name',
    )
    expect(error({ contents: [{ parts: [{ functionResponse: { name: 'f', response: 'ok' } }] }] })).toBe(
      'contents[0].parts[0].functionResponse.response',
    )
    expect(error({ contents, systemInstruction: { parts: 'be nice' } })).toBe('systemInstruction.parts')
    expect(error({ contents, tools: [{ functionDeclarations: [{ description: 'x' }] }] })).toBe(
      'tools[0].functionDeclarations[0].name',
    )
    expect(error({ contents, generationConfig: { thinkingConfig: { thinkingBudget: 1.5 } } })).toBe(
      'generationConfig.thinkingConfig.thinkingBudget',
    )
    expect(error({ contents, toolConfig: { functionCallingConfig: { allowedFunctionNames: 'f' } } })).toBe(
      'toolConfig.functionCallingConfig.allowedFunctionNames',
    )
  })
})
