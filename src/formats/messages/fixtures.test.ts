import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkMessagesRequest } from '../../../test/helpers/acceptance.js'
import { decodeRequest } from './decode-request.js'
import { decodeResponse } from './decode-response.js'
import { encodeRequest } from './encode-request.js'
import { encodeResponse } from './encode-response.js'
import { decodeError, encodeError } from './errors.js'

const dir = join(import.meta.dirname, '../../../test/fixtures/messages')
const files = readdirSync(dir)
const read = (file: string): unknown => JSON.parse(readFileSync(join(dir, file), 'utf8'))
const named = (suffix: string): string[] => files.filter((f) => f.endsWith(suffix)).sort()

describe('request fixtures: same-format round trip', () => {
  it.each(named('.request.json'))('%s', (file) => {
    const body = read(file)
    const decoded = decodeRequest(body)
    expect(decoded.warnings).toEqual([])
    const encoded = encodeRequest(decoded.value)
    expect(encoded.warnings).toEqual([])
    expect(encoded.value).toEqual(body)
    expect(checkMessagesRequest(encoded.value)).toEqual([])
  })
})

describe('response fixtures: same-format round trip', () => {
  it.each(named('.response.json'))('%s', (file) => {
    const body = read(file)
    const decoded = decodeResponse(body)
    expect(decoded.warnings).toEqual([])
    const encoded = encodeResponse(decoded.value)
    expect(encoded.warnings).toEqual([])
    expect(JSON.parse(JSON.stringify(encoded.value))).toEqual(body)
  })
})

describe('error fixtures: same-format round trip', () => {
  it.each(named('.error.json'))('%s', (file) => {
    const { status, body } = read(file) as { status: number; body: { request_id: string } }
    const encoded = encodeError(decodeError(status, body))
    expect(encoded).toEqual({ status, body: { ...body, request_id: null } })
  })
})
