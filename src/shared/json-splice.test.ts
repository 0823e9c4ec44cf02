import { describe, expect, it } from 'vitest'
import { spliceModel } from './json-splice.js'

const splice = (text: string, model: string) => spliceModel(text, model, 'model' in JSON.parse(text))

describe('spliceModel', () => {
  it('replaces only the top-level model value and keeps the rest of the text byte for byte', () => {
    const text =
      '{ "messages": [{"role":"user","content":"the \\"model\\": x","model":"inner"}],\n  "model" : "alias", "n": 1.0 }'
    const out = splice(text, 'gpt-4o-mini') as string
    expect(out).toBe(
      '{ "messages": [{"role":"user","content":"the \\"model\\": x","model":"inner"}],\n  "model" : "gpt-4o-mini", "n": 1.0 }',
    )
    expect(JSON.parse(out).messages[0].model).toBe('inner')
  })

  it('escapes the new model id as a JSON string', () => {
    const out = splice('{"model":"a"}', 'we"ird\\id') as string
    expect(JSON.parse(out).model).toBe('we"ird\\id')
  })

  it('gives the text back unchanged when there is no model key', () => {
    const text = '{"contents":[{"parts":[{"text":"\\"model\\":\\"x\\""}]}]}'
    expect(splice(text, 'gemini')).toBe(text)
  })

  it('refuses what it cannot splice safely: an escaped key, a duplicate key, a non-string value, not an object', () => {
    expect(splice('{"mod\\u0065l":"a"}', 'b')).toBeUndefined()
    expect(splice('{"model":"a","model":"c"}', 'b')).toBeUndefined()
    expect(splice('{"model":3}', 'b')).toBeUndefined()
    expect(spliceModel('["model"]', 'b', false)).toBeUndefined()
  })

  it('handles strings ending in escaped backslashes', () => {
    const text = '{"system":"C:\\\\","model":"a","x":"\\\\\\""}'
    const out = splice(text, 'b') as string
    expect(JSON.parse(out)).toEqual({ ...JSON.parse(text), model: 'b' })
  })
})
