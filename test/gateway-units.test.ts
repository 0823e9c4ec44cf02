/** Gateway building blocks: key extraction and constant-time comparison, private-host checks, the media fetcher, the warnings header. */
import { describe, expect, it, vi } from 'vitest'
import { constantTimeEqual, extractKey, keyMatches } from '../src/gateway/auth.js'
import { createMediaFetcher, isPrivateHost } from '../src/gateway/media.js'
import { warningsHeader } from '../src/gateway/warnings.js'

describe('extractKey', () => {
  const source = (headers: Record<string, string>, query = '') => {
    const all = new Headers(headers)
    return { header: (name: string) => all.get(name), query }
  }
  it.each([
    [{ authorization: 'Bearer sk-1' }, 'sk-1'],
    [{ authorization: 'bearer  sk-2 ' }, 'sk-2'],
    [{ 'x-api-key': 'sk-3' }, 'sk-3'],
    [{ 'x-goog-api-key': 'g-4' }, 'g-4'],
  ])('%o → %s', (headers, key) => {
    expect(extractKey(source(headers))).toBe(key)
  })
  it('reads a Bearer value as the regular expression `^Bearer\\s+(.+)$` (case-insensitive, trimmed) did', () => {
    const byRegex = (value: string) => /^Bearer\s+(.+)$/i.exec(value.trim())?.[1]?.trim()
    const values = [
      'BEARER\tsk-6',
      'Bearer a b',
      'Bearer',
      'Bearer   ',
      'Bearersk-7',
      'Basic abc',
      ' bearer \u00a0k\u2028 ',
    ]
    for (const value of [...values, 'Bearer \n k', 'Bearer k\nx', 'Bearer \u2029', 'bEaReR\u3000k\u3000']) {
      const request = { header: (name: string) => (name === 'authorization' ? value : null), query: '' }
      expect(extractKey(request), JSON.stringify(value)).toBe(byRegex(value))
    }
  })
  it('reads ?key= and returns undefined when absent', () => {
    expect(extractKey(source({}, 'alt=sse&key=q-5'))).toBe('q-5')
    expect(extractKey(source({}))).toBeUndefined()
  })
})

describe('constant-time key comparison', () => {
  it('compares whole strings', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true)
    expect(constantTimeEqual('abc', 'abd')).toBe(false)
    expect(constantTimeEqual('abc', 'abcd')).toBe(false)
    expect(constantTimeEqual('', '')).toBe(true)
    expect(keyMatches('two', ['one', 'two', 'three'])).toBe(true)
    expect(keyMatches('four', ['one', 'two'])).toBe(false)
  })

  it('tells apart keys that differ anywhere (first, last, a prefix), non-ASCII and lone surrogates included', () => {
    const key = 'sk-0123456789abcdef'
    for (const other of ['Sk-0123456789abcdef', 'sk-0123456789abcdeF', 'sk-0123456789abcde', `${key}0`, ''])
      expect(keyMatches(other, [key])).toBe(false)
    expect(keyMatches('clé-✓-🔑', ['x', 'clé-✓-🔑'])).toBe(true)
    expect(keyMatches('clé-✓-🔑', ['cle-✓-🔑'])).toBe(false)
    // Both encode to U+FFFD in UTF-8: a comparison of encoded bytes took them for one key.
    expect(constantTimeEqual('k\ud800', 'k\ud801')).toBe(false)
  })

  it('encodes nothing per request: the comparison reads the strings as they are', () => {
    const encode = vi.spyOn(TextEncoder.prototype, 'encode')
    try {
      expect(keyMatches('sk-client', ['sk-one', 'sk-client', 'sk-three'])).toBe(true)
      expect(encode).not.toHaveBeenCalled()
    } finally {
      encode.mockRestore()
    }
  })
})

describe('isPrivateHost', () => {
  it.each([
    'localhost',
    'api.localhost',
    '127.0.0.1',
    '127.8.9.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '[::1]',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
  ])('%s is private', (host) => {
    expect(isPrivateHost(host)).toBe(true)
  })
  it.each(['example.com', '8.8.8.8', '172.32.0.1', '2001:4860::8888', 'localhost.example.com'])(
    '%s is public',
    (host) => {
      expect(isPrivateHost(host)).toBe(false)
    },
  )
})

