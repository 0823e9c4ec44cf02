/**
 * Hostile input and leaks through the gateway (issue 12): malformed percent-escapes in routes, model ids that would
 * climb out of an upstream's base path, 10,000-level nesting, upstream keys echoed in error messages, passthrough
 * response headers, and a Gemini upstream's `{error}` body answered with HTTP 200. Every case in every client format.
 */
import { describe, expect, it } from 'vitest'
import { convertRequest } from '../src/convert.js'
import { InterlinguaError } from '../src/errors.js'
import { createGateway } from '../src/gateway/create-gateway.js'
import type { FormatId } from '../src/ir/index.js'
import { maxJsonDepth } from '../src/shared/depth.js'
import { authHeaders, base, formatIds, type Json, post, stack, wireRequest } from './gateway-helpers.js'

const deep = `${'{"type":"array","items":'.repeat(10_000)}{"type":"string"}${'}'.repeat(10_000)}`

/** A request of `format` whose tool schema nests 10,000 levels deep (built as text: JSON.stringify would overflow). */
function deepToolRequest(format: FormatId, model: string): { path: string; text: string } {
  const { path, body } = wireRequest(format, model, { tools: true })
  return { path, text: JSON.stringify(body).replace('{"type":"string"}', deep) }
}

/** The native error message of any format's error body. */
function errorMessage(body: Json): string {
  return body.error?.message ?? ''
}

