import { describe, expect, it } from 'vitest'
import { decodeError, encodeError } from './errors.js'

describe('chat-completions errors', () => {
  it('decodes an OpenAI error body', () => {
    expect(
      decodeError(401, {
        error: { message: 'bad key', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
      }),
    ).toEqual({
      code: 'authentication',
      status: 401,
      message: 'bad key',
      rawFormat: 'chat-completions',
      vendorType: 'invalid_request_error',
      vendorCode: 'invalid_api_key',
    })
  })

  it('is total for any body', () => {
    for (const body of [
      null,
      undefined,
      5,
      [],
      ['x'],
      '<html><body>Bad Gateway</body></html>',
      { error: 'x' },
      { error: { message: 7 } },
    ]) {
      expect(decodeError(502, body)).toEqual({
        code: 'upstream',
        status: 502,
        message: 'Upstream error (HTTP 502)',
        rawFormat: 'chat-completions',
      })
    }
    expect(decodeError(500, 'plain failure')).toEqual({
      code: 'internal',
      status: 500,
      message: 'plain failure',
      rawFormat: 'chat-completions',
    })
  })

  it('encodes IR errors with the type/code table', () => {
    expect(encodeError({ code: 'rate-limit', status: 429, message: 'slow down' })).toEqual({
      status: 429,
      body: { error: { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
    })
    expect(encodeError({ code: 'invalid-request', status: 400, message: 'x: bad', param: 'messages[0]' })).toEqual({
      status: 400,
      body: { error: { message: 'x: bad', type: 'invalid_request_error', param: 'messages[0]', code: null } },
    })
    expect(encodeError({ code: 'not-found', status: 404, message: 'no model', param: 'model' })).toEqual({
      status: 404,
      body: { error: { message: 'no model', type: 'invalid_request_error', param: 'model', code: 'model_not_found' } },
    })
    expect(encodeError({ code: 'not-found', status: 404, message: 'Invalid URL (GET /v1/x)' })).toEqual({
      status: 404,
      body: { error: { message: 'Invalid URL (GET /v1/x)', type: 'invalid_request_error', param: null, code: null } },
    })
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
      body: { error: { message: 'busy', type: 'server_error', param: null, code: null } },
    })
  })
})
