import { describe, expect, it } from 'vitest'
import { decodeError, encodeError } from './errors.js'

describe('decodeError', () => {
  it('reads type, message and details', () => {
    expect(
      decodeError(529, {
        type: 'error',
        error: { type: 'overloaded_error', message: 'Overloaded', details: { error_code: 'x1' } },
        request_id: 'req_1',
      }),
    ).toEqual({
      code: 'overloaded',
      status: 529,
      message: 'Overloaded',
      vendorType: 'overloaded_error',
      vendorCode: 'x1',
      rawFormat: 'messages',
    })
  })

  it('is total: odd bodies and in-stream errors', () => {
    expect(decodeError(502, '<html>bad gateway</html>')).toEqual({
      code: 'upstream',
      status: 502,
      message: '<html>bad gateway</html>',
      rawFormat: 'messages',
    })
    expect(decodeError(500, null)).toEqual({
      code: 'internal',
      status: 500,
      message: 'HTTP 500',
      rawFormat: 'messages',
    })
    expect(decodeError(200, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toEqual({
      code: 'overloaded',
      status: 529,
      message: 'Overloaded',
      vendorType: 'overloaded_error',
      rawFormat: 'messages',
    })
    expect(decodeError(200, { error: { type: 'rate_limit_error', message: 'slow down' } })).toMatchObject({
      code: 'rate-limit',
      status: 429,
    })
  })
})

describe('encodeError', () => {
  it.each([
    [400, 'invalid-request', 'invalid_request_error'],
    [401, 'authentication', 'authentication_error'],
    [402, 'billing', 'billing_error'],
    [403, 'permission', 'permission_error'],
    [404, 'not-found', 'not_found_error'],
    [409, 'conflict', 'conflict_error'],
    [413, 'request-too-large', 'request_too_large'],
    [429, 'rate-limit', 'rate_limit_error'],
    [500, 'internal', 'api_error'],
    [503, 'overloaded', 'overloaded_error'],
    [504, 'timeout', 'timeout_error'],
    [529, 'overloaded', 'overloaded_error'],
  ] as const)('%i → %s', (status, code, type) => {
    expect(encodeError({ code, status, message: 'm' })).toEqual({
      status,
      body: { type: 'error', error: { type, message: 'm' }, request_id: null },
    })
  })

  it('reuses a messages vendor type and code, ignores foreign ones', () => {
    expect(
      encodeError({
        code: 'invalid-request',
        status: 400,
        message: 'm',
        vendorType: 'x_error',
        vendorCode: 'c',
        rawFormat: 'messages',
      }),
    ).toEqual({
      status: 400,
      body: { type: 'error', error: { type: 'x_error', message: 'm', details: { error_code: 'c' } }, request_id: null },
    })
    expect(
      encodeError({
        code: 'rate-limit',
        status: 429,
        message: 'm',
        vendorType: 'RESOURCE_EXHAUSTED',
        rawFormat: 'content-generation',
      }),
    ).toEqual({
      status: 429,
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'm' }, request_id: null },
    })
  })
})
