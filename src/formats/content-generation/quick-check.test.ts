import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decodeRequest } from './decode-request.js'
import { quickRequestOk } from './quick-check.js'
import { requestSchema } from './schema.js'

const dir = new URL('../../../test/fixtures/content-generation/', import.meta.url)
const fixtures = readdirSync(dir).filter((name) => name.endsWith('.request.json'))

const base = () => ({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })

describe('quickRequestOk', () => {
  it.each(fixtures)('accepts the valid fixture %s, as zod does', (name) => {
    const body: unknown = JSON.parse(readFileSync(new URL(name, dir), 'utf8'))
    expect(requestSchema.safeParse(body).success).toBe(true)
    expect(quickRequestOk(body)).toBe(true)
  })

  it('rejects what zod rejects, so zod names the field', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { ...base(), tools: [{ functionDeclarations: [{ name: 5 }] }] },
        'tools[0].functionDeclarations[0].name: expected string, received number',
      ],
      [
        { ...base(), tools: [{ functionDeclarations: [{ name: 'f', parameters: [] }] }] },
        'tools[0].functionDeclarations[0].parameters: expected record, received array',
      ],
      [
        { ...base(), generationConfig: { temperature: 'hot' } },
        'generationConfig.temperature: expected number, received string',
      ],
      [{ ...base(), generationConfig: { maxOutputTokens: 1.5 } }, 'generationConfig.maxOutputTokens'],
      [
        { ...base(), toolConfig: { functionCallingConfig: { allowedFunctionNames: [1] } } },
        'toolConfig.functionCallingConfig.allowedFunctionNames[0]: expected string, received number',
      ],
      [{ contents: [{ parts: [{ text: 1 }] }] }, 'contents[0].parts[0].text: expected string, received number'],
      [{ systemInstruction: { parts: [] } }, 'contents: required field is missing (expected array)'],
    ]
    for (const [body, message] of cases) {
      expect(quickRequestOk(body)).toBe(false)
      expect(() => decodeRequest(body, { model: 'gemini-2.5-flash' })).toThrow(message)
    }
  })

  it('leaves unknown keys and JSON-schema values to the decoder', () => {
    const body = { ...base(), cachedContent: 'cachedContents/1', tools: [{ googleSearch: {} }], model: 7 }
    expect(quickRequestOk(body)).toBe(true)
    expect(quickRequestOk({ ...base(), generationConfig: { responseJsonSchema: 'anything' } })).toBe(true)
  })
})
