/**
 * The Responses format through the gateway (issue 13): stateless refusals in the client's format (also on the mock
 * model), hosted tools mapped or left out for other upstreams and passed through to a Responses upstream, errors before the
 * first byte as HTTP errors and after it as `error` + `response.failed` with codes Codex understands, token counts.
 */
import { describe, expect, it } from 'vitest'
import { createGateway } from '../src/gateway/create-gateway.js'
import { failingUpstream, geminiChunk, type Json, parseSse, post, stack, wireRequest } from './gateway-helpers.js'

const path = '/v1/responses'

describe('state: unknown ids, and the stateless gateway (responseStore: false)', () => {
  it.each(['via-messages', 'via-chat-completions'])(
    'previous_response_id → 400 previous_response_not_found (%s), nothing sent upstream',
    async (model) => {
      const { gateway, calls } = stack()
      const body = { model, previous_response_id: 'resp_prev', input: 'and then?' }
      const response = await gateway.fetch(post('responses', path, body))
      expect(response.status).toBe(400)
      const json = (await response.json()) as Json
      expect(json.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'previous_response_not_found',
        param: 'previous_response_id',
      })
      expect(calls).toEqual([])
    },
  )

  it('the stateless mock model refuses previous_response_id and item_reference, saying what to do', async () => {
    const gateway = createGateway({ responseStore: false })
    const previous = await gateway.fetch(
      post('responses', path, { model: 'm', previous_response_id: 'resp_x', input: 'hi' }),
    )
    expect(previous.status).toBe(400)
    expect(((await previous.json()) as Json).error.code).toBe('previous_response_not_found')
    const reference = await gateway.fetch(
      post('responses', path, {
        model: 'm',
        input: [
          { role: 'user', content: 'hi' },
          { type: 'item_reference', id: 'msg_1' },
        ],
      }),
    )
    expect(reference.status).toBe(400)
    const error = ((await reference.json()) as Json).error
    expect(error.param).toBe('input[1]')
    expect(error.message).toContain('store: false')
    // With the default store, an id it never stored is still a 400 naming the path.
    const unknown = await createGateway().fetch(
      post('responses', path, { model: 'm', input: [{ type: 'item_reference', id: 'msg_1' }] }),
    )
    expect(unknown.status).toBe(400)
    expect(((await unknown.json()) as Json).error.param).toBe('input[0]')
  })

  it('a Responses upstream gets previous_response_id as sent (passthrough)', async () => {
    const { gateway, calls } = stack({}, async () => Response.json({ id: 'resp_1', object: 'response', output: [] }))
    const body = { model: 'via-responses', previous_response_id: 'resp_prev', input: 'hi' }
    expect((await gateway.fetch(post('responses', path, body))).status).toBe(200)
    expect(JSON.parse(calls[0]?.body ?? '{}')).toMatchObject({
      previous_response_id: 'resp_prev',
      model: 'upstream-model',
    })
    expect(calls[0]?.url).toBe('http://upstream.test/v1/responses')
  })
})

describe('hosted tools', () => {
  const body = (model: string) => ({ model, input: 'news?', tools: [{ type: 'web_search' }] })

  it("→ Anthropic's web_search server tool for a messages upstream", async () => {
    const { gateway, calls } = stack()
    const response = await gateway.fetch(post('responses', path, body('via-messages')))
    expect(response.status).toBe(200)
    expect(JSON.parse(calls[0]?.body ?? '{}').tools).toEqual([{ type: 'web_search_20250305', name: 'web_search' }])
  })

  it('→ left out with a warning for a chat-completions upstream; under strict a 400 naming tools', async () => {
    const { gateway, calls } = stack()
    const response = await gateway.fetch(post('responses', path, body('via-chat-completions')))
    expect(response.status).toBe(200)
    expect(JSON.parse(calls[0]?.body ?? '{}').tools).toBeUndefined()
    const strict = stack({ strict: true })
    const refused = await strict.gateway.fetch(post('responses', path, body('via-chat-completions')))
    expect(refused.status).toBe(400)
    const error = ((await refused.json()) as Json).error
    expect(error.param).toBe('tools')
    expect(error.message).toContain('web search tool left out')
    expect(strict.calls).toEqual([])
  })

  it('pass through to a Responses upstream', async () => {
    const { gateway, calls } = stack({}, async () => Response.json({ id: 'resp_1', object: 'response', output: [] }))
    expect((await gateway.fetch(post('responses', path, body('via-responses')))).status).toBe(200)
    expect(JSON.parse(calls[0]?.body ?? '{}').tools).toEqual([{ type: 'web_search' }])
  })
})

