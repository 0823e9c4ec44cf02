/**
 * The cross-format matrix (issue 2): every request/response/error fixture of every format is decoded in its own
 * format and encoded into all three. Same format: the body survives exactly. Other formats: the output is what the
 * real service accepts (test/helpers/acceptance.ts), decodes cleanly in the target format, and — where an
 * expected body is stored as `<scenario>.to-<target>.json` — equals it exactly. Usage totals and finish reasons
 * survive every pair.
 */
import { describe, expect, it } from 'vitest'
import { convertError, convertRequest, convertResponse } from '../src/convert.js'
import { InterlinguaError } from '../src/errors.js'
import { getFormat } from '../src/formats/index.js'
import type * as ir from '../src/ir/index.js'
import { checkRequest } from './helpers/acceptance.js'
import { fixtureExists, formatIds, readJson, scenarios } from './helpers/fixtures.js'

const model = 'test-model'

describe.each(formatIds)('requests from %s', (from) => {
  const names = scenarios(from, '.request.json')
  it('has request fixtures', () => expect(names.length).toBeGreaterThan(5))

  describe.each(names)('%s', (scenario) => {
    const body = readJson(from, `${scenario}.request.json`)

    it.each(formatIds)(`→ %s`, (to) => {
      const warnings: ir.Warning[] = []
      const out = convertRequest(body, { from, to, model, onWarning: (w) => warnings.push(w) }) as Record<
        string,
        unknown
      >
      if (to === from) {
        const expected = from === 'content-generation' ? body : { ...(body as object), model }
        expect(out).toEqual(expected)
        expect(warnings).toEqual([])
        return
      }
      expect(checkRequest[to](out)).toEqual([])
      // The target's own decoder accepts what we produced.
      const decoded = getFormat(to).decodeRequest(out, { model })
      expect(decoded.value.messages.length).toBeGreaterThan(0)
      for (const warning of warnings) {
        expect(typeof warning.path).toBe('string')
        expect(warning.message.length).toBeGreaterThan(0)
      }
      const expectedFile = `${scenario}.to-${to}.json`
      if (fixtureExists(from, expectedFile)) expect(out).toEqual(readJson(from, expectedFile))
    })
  })
})

function unifiedOf(format: ir.FormatId, body: unknown): { finish: string; usage?: ir.Usage; toolCalls: string[] } {
  const response = getFormat(format).decodeResponse(body).value
  return {
    finish: response.finishReason.unified,
    ...(response.usage ? { usage: response.usage } : {}),
    toolCalls: response.content.filter((p) => p.type === 'tool-call').map((p) => (p as ir.ToolCallPart).name),
  }
}

describe.each(formatIds)('responses from %s', (from) => {
  const names = scenarios(from, '.response.json')
  it('has response fixtures', () => expect(names.length).toBeGreaterThan(3))

  describe.each(names)('%s', (scenario) => {
    const body = readJson(from, `${scenario}.response.json`)
    const source = unifiedOf(from, body)

    it.each(formatIds)('→ %s', (to) => {
      const out = convertResponse(body, { from, to })
      if (to === from) {
        expect(out).toEqual(body)
        return
      }
      const target = unifiedOf(to, out)
      expect(target.finish).toBe(source.finish)
      expect(target.toolCalls).toEqual(source.toolCalls)
      if (source.usage) {
        expect(target.usage?.inputTokens).toBe(source.usage.inputTokens)
        expect(target.usage?.outputTokens).toBe(source.usage.outputTokens)
        if (source.usage.cachedInputTokens) expect(target.usage?.cachedInputTokens).toBe(source.usage.cachedInputTokens)
        if (source.usage.reasoningTokens) expect(target.usage?.reasoningTokens).toBe(source.usage.reasoningTokens)
      }
      const expectedFile = `${scenario}.to-${to}.json`
      if (fixtureExists(from, expectedFile)) expect(out).toEqual(readJson(from, expectedFile))
    })
  })
})

describe.each(formatIds)('errors from %s', (from) => {
  const names = scenarios(from, '.error.json')
  it('has error fixtures', () => expect(names.length).toBeGreaterThan(1))

  describe.each(names)('%s', (scenario) => {
    const { status, body } = readJson(from, `${scenario}.error.json`) as { status: number; body: unknown }
    it.each(formatIds)('→ %s keeps the status and speaks the target shape', (to) => {
      const out = convertError(status, body, { from, to })
      expect(out.status).toBe(status)
      const info = getFormat(to).decodeError(out.status, out.body)
      expect(info.code).toBe(getFormat(from).decodeError(status, body).code)
      expect(info.message.length).toBeGreaterThan(0)
    })
  })
})

describe.each(formatIds)('garbage into %s', (from) => {
  const garbage: unknown[] = [
    null,
    42,
    'text',
    [],
    [1, 2],
    true,
    {},
    { messages: 5 },
    { contents: 'x' },
    { messages: [null] },
    { messages: [{ role: 'user', content: 5 }] },
    { contents: [{ parts: 'x' }] },
    { contents: [{ role: 'user', parts: [{ text: 5 }] }] },
  ]
  it.each(garbage.map((g) => [JSON.stringify(g), g]))('%s → invalid-request, never a TypeError', (_label, body) => {
    for (const to of formatIds) {
      let caught: unknown
      try {
        convertRequest(body, { from, to, model })
      } catch (error) {
        caught = error
      }
      expect(InterlinguaError.isInstance(caught)).toBe(true)
      expect((caught as InterlinguaError).code).toBe('invalid-request')
    }
  })
})
