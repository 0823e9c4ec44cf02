import { describe, expect, it } from 'vitest'
import { decodeError, encodeError } from './errors.js'
import { encodeModelList, encodeTokenCount } from './models.js'
import { matchRoute, upstreamTarget } from './routes.js'

const req = (method: string, url: string, headers: Record<string, string> = {}) => ({
  method,
  url: new URL(url, 'http://127.0.0.1:8787'),
  headers: new Headers(headers),
})

describe('matchRoute', () => {
  it.each([
    ['/v1beta/models/gemini-2.5-flash:generateContent', { kind: 'generate', model: 'gemini-2.5-flash', stream: false }],
    ['/v1/models/gemini-1.5-pro-002:generateContent', { kind: 'generate', model: 'gemini-1.5-pro-002', stream: false }],
    ['/v1beta/models/m:streamGenerateContent?alt=sse', { kind: 'generate', model: 'm', stream: true }],
    ['/v1beta/models/m:streamGenerateContent', { kind: 'generate', model: 'm', stream: true, streamJsonArray: true }],
    ['/v1beta/models/m:countTokens', { kind: 'count-tokens', model: 'm' }],
    ['/gemini/v1beta/models/my%20model.v2:generateContent', { kind: 'generate', model: 'my model.v2', stream: false }],
    // A gateway's prefixed ids, as the Gemini SDK sends them (slashes and colons as they are).
    [
      '/v1beta/models/vertex/gemini-2.5-flash:generateContent',
      { kind: 'generate', model: 'vertex/gemini-2.5-flash', stream: false },
    ],
    [
      '/v1beta/models/bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0:streamGenerateContent?alt=sse',
      { kind: 'generate', model: 'bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0', stream: true },
    ],
    ['/v1beta/models/azure/gpt-4o:countTokens', { kind: 'count-tokens', model: 'azure/gpt-4o' }],
  ])('POST %s', (url, expected) => {
    expect(matchRoute(req('POST', url))).toEqual(expected)
  })

  it('routes model listings, /v1 only with Google auth', () => {
    expect(matchRoute(req('GET', '/v1beta/models'))).toEqual({ kind: 'list-models' })
    expect(matchRoute(req('GET', '/v1beta/models/gemini-2.5-flash'))).toEqual({
      kind: 'get-model',
      model: 'gemini-2.5-flash',
    })
    expect(matchRoute(req('GET', '/v1/models'))).toBeUndefined()
    expect(matchRoute(req('GET', '/v1/models', { 'x-goog-api-key': 'k' }))).toEqual({ kind: 'list-models' })
    expect(matchRoute(req('GET', '/v1/models/x?key=k'))).toEqual({ kind: 'get-model', model: 'x' })
    expect(matchRoute(req('GET', '/v1beta/models/bedrock/amazon.nova-pro-v1:0'))).toEqual({
      kind: 'get-model',
      model: 'bedrock/amazon.nova-pro-v1:0',
    })
  })

  it('ignores what is not its own', () => {
    expect(matchRoute(req('POST', '/v1/chat/completions'))).toBeUndefined()
    expect(matchRoute(req('POST', '/v1/messages'))).toBeUndefined()
    expect(matchRoute(req('POST', '/v1beta/models/m:embedContent'))).toBeUndefined()
    expect(matchRoute(req('DELETE', '/v1beta/models/m'))).toBeUndefined()
  })
})

describe('upstreamTarget', () => {
  it('builds the URL and headers', () => {
    const upstream = { baseURL: 'https://generativelanguage.googleapis.com/', apiKey: 'K', headers: { 'x-extra': '1' } }
    const target = upstreamTarget('gemini-2.5-flash', 'generate', true, upstream)
    expect(target.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    )
    expect(Object.fromEntries(target.headers)).toEqual({
      'content-type': 'application/json',
      'x-goog-api-key': 'K',
      'x-extra': '1',
    })
    expect(upstreamTarget('m', 'generate', false, { baseURL: 'http://h', apiVersion: 'v1' }).url).toBe(
      'http://h/v1/models/m:generateContent',
    )
    expect(upstreamTarget('m', 'count-tokens', false, { baseURL: 'http://h' }).url).toBe(
      'http://h/v1beta/models/m:countTokens',
    )
  })
})