describe('errors', () => {
  it('an upstream 400 before the first byte is an HTTP 400 in the Responses shape', async () => {
    const { gateway } = stack(
      {},
      async () =>
        new Response(
          JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'bad schema' } }),
          {
            status: 400,
            headers: { 'content-type': 'application/json' },
          },
        ),
    )
    const { body } = wireRequest('responses', 'via-messages', { stream: true })
    const response = await gateway.fetch(post('responses', path, body))
    expect(response.status).toBe(400)
    expect(((await response.json()) as Json).error).toMatchObject({
      message: 'bad schema',
      type: 'invalid_request_error',
    })
  })

  it('a failure after the first byte → event: error, then response.failed with the output so far, then [DONE]', async () => {
    const { gateway } = stack({}, failingUpstream(geminiChunk))
    const { body } = wireRequest('responses', 'via-content-generation', { stream: true })
    const response = await gateway.fetch(post('responses', path, body))
    expect(response.status).toBe(200)
    const events = parseSse(await response.text())
    const types = events.map((e) => (e.data === '[DONE]' ? '[DONE]' : e.data.type))
    expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress'])
    expect(types.slice(-3)).toEqual(['error', 'response.failed', '[DONE]'])
    const failed = events.at(-2)?.data as Json
    expect(failed.response.error.code).toBe('server_error')
    expect(failed.response.output[0].content[0].text).toBe('Partial')
    const sequence = events.filter((e) => e.data !== '[DONE]').map((e) => e.data.sequence_number)
    expect(sequence).toEqual(sequence.map((_, i) => i))
  })
})

describe('a Responses upstream (passthrough) that breaks mid-stream', () => {
  const shell = {
    id: 'resp_up1',
    object: 'response',
    created_at: 1763856000,
    status: 'in_progress',
    model: 'm',
    output: [],
  }
  const message = {
    id: 'msg_up1',
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'First item', annotations: [] }],
  }
  const frames = [
    { type: 'response.created', sequence_number: 0, response: shell },
    { type: 'response.in_progress', sequence_number: 1, response: shell },
    {
      type: 'response.output_item.added',
      sequence_number: 2,
      output_index: 0,
      item: { ...message, status: 'in_progress', content: [] },
    },
    {
      type: 'response.output_text.delta',
      sequence_number: 3,
      item_id: 'msg_up1',
      output_index: 0,
      content_index: 0,
      delta: 'First item',
    },
    { type: 'response.output_item.done', sequence_number: 4, output_index: 0, item: message },
    {
      type: 'response.output_item.added',
      sequence_number: 5,
      output_index: 1,
      item: { id: 'msg_up2', type: 'message', role: 'assistant', status: 'in_progress', content: [] },
    },
    {
      type: 'response.output_text.delta',
      sequence_number: 6,
      item_id: 'msg_up2',
      output_index: 1,
      content_index: 0,
      delta: 'cut',
    },
  ]
  const sse = (crlf: boolean) =>
    frames
      .map((f) => `event: ${f.type}\ndata: ${JSON.stringify(f)}\n\n`)
      .join('')
      .replace(/\n/g, crlf ? '\r\n' : '\n')

  it.each([
    ['LF', false],
    ['CRLF', true],
  ])(
    '(%s) the bytes as sent, then error and response.failed continuing the sequence, listing the completed items',
    async (_, crlf) => {
      const { gateway } = stack({}, failingUpstream(sse(crlf)))
      const { body } = wireRequest('responses', 'via-responses', { stream: true })
      const response = await gateway.fetch(post('responses', path, body))
      expect(response.status).toBe(200)
      const text = await response.text()
      expect(text.startsWith(sse(crlf))).toBe(true)
      // The error frames use LF after the upstream's CRLF events (SSE allows mixing); the test's parser reads LF only.
      const events = parseSse(text.replace(/\r\n/g, '\n'))
      const types = events.map((e) => (e.data === '[DONE]' ? '[DONE]' : e.data.type))
      expect(types.slice(-3)).toEqual(['error', 'response.failed', '[DONE]'])
      const sequence = events.filter((e) => e.data !== '[DONE]').map((e) => e.data.sequence_number)
      expect(sequence).toEqual(sequence.map((_, i) => i))
      const failed = (events.at(-2) as { data: Json }).data.response
      expect(failed).toMatchObject({ id: 'resp_up1', model: 'm', status: 'failed', error: { code: 'server_error' } })
      expect(failed.output).toEqual([message])
    },
  )

  it('broken before response.created: a whole failed response (created, in_progress, error, failed)', async () => {
    const { gateway } = stack({}, failingUpstream(': keep-alive\n\n'))
    const { body } = wireRequest('responses', 'via-responses', { stream: true })
    const response = await gateway.fetch(post('responses', path, body))
    const events = parseSse(await response.text())
    const types = events.map((e) => (e.data === '[DONE]' ? '[DONE]' : e.data.type))
    expect(types).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed', '[DONE]'])
    expect(events.filter((e) => e.data !== '[DONE]').map((e) => e.data.sequence_number)).toEqual([0, 1, 2, 3])
  })
})

describe('token counting', () => {
  it('POST /v1/responses/input_tokens → an estimate in the Responses shape', async () => {
    const { gateway } = stack()
    const response = await gateway.fetch(
      post('responses', '/v1/responses/input_tokens', { model: 'via-messages', input: 'x'.repeat(40) }),
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ object: 'response.input_tokens', input_tokens: 10 })
    expect(response.headers.get('x-interlingua-token-count')).toBe('estimate')
  })
})
