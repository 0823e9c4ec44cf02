/**
 * Every endpoint in every format, served by the embedded mock model (no upstream configured): generation JSON and
 * SSE, content-generation's JSON-array stream, model listings in each shape, token counting (estimate header),
 * request ids, unknown routes, and the bound `fetch`.
 */
import { describe, expect, it } from 'vitest'
import { createGateway } from '../src/gateway/create-gateway.js'
import {
  base,
  formatIds,
  type Json,
  parseSse,
  pngBase64,
  post,
  summarize,
  summarizeSse,
  wireRequest,
} from './gateway-helpers.js'

const gateway = createGateway()
const { fetch: handler } = gateway // bound: usable detached, as `export const POST = gateway.fetch`

describe.each(formatIds)('%s client on the mock model', (format) => {
  it('answers JSON with text, usage and request ids', async () => {
    const { path, body } = wireRequest(format, 'any-model')
    const response = await handler(post(format, path, body, 'whatever'))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/)
    expect(response.headers.get('request-id')).toBe(response.headers.get('x-request-id'))
    const json = await response.json()
    expect(summarize(format, json)).toEqual({
      text: 'This is the interlingua mock model answering "Say hello".',
      tools: [],
      finish: {
        'chat-completions': 'stop',
        messages: 'end_turn',
        'content-generation': 'STOP',
        responses: 'completed',
      }[format],
    })
  })

  it('streams SSE in several chunks', async () => {
    const { path, body } = wireRequest(format, 'any-model', { stream: true })
    const response = await handler(post(format, path, body))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const text = await response.text()
    expect(parseSse(text).length).toBeGreaterThan(2)
    expect(summarizeSse(format, text)).toEqual({
      text: 'This is the interlingua mock model answering "Say hello".',
      tools: [],
      finish: {
        'chat-completions': 'stop',
        messages: 'end_turn',
        'content-generation': 'STOP',
        responses: 'completed',
      }[format],
    })
  })

  it('calls the offered tool (JSON and stream)', async () => {
    const json = await (
      await handler(
        post(format, wireRequest(format, 'm', { tools: true }).path, wireRequest(format, 'm', { tools: true }).body),
      )
    ).json()
    expect(summarize(format, json).tools).toEqual(['get_weather'])
    const { path, body } = wireRequest(format, 'm', { tools: true, stream: true })
    expect(summarizeSse(format, await (await handler(post(format, path, body))).text()).tools).toEqual(['get_weather'])
  })

  it('sees the image it was sent', async () => {
    const { path, body } = wireRequest(format, 'm', { imageBase64: pngBase64 })
    expect(summarize(format, await (await handler(post(format, path, body))).json()).text).toContain(
      'I see 1 image (image/png)',
    )
  })
})

describe('content-generation without alt=sse', () => {
  it('answers :streamGenerateContent with a JSON array of chunks', async () => {
    const { body } = wireRequest('content-generation', 'm')
    const response = await handler(post('content-generation', '/v1/models/m:streamGenerateContent', body))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    const chunks = (await response.json()) as Json[]
    expect(Array.isArray(chunks)).toBe(true)
    expect(chunks.length).toBeGreaterThan(1)
    const text = chunks
      .flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? [])
      .map((part: Json) => part.text ?? '')
      .join('')
    expect(text).toBe('This is the interlingua mock model answering "Say hello".')
  })
})

