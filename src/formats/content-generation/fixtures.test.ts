import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type * as ir from '../../ir/index.js'
import { decodeRequest } from './decode-request.js'
import { decodeResponse } from './decode-response.js'
import { encodeRequest } from './encode-request.js'
import { encodeResponse } from './encode-response.js'
import { decodeError, encodeError } from './errors.js'

const dir = join(import.meta.dirname, '../../../test/fixtures/content-generation')
const files = readdirSync(dir)
const load = (name: string): unknown => JSON.parse(readFileSync(join(dir, name), 'utf8'))

describe('content-generation fixtures: same-format round trip is exact', () => {
  for (const file of files.filter((f) => f.endsWith('.request.json'))) {
    it(file, () => {
      const body = load(file)
      const decoded = decodeRequest(body, { model: 'gemini-2.5-flash' })
      const encoded = encodeRequest(decoded.value)
      expect(encoded.value).toEqual(body)
      expect(encoded.warnings).toEqual([])
    })
  }
  for (const file of files.filter((f) => f.endsWith('.response.json'))) {
    it(file, () => {
      const body = load(file)
      const encoded = encodeResponse(decodeResponse(body).value)
      expect(encoded.value).toEqual(body)
      expect(encoded.warnings).toEqual([])
    })
  }
  for (const file of files.filter((f) => f.endsWith('.error.json'))) {
    it(file, () => {
      const fixture = load(file)
      const { status, body } = fixture as { status: number; body: unknown }
      expect(encodeError(decodeError(status, body))).toEqual(fixture)
    })
  }
})

describe('content-generation invariants on fixtures', () => {
  it('recovers every functionResponse name and id-less pairing from the conversation when the IR lacks them', () => {
    const body = load('tool-results.request.json') as { contents: Array<{ role: string; parts: unknown[] }> }
    const { value } = decodeRequest(body, { model: 'm' })
    // As if the history came from another format: no toolName, no content-generation provider data on results.
    const stripped: ir.Request = {
      ...value,
      messages: value.messages.map((message) =>
        message.role !== 'tool'
          ? message
          : {
              role: 'tool',
              content: message.content.map(({ toolName: _name, providerData: _data, ...rest }) => rest),
            },
      ),
    }
    const encoded = encodeRequest(stripped).value as {
      contents: Array<{ role: string; parts: Record<string, unknown>[] }>
    }
    const responses = encoded.contents.map((c) =>
      c.parts.filter((p) => p.functionResponse).map((p) => (p.functionResponse as { name: string }).name),
    )
    expect(responses).toEqual([[], [], ['get_weather', 'get_weather'], [], [], [], ['get_time']])
    expect(encoded.contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_weather', response: { output: '18°C, sunny' } } },
        { functionResponse: { name: 'get_weather', response: { temperature: 12, conditions: 'rain' } } },
      ],
    })
    expect(encoded.contents[6]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_time', response: { error: 'time service unavailable' }, id: 'fc_7f3a' } },
      ],
    })
  })
})