/** An upstream error body in the upstream's own format, echoing `text`. */
function upstreamError(format: FormatId, text: string): Json {
  if (format === 'messages') return { type: 'error', error: { type: 'authentication_error', message: text } }
  if (format === 'content-generation') return { error: { code: 401, message: text, status: 'UNAUTHENTICATED' } }
  return { error: { message: text, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }
}

const upstreamKeys: Record<FormatId, string> = {
  'chat-completions': 'upstream-openai-key',
  messages: 'upstream-anthropic-key',
  'content-generation': 'upstream-gemini-key',
  responses: 'upstream-responses-key',
}
const foreignToken = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123'

describe.each(formatIds)('%s client', (format) => {
  it('a malformed percent-escape in a model path is a native 400 naming the model, not a 500', async () => {
    const { gateway } = stack()
    const headers = authHeaders(format, 'client-key')
    const response = await gateway.fetch(new Request(`${base}/v1/models/%E0%A4%A`, { headers }))
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(errorMessage(body)).toMatch(/^model: .*percent-encoding/)
    if (format === 'content-generation') expect(body.error.status).toBe('INVALID_ARGUMENT')
    else expect(body.error.type).toBe('invalid_request_error')
  })

  it('a model id cannot climb out of a content-generation upstream base path', async () => {
    const { gateway, calls } = stack({ models: {}, resolveModel: () => ({ upstream: 'gemini' }) })
    const climb = '../../../admin'
    const { path, body } = wireRequest(format, climb)
    const request =
      format === 'content-generation'
        ? post(format, `/v1beta/models/${encodeURIComponent(climb)}:generateContent`, body)
        : post(format, path, body)
    const response = await gateway.fetch(request)
    expect(response.status).toBe(200)
    expect(calls).toHaveLength(1)
    expect(new URL(calls[0]?.url ?? '').pathname).toBe('/v1beta/models/..%2F..%2F..%2Fadmin:generateContent')
  })

  it('a model id that is a dot segment is refused before anything is sent upstream', async () => {
    const { gateway, calls } = stack({ models: {}, resolveModel: () => ({ upstream: 'gemini' }) })
    const { path, body } = wireRequest(format, '..')
    const request =
      format === 'content-generation'
        ? post(format, '/v1beta/models/..:generateContent', body)
        : post(format, path, body)
    const response = await gateway.fetch(request)
    expect(response.status).toBe(400)
    expect(errorMessage(await response.json())).toMatch(/^model: /)
    expect(calls).toEqual([])
  })

  it.each(['mock', 'passthrough', 'translated'] as const)(
    '10,000-level nesting is a native 400 naming the path (%s), not a stack overflow',
    async (kind) => {
      const target = kind === 'passthrough' ? format : format === 'messages' ? 'chat-completions' : 'messages'
      const { gateway, calls } =
        kind === 'mock' ? { gateway: createGateway({ apiKeys: ['client-key'] }), calls: [] } : stack()
      const { path, text } = deepToolRequest(format, kind === 'mock' ? 'mock-model' : `via-${target}`)
      const response = await gateway.fetch(post(format, path, text))
      expect(response.status).toBe(400)
      const message = errorMessage(await response.json())
      expect(message).toMatch(/^tools\[0\]\..*\.items\.items: nested deeper than 128 levels$/)
      expect(calls).toEqual([])
    },
  )

  it.each(formatIds)('an upstream key echoed in a %s upstream error never reaches the client', async (upstream) => {
    const key = upstreamKeys[upstream]
    const { gateway } = stack({}, async () =>
      Response.json(upstreamError(upstream, `Incorrect API key provided: ${key}; also ${foreignToken}`), {
        status: 401,
        headers: { 'set-cookie': 'session=1', 'openai-organization': 'org-secret', 'x-ratelimit-limit-requests': '9' },
      }),
    )
    const { path, body } = wireRequest(format, `via-${upstream}`)
    const request =
      format === 'content-generation'
        ? post(format, `/v1beta/models/via-${upstream}:generateContent`, body)
        : post(format, path, body)
    const response = await gateway.fetch(request)
    expect(response.status).toBe(401)
    const text = await response.text()
    expect(text).toContain('Incorrect API key provided: ')
    expect(text).not.toContain(key)
    expect(text).not.toContain(foreignToken)
    expect(text).toContain(`${foreignToken.slice(0, 3)}*`)
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(response.headers.get('openai-organization')).toBeNull()
    expect(response.headers.get('x-ratelimit-limit-requests')).toBe('9')
  })

  it('passthrough relays only allow-listed response headers', async () => {
    const { gateway } = stack({}, async (request) => {
      const answer = await createGateway().fetch(request)
      const headers = new Headers(answer.headers)
      headers.set('set-cookie', 'session=1')
      headers.set('openai-organization', 'org-secret')
      headers.set('openai-project', 'proj-secret')
      headers.set('anthropic-organization-id', 'org-uuid')
      headers.set('x-ratelimit-remaining-requests', '41')
      headers.set('retry-after', '3')
      return new Response(answer.body, { status: answer.status, headers })
    })
    const { path, body } = wireRequest(format, `via-${format}`)
    const response = await gateway.fetch(post(format, path, body))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    for (const name of ['set-cookie', 'openai-organization', 'openai-project', 'anthropic-organization-id'])
      expect(response.headers.get(name), name).toBeNull()
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('41')
    expect(response.headers.get('retry-after')).toBe('3')
    expect(await response.json()).toBeTruthy()
  })

  it.skipIf(format === 'content-generation')(
    "a Gemini upstream's {error} body with HTTP 200 is the error it is, not an empty answer",
    async () => {
      const { gateway } = stack({}, async () =>
        Response.json({ error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' } }),
      )
      const { path, body } = wireRequest(format, 'via-content-generation')
      const response = await gateway.fetch(post(format, path, body))
      expect(response.status).toBe(429)
      expect(errorMessage(await response.json())).toBe('Resource has been exhausted')
    },
  )
})

describe('schemas converted to the OpenAPI dialect (content-generation, schemaDialect: openapi)', () => {
  it('a $ref with a malformed percent-escape is an unresolvable $ref (warning), not a URIError', () => {
    const parameters = {
      type: 'object',
      $defs: { a: { type: 'string' } },
      properties: { a: { $ref: '#/$defs/%E0%A4%A' } },
    }
    const body = {
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 't', parameters } }],
    }
    const warnings: string[] = []
    const out = convertRequest(body, {
      from: 'chat-completions',
      to: 'content-generation',
      schemaDialect: 'openapi',
      onWarning: (warning) => warnings.push(warning.path ?? ''),
    }) as Json
    expect(out.tools[0].functionDeclarations[0].parameters.properties.a).toEqual({ type: 'STRING' })
    expect(warnings).toContain('tools[0].parameters.properties.a.$ref')
  })
})

describe('library entry points', () => {
  it.each(formatIds)('convertRequest from %s refuses 10,000-level nesting with a 400 naming the path', (from) => {
    const { body } = wireRequest(from, 'm', { tools: true })
    const text = JSON.stringify(body).replace('{"type":"string"}', deep)
    let thrown: unknown
    try {
      convertRequest(JSON.parse(text), { from, to: 'messages', model: 'm' })
    } catch (error) {
      thrown = error
    }
    expect(InterlinguaError.isInstance(thrown)).toBe(true)
    expect((thrown as InterlinguaError).status).toBe(400)
    expect((thrown as InterlinguaError).param).toMatch(/^tools\[0\]\./)
  })

  it('nesting up to the limit is accepted', () => {
    let schema: Json = { type: 'string' }
    // The tool schema sits 5 levels deep in a chat-completions body (root, tools, [0], function, parameters).
    for (let i = 0; i < maxJsonDepth - 6; i++) schema = { type: 'array', items: schema }
    const body = {
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 't', parameters: schema } }],
    }
    expect(() => convertRequest(body, { from: 'chat-completions', to: 'chat-completions' })).not.toThrow()
  })
})
