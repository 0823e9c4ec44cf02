import { describe, expect, it } from 'vitest'
import { convertRequest, convertResponse } from './convert.js'

describe('same-format conversion', () => {
  it('is a deep copy equal to the input, with only the model replaced', () => {
    const body = JSON.parse(
      '{"model":"a","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],"vendor_x":{"deep":[1,{"k":null}]}}',
    )
    const out = convertRequest(body, { from: 'chat-completions', to: 'chat-completions', model: 'b' }) as typeof body
    expect(out).toEqual({ ...body, model: 'b' })
    expect(out.messages).not.toBe(body.messages)
    expect(out.vendor_x.deep[1]).not.toBe(body.vendor_x.deep[1])
    expect(body.model).toBe('a')
  })

  it('keeps an own "__proto__" key as a plain field (never the copy\'s prototype)', () => {
    const body = JSON.parse('{"model":"m","messages":[{"role":"user","content":"x"}],"__proto__":{"polluted":true}}')
    const out = convertRequest(body, { from: 'chat-completions', to: 'chat-completions' }) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect((out as { polluted?: boolean }).polluted).toBeUndefined()
    expect(Object.hasOwn(out, '__proto__')).toBe(true)
    expect(JSON.stringify(out)).toBe(JSON.stringify(body))
  })

  it('copies a Gemini response with modelVersion replaced', () => {
    const body = { candidates: [{ content: { role: 'model', parts: [{ text: 'hi' }] } }], modelVersion: 'g-1' }
    const out = convertResponse(body, { from: 'content-generation', to: 'content-generation', model: 'g-2' })
    expect(out).toEqual({ ...body, modelVersion: 'g-2' })
  })
})
