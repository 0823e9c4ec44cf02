import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Usage } from '../../ir/index.js'
import { decodeRequest } from './decode-request.js'
import { decodeResponse } from './decode-response.js'
import { encodeRequest } from './encode-request.js'
import { encodeResponse } from './encode-response.js'
import { decodeError, encodeError } from './errors.js'
import { type ChatCompletionsUsage, decodeUsage, encodeUsage } from './usage.js'

const dir = join(import.meta.dirname, '../../../test/fixtures/chat-completions')
const files = readdirSync(dir)
const load = (name: string): unknown => JSON.parse(readFileSync(join(dir, name), 'utf8'))

describe('chat-completions fixtures: same-format round trip', () => {
  for (const name of files.filter((file) => file.endsWith('.request.json'))) {
    it(`request ${name}`, () => {
      const body = load(name)
      const decoded = decodeRequest(body)
      expect(decoded.warnings).toEqual([])
      const encoded = encodeRequest(decoded.value)
      expect(encoded.warnings).toEqual([])
      expect(encoded.value).toEqual(body)
    })
  }
  for (const name of files.filter((file) => file.endsWith('.response.json'))) {
    it(`response ${name}`, () => {
      const body = load(name) as { usage: ChatCompletionsUsage }
      const decoded = decodeResponse(body)
      expect(decoded.warnings).toEqual([])
      // The pinned usage codec keeps only the normalised counters (zero / audio details are not carried).
      expect(encodeResponse(decoded.value).value).toEqual({
        ...body,
        usage: encodeUsage(decodeUsage(body.usage) as Usage),
      })
      expect(decoded.value.usage?.inputTokens).toBe(body.usage.prompt_tokens)
    })
  }
  for (const name of files.filter((file) => file.endsWith('.error.json'))) {
    it(`error ${name}`, () => {
      const fixture = load(name) as { status: number; body: unknown }
      expect(encodeError(decodeError(fixture.status, fixture.body))).toEqual(fixture)
    })
  }
})
