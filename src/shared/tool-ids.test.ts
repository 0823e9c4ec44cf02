import { describe, expect, it } from 'vitest'
import { generateToolCallId, generateToolCallIdAt, toMessagesToolId } from './tool-ids.js'

describe('tool ids', () => {
  it('generates the same stable ids as before (FNV-1a of the seed and of seed + "#", base 36)', () => {
    expect(generateToolCallId('call_', '0:1:get_weather')).toBe('call_1pdx4cv1e1d2x0')
    expect(generateToolCallId('resp_', '{"promptTokenCount":5}gemini-2.5-pro')).toBe('resp_gng4uzdluqi0')
  })

  it('generateToolCallIdAt(prefix, a, b, name) is generateToolCallId(prefix, `${a}:${b}:${name}`)', () => {
    expect(generateToolCallIdAt('call_', 0, 1, 'get_weather')).toBe('call_1pdx4cv1e1d2x0')
    for (const a of [0, 9, 10, 99, 100, 1234, 98765])
      for (const b of [0, 1, 10, 35, 36, 1295, 1296])
        for (const name of ['', 'f', 'read_file', 'ünïcode', 'a:b'])
          expect(generateToolCallIdAt('call_', a, b, name)).toBe(generateToolCallId('call_', `${a}:${b}:${name}`))
  })

  it('writes every hash in base 36 as toString(36) would', () => {
    for (let i = 0; i < 2000; i++) {
      const seed = `seed-${i}`
      let h = 0x811c9dc5 | 0
      for (let k = 0; k < seed.length; k++) h = Math.imul(h ^ seed.charCodeAt(k), 0x01000193)
      const second = Math.imul(h ^ 35, 0x01000193)
      expect(generateToolCallId('', seed)).toBe((h >>> 0).toString(36) + (second >>> 0).toString(36))
    }
  })

  it('keeps valid messages ids and rewrites invalid ones deterministically', () => {
    expect(toMessagesToolId('toolu_01A-b_c')).toBe('toolu_01A-b_c')
    expect(toMessagesToolId('call:1/2')).toBe('call_1_2_y3phf9')
    expect(toMessagesToolId('')).toBe(toMessagesToolId(''))
    expect(toMessagesToolId('')).toMatch(/^toolu_[0-9a-z]+$/)
  })
})
