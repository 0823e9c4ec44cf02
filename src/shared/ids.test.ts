import { describe, expect, it } from 'vitest'
import { newId } from './ids.js'

describe('newId', () => {
  it('gives the asked number of hex digits after the kind, and never the same id twice', () => {
    expect(newId('req_')).toMatch(/^req_[0-9a-f]{32}$/)
    expect(newId('msg_', 24)).toMatch(/^msg_[0-9a-f]{24}$/)
    const ids = new Set(Array.from({ length: 10_000 }, () => newId('x', 24)))
    expect(ids.size).toBe(10_000)
  })
})
