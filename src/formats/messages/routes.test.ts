import { describe, expect, it } from 'vitest'
import { countTokensBody, encodeModelList, encodeTokenCount } from './models.js'
import { matchRoute, upstreamTarget } from './routes.js'

const route = (method: string, path: string, headers: Record<string, string> = {}) =>
  matchRoute({ method, url: new URL(`http://127.0.0.1:8787${path}`), headers: new Headers(headers) })

describe('matchRoute', () => {
  it('serves messages, count_tokens and models (models only with anthropic-version)', () => {
    expect(route('POST', '/v1/messages')).toEqual({ kind: 'generate' })
    expect(route('POST', '/v1/messages/count_tokens')).toEqual({ kind: 'count-tokens' })
    expect(route('GET', '/v1/models')).toBeUndefined()
    expect(route('GET', '/v1/models', { 'anthropic-version': '2023-06-01' })).toEqual({ kind: 'list-models' })
    expect(route('GET', '/v1/models/claude-x', { 'anthropic-version': '2026-10-21' })).toEqual({
      kind: 'get-model',
      model: 'claude-x',
    })
    expect(route('GET', '/v1/messages')).toBeUndefined()
    expect(route('POST', '/v1/chat/completions')).toBeUndefined()
  })
})

describe('upstreamTarget', () => {
  it('builds the URL and headers', () => {
    const { url, headers } = upstreamTarget('claude-x', 'generate', true, {
      baseURL: 'https://api.anthropic.com/',
      apiKey: 'sk-test',
      headers: { 'anthropic-beta': 'b1' },
    })
    expect(url).toBe('https://api.anthropic.com/v1/messages')
    expect(Object.fromEntries(headers)).toEqual({
      accept: 'text/event-stream',
      'anthropic-beta': 'b1',
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      'x-api-key': 'sk-test',
    })
    const count = upstreamTarget('claude-x', 'count-tokens', false, { baseURL: 'http://127.0.0.1:1' })
    expect(count.url).toBe('http://127.0.0.1:1/v1/messages/count_tokens')
    expect(count.headers.has('x-api-key')).toBe(false)
  })
})

describe('models', () => {
  it('encodes the model list and token count', () => {
    expect(encodeModelList([{ id: 'a', displayName: 'A', created: 1700000000 }, { id: 'b' }])).toEqual({
      data: [
        { type: 'model', id: 'a', display_name: 'A', created_at: '2023-11-14T22:13:20Z' },
        { type: 'model', id: 'b', display_name: 'b', created_at: '1970-01-01T00:00:00Z' },
      ],
      has_more: false,
      first_id: 'a',
      last_id: 'b',
    })
    expect(encodeModelList([])).toEqual({ data: [], has_more: false, first_id: null, last_id: null })
    expect(encodeTokenCount(42)).toEqual({ input_tokens: 42 })
  })

  it('keeps only the fields count_tokens accepts', () => {
    expect(
      countTokensBody({
        model: 'm',
        max_tokens: 5,
        stream: true,
        messages: [],
        system: 's',
        temperature: 1,
        metadata: {},
      }),
    ).toEqual({ model: 'm', messages: [], system: 's' })
  })
})
