import { describe, expect, it } from 'vitest'
import { argumentsObject, parseArguments, stringifyArguments, toolCallFromObject } from './tool-arguments.js'

describe('toolCallFromObject', () => {
  it('reads like a plain tool-call part', () => {
    const input = { city: 'Paris', days: [1, 2], nested: { unit: 'c' } }
    const part = toolCallFromObject('toolu_1', 'get_weather', input)
    const plain = { type: 'tool-call', id: 'toolu_1', name: 'get_weather', arguments: JSON.stringify(input) }
    expect(part).toEqual(plain)
    expect(part).toStrictEqual(plain)
    expect(Object.keys(part)).toEqual(['type', 'id', 'name', 'arguments'])
    expect(JSON.stringify(part)).toBe(JSON.stringify(plain))
    expect({ ...part }).toEqual(plain)
    expect(structuredClone(part)).toEqual(plain)
    part.providerData = { messages: { caller: { type: 'direct' } } }
    expect(Object.keys(part)).toEqual(['type', 'id', 'name', 'arguments', 'providerData'])
  })

  it('hands the decoded object back without a JSON round trip', () => {
    const input = { path: '/tmp/a' }
    const part = toolCallFromObject('c1', 'read', input)
    expect(argumentsObject(part)).toBe(input)
    expect(part.arguments).toBe('{"path":"/tmp/a"}')
    expect(argumentsObject(part)).toBe(input)
  })

  it('behaves like a plain string property once assigned', () => {
    const part = toolCallFromObject('c1', 'read', { path: '/tmp/a' })
    part.arguments = '{"path":"/tmp/b"}'
    expect(part.arguments).toBe('{"path":"/tmp/b"}')
    expect(argumentsObject(part)).toEqual({ path: '/tmp/b' })
    part.arguments = '{"path":'
    expect(argumentsObject(part)).toBeUndefined()
  })

  it('gives "{}" for absent arguments and a plain part', () => {
    expect(toolCallFromObject('c1', 'now', null)).toEqual({ type: 'tool-call', id: 'c1', name: 'now', arguments: '{}' })
    expect(toolCallFromObject('c1', 'now', undefined)).toEqual({
      type: 'tool-call',
      id: 'c1',
      name: 'now',
      arguments: '{}',
    })
    expect(argumentsObject(toolCallFromObject('c1', 'now', null))).toEqual({})
  })
})

describe('argumentsObject on plain parts', () => {
  it('parses the JSON text', () => {
    expect(argumentsObject({ arguments: '{"a":1}' })).toEqual({ a: 1 })
    expect(argumentsObject({ arguments: '' })).toEqual({})
    expect(argumentsObject({ arguments: '[1]' })).toBeUndefined()
  })

  it('keeps parseArguments and stringifyArguments as they were', () => {
    expect(parseArguments(' ')).toEqual({})
    expect(parseArguments('nope')).toBeUndefined()
    expect(stringifyArguments(undefined)).toBe('{}')
    expect(stringifyArguments({ a: 'b' })).toBe('{"a":"b"}')
  })
})