describe('model listings', () => {
  const models = createGateway({
    upstreams: { m: { format: 'mock' } },
    models: { alpha: { upstream: 'm' }, beta: { upstream: 'm' } },
  })
  const get = (path: string, headers: Record<string, string>) =>
    models.fetch(new Request(`${base}${path}`, { headers }))

  it('GET /v1/models: chat-completions shape by default', async () => {
    const json = await (await get('/v1/models', { authorization: 'Bearer k' })).json()
    expect(json).toEqual({
      object: 'list',
      data: [
        { id: 'alpha', object: 'model', created: 0, owned_by: 'interlingua' },
        { id: 'beta', object: 'model', created: 0, owned_by: 'interlingua' },
      ],
    })
  })
  it('GET /v1/models with anthropic-version: messages shape', async () => {
    const json = await (await get('/v1/models', { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' })).json()
    expect(json).toEqual({
      data: [
        { type: 'model', id: 'alpha', display_name: 'alpha', created_at: '1970-01-01T00:00:00Z' },
        { type: 'model', id: 'beta', display_name: 'beta', created_at: '1970-01-01T00:00:00Z' },
      ],
      has_more: false,
      first_id: 'alpha',
      last_id: 'beta',
    })
  })
  it('GET /v1beta/models and /v1/models with x-goog-api-key: content-generation shape', async () => {
    const expected = {
      models: ['alpha', 'beta'].map((id) => ({
        name: `models/${id}`,
        baseModelId: id,
        displayName: id,
        supportedGenerationMethods: ['generateContent', 'countTokens'],
      })),
    }
    expect(await (await get('/v1beta/models', { 'x-goog-api-key': 'k' })).json()).toEqual(expected)
    expect(await (await get('/v1/models', { 'x-goog-api-key': 'k' })).json()).toEqual(expected)
  })
  it('GET one model, and 404 for an unknown one', async () => {
    expect(await (await get('/v1beta/models/alpha', { 'x-goog-api-key': 'k' })).json()).toMatchObject({
      name: 'models/alpha',
    })
    const missing = await get('/v1/models/zeta', { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' })
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as Json).error.type).toBe('not_found_error')
  })
  it('the mock-only gateway lists its mock model', async () => {
    expect(
      ((await (await handler(new Request(`${base}/v1/models`))).json()) as Json).data.map((m: Json) => m.id),
    ).toEqual(['interlingua-mock'])
  })
})

describe('token counting', () => {
  it('messages count_tokens: an estimate, marked in a header', async () => {
    const body = { model: 'm', system: 'Be brief.', messages: [{ role: 'user', content: 'Count these words please' }] }
    const response = await handler(post('messages', '/v1/messages/count_tokens', body))
    expect(response.status).toBe(200)
    expect(response.headers.get('x-interlingua-token-count')).toBe('estimate')
    // ceil((9 + 24) / 4) = 9
    expect(await response.json()).toEqual({ input_tokens: 9 })
  })
  it('content-generation :countTokens: an estimate counting tools too', async () => {
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'abcdefgh' }] }],
      tools: [{ functionDeclarations: [{ name: 'f', parametersJsonSchema: { type: 'object' } }] }],
    }
    const response = await handler(post('content-generation', '/v1beta/models/m:countTokens', body))
    expect(response.headers.get('x-interlingua-token-count')).toBe('estimate')
    // 8 + 1 ("f") + 17 ('{"type":"object"}') = 26 chars → 7
    expect(await response.json()).toEqual({ totalTokens: 7 })
  })
})

describe('routing edges', () => {
  it('unknown path → 404 in the shape each service answers, never model_not_found', async () => {
    const openai = await handler(new Request(`${base}/v2/nothing`, { method: 'POST' }))
    expect(openai.status).toBe(404)
    expect(await openai.json()).toEqual({
      error: { message: 'Invalid URL (POST /v2/nothing)', type: 'invalid_request_error', param: null, code: null },
    })
    const anthropic = await handler(
      new Request(`${base}/v1/nothing`, { method: 'POST', headers: { 'anthropic-version': '2023-06-01' } }),
    )
    expect(anthropic.status).toBe(404)
    expect(await anthropic.json()).toEqual({
      type: 'error',
      error: { type: 'not_found_error', message: 'Invalid URL (POST /v1/nothing)' },
      request_id: null,
    })
    const gemini = await handler(new Request(`${base}/v1beta/nothing`, { method: 'POST' }))
    expect(gemini.status).toBe(404)
    expect(((await gemini.json()) as Json).error).toMatchObject({ code: 404, status: 'NOT_FOUND' })
  })
  it('an unknown model is model_not_found (chat-completions)', async () => {
    const gw = createGateway({ upstreams: { a: { format: 'mock' } }, models: { known: { upstream: 'a' } } })
    const { path, body } = wireRequest('chat-completions', 'unknown-model')
    const response = await gw.fetch(post('chat-completions', path, body))
    expect(response.status).toBe(404)
    expect(((await response.json()) as Json).error.code).toBe('model_not_found')
  })
  it('routes under a basePath (and by suffix)', async () => {
    const mounted = createGateway({ basePath: '/llm' })
    const { path, body } = wireRequest('messages', 'm')
    expect((await mounted.fetch(post('messages', `/llm${path}`, body))).status).toBe(200)
  })
  it('throws on an inconsistent configuration', () => {
    expect(() => createGateway({ models: { a: { upstream: 'nope' } } })).toThrow(
      'models["a"] routes to unknown upstream "nope"',
    )
    expect(() => createGateway({ upstreams: { x: { format: 'messages' } } })).toThrow(
      'upstreams.x: baseURL is required',
    )
  })
})