describe('errors', () => {
  it.each([
    [429, 'RESOURCE_EXHAUSTED', 'rate-limit'],
    [401, 'UNAUTHENTICATED', 'authentication'],
    [403, 'PERMISSION_DENIED', 'permission'],
    [404, 'NOT_FOUND', 'not-found'],
    [500, 'INTERNAL', 'internal'],
    [503, 'UNAVAILABLE', 'overloaded'],
    [504, 'DEADLINE_EXCEEDED', 'timeout'],
  ] as const)('%d ⇄ %s', (status, rpc, code) => {
    expect(encodeError({ code, status, message: 'm' })).toEqual({
      status,
      body: { error: { code: status, message: 'm', status: rpc } },
    })
    expect(decodeError(status, { error: { code: status, message: 'm', status: rpc } })).toEqual({
      code,
      status,
      message: 'm',
      vendorType: rpc,
      rawFormat: 'content-generation',
    })
  })

  it('maps an Anthropic 529 to UNAVAILABLE and keeps the status', () => {
    expect(
      encodeError({
        code: 'overloaded',
        status: 529,
        message: 'busy',
        vendorType: 'overloaded_error',
        rawFormat: 'messages',
      }),
    ).toEqual({
      status: 529,
      body: { error: { code: 529, message: 'busy', status: 'UNAVAILABLE' } },
    })
  })

  it('names the status of an unlisted HTTP status by the error code', () => {
    const expected = {
      'invalid-request': 'INVALID_ARGUMENT',
      'unsupported-feature': 'INVALID_ARGUMENT',
      authentication: 'UNAUTHENTICATED',
      billing: 'FAILED_PRECONDITION',
      permission: 'PERMISSION_DENIED',
      'not-found': 'NOT_FOUND',
      conflict: 'ABORTED',
      'request-too-large': 'INVALID_ARGUMENT',
      unprocessable: 'INVALID_ARGUMENT',
      'rate-limit': 'RESOURCE_EXHAUSTED',
      internal: 'INTERNAL',
      upstream: 'UNAVAILABLE',
      overloaded: 'UNAVAILABLE',
      timeout: 'DEADLINE_EXCEEDED',
    } as const
    for (const [code, rpc] of Object.entries(expected)) {
      for (const status of [418, 507])
        expect(encodeError({ code: code as keyof typeof expected, status, message: 'm' }).body).toEqual({
          error: { code: status, message: 'm', status: rpc },
        })
    }
  })

  it('is total on garbage and reads in-stream errors and details', () => {
    expect(decodeError(502, 'Bad gateway')).toEqual({
      code: 'upstream',
      status: 502,
      message: 'Bad gateway',
      rawFormat: 'content-generation',
    })
    expect(decodeError(500, null)).toEqual({
      code: 'internal',
      status: 500,
      message: 'HTTP 500',
      rawFormat: 'content-generation',
    })
    expect(
      decodeError(200, {
        error: {
          code: 400,
          message: 'API key not valid.',
          status: 'INVALID_ARGUMENT',
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }],
        },
      }),
    ).toEqual({
      code: 'invalid-request',
      status: 400,
      message: 'API key not valid.',
      vendorType: 'INVALID_ARGUMENT',
      vendorCode: 'API_KEY_INVALID',
      rawFormat: 'content-generation',
    })
  })
})

describe('models', () => {
  it('lists models without nextPageToken and counts tokens', () => {
    expect(encodeModelList([{ id: 'gemini-2.5-flash', displayName: 'Gemini 2.5 Flash' }, { id: 'x' }])).toEqual({
      models: [
        {
          name: 'models/gemini-2.5-flash',
          baseModelId: 'gemini-2.5-flash',
          displayName: 'Gemini 2.5 Flash',
          supportedGenerationMethods: ['generateContent', 'countTokens'],
        },
        {
          name: 'models/x',
          baseModelId: 'x',
          displayName: 'x',
          supportedGenerationMethods: ['generateContent', 'countTokens'],
        },
      ],
    })
    expect(encodeTokenCount(42)).toEqual({ totalTokens: 42 })
  })
})
