import { describe, expect, it } from 'vitest'
import { generateToolCallId, toMessagesToolId } from './tool-ids.js'

describe('tool ids', () => {
  it('generates the same stable ids as before (FNV-1a of the seed and of seed + "#", base 36)', () => {
    expect(generateToolCallId('call_', '0:1:get_weather')).toBe('call_1pdx4cv1e1d2x0')
    expect(generateToolCallId('resp_', '{"promptTokenCount":5}gemini-2.5-pro')).toBe('resp_gng4uzdluqi0')
  })

  it('keeps valid messages ids and rewrites invalid ones deterministically', () => {
    expect(toMessagesToolId('toolu_01A-b_c')).toBe('toolu_01A-b_c')
    expect(toMessagesToolId('call:1/2')).toBe('call_1_2_y3phf9')
    expect(toMessagesToolId('')).toBe(toMessagesToolId(''))
    expect(toMessagesToolId('')).toMatch(/^toolu_[0-9a-z]+$/)
  })
})
