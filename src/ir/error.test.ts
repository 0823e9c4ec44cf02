import { describe, expect, it } from 'vitest'
import { type ErrorCode, errorCodeForStatus } from './error.js'

/** The mapping as it was written out (a switch) before it was derived from `errorStatus`. */
const written: Record<number, ErrorCode> = {
  400: 'invalid-request',
  401: 'authentication',
  402: 'billing',
  403: 'permission',
  404: 'not-found',
  408: 'timeout',
  409: 'conflict',
  413: 'request-too-large',
  422: 'unprocessable',
  429: 'rate-limit',
  502: 'upstream',
  503: 'overloaded',
  504: 'timeout',
  529: 'overloaded',
}

describe('errorCodeForStatus', () => {
  it('maps every status as the written-out table does, and the rest by class', () => {
    for (let status = 0; status < 1000; status++)
      expect(errorCodeForStatus(status)).toBe(written[status] ?? (status >= 500 ? 'internal' : 'invalid-request'))
  })
})
