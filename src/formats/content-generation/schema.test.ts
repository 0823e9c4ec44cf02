import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseWire } from '../../shared/validate.js'
import { decodeRequest } from './decode-request.js'
import { requestSchema } from './schema.js'

const dir = new URL('../../../test/fixtures/content-generation/', import.meta.url)
const fixtures = readdirSync(dir).filter((name) => name.endsWith('.request.json'))

const base = () => ({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })

describe('content-generation requestSchema', () => {
  it.each(fixtures)('accepts the valid fixture %s in place (the body itself, uncopied)', (name) => {
    const body: unknown = JSON.parse(readFileSync(new URL(name, dir), 'utf8'))
    expect(parseWire(requestSchema, body, 'content-generation')).toBe(body)
  })

  it('names the first bad field', () => {
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
        { ...base(), generationConfig: { topK: 'x', seed: 1.5, candidateCount: 'y' } },
        'generationConfig.topK: expected number, received string',
      ],
      [
        { ...base(), toolConfig: { functionCallingConfig: { allowedFunctionNames: [1] } } },
        'toolConfig.functionCallingConfig.allowedFunctionNames[0]: expected string, received number',
      ],
      [{ contents: [{ parts: [{ text: 1 }] }] }, 'contents[0].parts[0].text: expected string, received number'],
      [{ systemInstruction: { parts: [] } }, 'contents: required field is missing (expected array)'],
    ]
    for (const [body, message] of cases) {
      expect(() => decodeRequest(body, { model: 'gemini-2.5-flash' })).toThrow(message)
    }
  })

  it('reports every bad field, in the schema order, whatever the order of the body', () => {
    const body = { ...base(), generationConfig: { seed: 1.5, temperature: 'hot', stopSequences: [1] } }
    expect(() => parseWire(requestSchema, body, 'content-generation')).toThrow(
      expect.objectContaining({
        issues: [
          { path: 'generationConfig.temperature', message: 'expected number, received string' },
          { path: 'generationConfig.stopSequences[0]', message: 'expected string, received number' },
          { path: 'generationConfig.seed', message: 'expected int, received number' },
        ],
      }),
    )
  })

  it('leaves unknown keys and JSON-schema values to the decoder', () => {
    const body = { ...base(), cachedContent: 'cachedContents/1', tools: [{ googleSearch: {} }], model: 7 }
    expect(parseWire(requestSchema, body, 'content-generation')).toBe(body)
    const anything = { ...base(), generationConfig: { responseJsonSchema: 'anything' } }
    expect(parseWire(requestSchema, anything, 'content-generation')).toBe(anything)
  })
})
