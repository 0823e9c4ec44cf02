import { describe, expect, it } from 'vitest'
import { envelopeFor, unwrapEnvelope, wrapEnvelope } from './reasoning-envelope.js'

describe('reasoning envelope', () => {
  it('round-trips provider data byte-exact, unicode and redacted data included', () => {
    const providerData = { 'content-generation': { thoughtSignature: 'Ci8BVKhc+/=é✓'.repeat(50) } }
    const value = wrapEnvelope({ providerData, redactedData: 'EqQBCkYIAxgCIkD' })
    expect(value).toMatch(/^il1\.[A-Za-z0-9_-]+$/)
    expect(unwrapEnvelope(value)).toEqual({ providerData, redactedData: 'EqQBCkYIAxgCIkD' })
  })
  it('native signatures and damaged envelopes are not envelopes', () => {
    expect(unwrapEnvelope('EqQBCkYIAxgCIkD')).toBeUndefined()
    expect(unwrapEnvelope('il1.!!!')).toBeUndefined()
    expect(unwrapEnvelope(`il1.${btoa('{"v":2,"p":{}}')}`)).toBeUndefined()
    expect(unwrapEnvelope(42)).toBeUndefined()
  })
  it("envelopeFor carries only the other providers' signatures", () => {
    const data = { messages: { signature: 's', citations: [] }, 'content-generation': { thoughtSignature: 'g' } }
    expect(envelopeFor(data, 'messages')).toBe(
      wrapEnvelope({ providerData: { 'content-generation': { thoughtSignature: 'g' } } }),
    )
    expect(unwrapEnvelope(envelopeFor(data, 'content-generation'))).toEqual({
      providerData: { messages: { signature: 's' } },
    })
    expect(envelopeFor({ messages: { citations: [] } }, 'content-generation')).toBeUndefined()
    expect(unwrapEnvelope(envelopeFor(undefined, 'content-generation', 'RED'))).toEqual({
      providerData: {},
      redactedData: 'RED',
    })
  })
})