describe('createMediaFetcher', () => {
  const png = new Uint8Array([137, 80, 78, 71])
  const seen: string[] = []
  const fakeFetch = (async (input: RequestInfo | URL) => {
    const url = String(input)
    seen.push(url)
    if (url.includes('/redirect-private'))
      return new Response(null, { status: 302, headers: { location: 'http://127.0.0.1/x.png' } })
    if (url.includes('/missing')) return new Response('no', { status: 404 })
    if (url.includes('/slow')) return new Promise<Response>(() => {})
    if (url.includes('/big')) return new Response(new Uint8Array(2048), { headers: { 'content-type': 'image/png' } })
    return new Response(png, { headers: { 'content-type': 'image/png; charset=binary' } })
  }) as typeof fetch

  it('fetches and inlines as base64 with the response media type', async () => {
    const fetcher = createMediaFetcher({ fetch: fakeFetch })
    expect(await fetcher('https://img.example.com/a.png', 'messages[0].content[1]')).toEqual({
      mediaType: 'image/png',
      data: 'iVBORw==',
    })
  })

  it.each([
    [
      'http://127.0.0.1/a.png',
      {},
      'messages[0].content[1]: media URL refused: 127.0.0.1 is a private or loopback address',
    ],
    [
      'http://localhost:8080/a.png',
      {},
      'messages[0].content[1]: media URL refused: localhost is a private or loopback address',
    ],
    [
      'https://other.example.org/a.png',
      { allowHosts: ['*.example.com'] },
      'messages[0].content[1]: media URL refused: other.example.org is not in the allowed hosts',
    ],
    ['ftp://example.com/a.png', {}, 'messages[0].content[1]: media URL must be http(s)'],
    [
      'https://cdn.example.com/redirect-private',
      {},
      'messages[0].content[1]: media URL refused: 127.0.0.1 is a private or loopback address',
    ],
    ['https://cdn.example.com/missing', {}, 'messages[0].content[1]: media fetch failed: HTTP 404'],
    [
      'https://cdn.example.com/big',
      { maxBytes: 1024 },
      'messages[0].content[1]: media is larger than the limit of 1024 bytes',
    ],
    ['https://cdn.example.com/slow', { timeoutMs: 30 }, 'messages[0].content[1]: media fetch timed out'],
  ])('%s is refused', async (url, options, message) => {
    const fetcher = createMediaFetcher({ fetch: fakeFetch, ...options })
    const error = await fetcher(url, 'messages[0].content[1]').catch((e: unknown) => e)
    expect(error).toMatchObject({
      name: 'InterlinguaError',
      code: 'invalid-request',
      status: 400,
      message,
      param: 'messages[0].content[1]',
    })
  })

  it('never contacts a refused host, and allows private hosts with allowPrivate', async () => {
    seen.length = 0
    await createMediaFetcher({ fetch: fakeFetch })('http://10.0.0.1/a.png', 'p').catch(() => {})
    expect(seen).toEqual([])
    expect(await createMediaFetcher({ fetch: fakeFetch, allowPrivate: true })('http://127.0.0.1/a.png', 'p')).toEqual({
      mediaType: 'image/png',
      data: 'iVBORw==',
    })
  })
})

describe('warningsHeader', () => {
  it('is a JSON array of "path: message", ASCII-only', () => {
    expect(warningsHeader([])).toBeUndefined()
    const header = warningsHeader([
      { type: 'dropped', path: 'logit_bias', message: 'messages cannot express logit_bias' },
      { type: 'changed', path: 'temperature', message: 'clamped to 1 — maximum' },
    ]) as string
    expect(header).toBe(
      '["logit_bias: messages cannot express logit_bias","temperature: clamped to 1 \\u2014 maximum"]',
    )
    expect(JSON.parse(header)).toEqual([
      'logit_bias: messages cannot express logit_bias',
      'temperature: clamped to 1 — maximum',
    ])
  })
  it('is capped in length', () => {
    const many = Array.from({ length: 200 }, (_, i) => ({
      type: 'dropped' as const,
      path: `field${i}`,
      message: 'x'.repeat(100),
    }))
    const header = warningsHeader(many) as string
    expect(header.length).toBeLessThanOrEqual(4000)
    const parsed = JSON.parse(header) as string[]
    expect(parsed.at(-1)).toMatch(/^\.\.\. \d+ more$/)
  })
})
