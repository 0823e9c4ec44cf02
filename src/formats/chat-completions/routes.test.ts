import { describe, expect, it } from 'vitest'
import { InterlinguaError } from '../../errors.js'
import { matchRoute, upstreamTarget } from './routes.js'

const req = (method: string, path: string) => ({
  method,
  url: new URL(`http://127.0.0.1${path}`),
  headers: new Headers(),
})

describe('chat-completions routes', () => {
  it('matches generate, list and get model', () => {
    expect(matchRoute(req('POST', '/v1/chat/completions'))).toEqual({ kind: 'generate' })
    expect(matchRoute(req('POST', '/chat/completions'))).toEqual({ kind: 'generate' })
    expect(matchRoute(req('POST', '/openai/v1/chat/completions/'))).toEqual({ kind: 'generate' })
    expect(matchRoute(req('GET', '/v1/models'))).toEqual({ kind: 'list-models' })
    expect(matchRoute(req('GET', '/v1/models/gpt-4.1'))).toEqual({ kind: 'get-model', model: 'gpt-4.1' })
    expect(matchRoute(req('GET', '/v1/chat/completions'))).toBeUndefined()
    expect(matchRoute(req('POST', '/v1/messages'))).toBeUndefined()
  })

  it('builds the upstream target', () => {
    const target = upstreamTarget('m', 'generate', true, {
      baseURL: 'https://api.openai.com/v1/',
      apiKey: 'sk-test',
      headers: { 'openai-organization': 'org' },
    })
    expect(target.url).toBe('https://api.openai.com/v1/chat/completions')
    expect(Object.fromEntries(target.headers)).toEqual({
      'content-type': 'application/json',
      accept: 'text/event-stream',
      authorization: 'Bearer sk-test',
      'openai-organization': 'org',
    })
    const plain = upstreamTarget('m', 'generate', false, { baseURL: 'http://127.0.0.1:1/v1' })
    expect(Object.fromEntries(plain.headers)).toEqual({
      'content-type': 'application/json',
      accept: 'application/json',
    })
  })

  it('has no token counting', () => {
    expect(() => upstreamTarget('m', 'count-tokens', false, { baseURL: 'http://127.0.0.1' })).toThrow(InterlinguaError)
  })
})
