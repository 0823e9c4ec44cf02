/**
 * The four client formats × Bedrock (InvokeModel for Claude, Converse for Claude and Nova), against the strict
 * stand-in: JSON and stream, tools, thinking whose Converse signature survives the client's round trip (the
 * stand-in refuses a reasoning block it did not sign), and Bedrock's errors in the client's format — throttling 429
 * with a retry hint, expired credentials 403, an exception inside the stream — never Bedrock's raw body.
 */
import { describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { FormatId } from '../../src/ir/index.js'
import { awsCredentials, expiredCredentials } from '../../src/node/testing/clouds/bedrock.js'
import { createStrictUpstream } from '../../src/node/testing/index.js'
import { formatIds, type Json, post, summarize, summarizeSse, wireRequest } from '../gateway-helpers.js'
import { bedrockUpstreams, claudeId as claude, novaId as nova, useMockBedrock } from './bedrock-fixture.js'
import { secondTurn } from './matrix.js'

const bedrock = useMockBedrock()

function gateway(auth: unknown = awsCredentials) {
  return createGateway({
    upstreams: bedrockUpstreams(bedrock, auth as typeof awsCredentials),
    models: {
      'claude-invoke': { upstream: 'invoke', model: claude },
      'claude-converse': { upstream: 'converse', model: claude },
      'nova-converse': { upstream: 'converse', model: nova },
    },
  })
}

const last = bedrock.last

async function call(format: FormatId, model: string, scenario: Parameters<typeof wireRequest>[2]) {
  const { path, body } = wireRequest(format, model, scenario)
  return gateway().fetch(post(format, path, body))
}

const routes = [
  ['claude-invoke', 'invoke'],
  ['claude-converse', 'converse'],
  ['nova-converse', 'converse'],
] as const

describe.each(formatIds)('%s client', (format) => {
  it.each(routes)(
    '%s: JSON and stream give the same text, on the right Bedrock operation',
    async (model, operation) => {
      const json = await call(format, model, { text: 'Say hello' })
      expect(json.status).toBe(200)
      const answer = summarize(format, await json.json())
      expect(answer.text).not.toBe('')
      if (operation === 'converse') expect(answer.text).toContain('You said: Say hello')
      expect(last().path).toMatch(new RegExp(`/${operation}$`))
      const stream = await call(format, model, { text: 'Say hello', stream: true })
      expect(stream.status).toBe(200)
      expect(stream.headers.get('content-type')).toContain('text/event-stream')
      const streamed = summarizeSse(format, await stream.text())
      expect(streamed.error).toBeUndefined()
      expect(streamed.text).toBe(answer.text)
      expect(last().path).toMatch(
        new RegExp(`/${operation === 'invoke' ? 'invoke-with-response-stream' : 'converse-stream'}$`),
      )
    },
  )

  it.each(routes)('%s: tools, JSON and stream', async (model) => {
    const json = await call(format, model, { text: 'Weather in Paris?', tools: true })
    expect(summarize(format, await json.json()).tools).toEqual(['get_weather'])
    const stream = await call(format, model, { text: 'Weather in Paris?', tools: true, stream: true })
    expect(summarizeSse(format, await stream.text()).tools).toEqual(['get_weather'])
  })

  it('throttling → 429 in the client format with a retry hint; never Bedrock’s body', async () => {
    for (const model of ['claude-invoke', 'nova-converse']) {
      bedrock.stand.throttleOnce()
      const answer = await call(format, model, { text: 'Say hello' })
      expect(answer.status).toBe(429)
      expect(answer.headers.get('retry-after')).toBe('1')
      const body = (await answer.json()) as Json
      expect(JSON.stringify(body)).toContain('Too many requests')
      expect(Object.keys(body)).not.toEqual(['message'])
      expect(body.error ?? body).toBeTruthy()
      if (format === 'messages') expect(body.error.type).toBe('rate_limit_error')
      if (format === 'content-generation') expect(body.error.status).toBe('RESOURCE_EXHAUSTED')
    }
  })

  it('expired session credentials → 403 in the client format', async () => {
    const { path, body } = wireRequest(format, 'nova-converse', { text: 'Say hello' })
    const answer = await gateway(expiredCredentials).fetch(post(format, path, body))
    expect(answer.status).toBe(403)
    const text = await answer.text()
    expect(text).toContain('The security token included in the request is expired')
    expect(text).not.toContain(expiredCredentials.sessionToken)
    expect(text).not.toContain(expiredCredentials.secretAccessKey)
    expect(Object.keys(JSON.parse(text))).not.toEqual(['message'])
  })

  it('an exception inside the stream: after the first bytes, the client format’s in-stream error', async () => {
    for (const model of ['claude-invoke', 'claude-converse']) {
      bedrock.stand.failStreamOnce('modelStreamErrorException', 4)
      const answer = await call(format, model, { text: 'Say hello', stream: true })
      expect(answer.status).toBe(200)
      const streamed = summarizeSse(format, await answer.text())
      expect(JSON.stringify(streamed.error)).toContain('modelStreamErrorException')
    }
  })

  it.each(['claude-invoke', 'claude-converse', 'nova-converse'])(
    '%s: an exception as the first frame of the stream → the HTTP error of its status before any byte (passthrough too)',
    async (model) => {
      const exceptions = [
        ['throttlingException', 429, { messages: 'rate_limit_error', 'content-generation': 'RESOURCE_EXHAUSTED' }],
        ['validationException', 400, { messages: 'invalid_request_error', 'content-generation': 'INVALID_ARGUMENT' }],
        ['serviceUnavailableException', 503, { messages: 'overloaded_error', 'content-generation': 'UNAVAILABLE' }],
      ] as const
      for (const [exception, status, types] of exceptions) {
        bedrock.stand.failStreamOnce(exception, 0)
        const answer = await call(format, model, { text: 'Say hello', stream: true })
        expect([exception, answer.status]).toEqual([exception, status])
        expect(answer.headers.get('content-type')).toContain('application/json')
        if (status === 429) expect(answer.headers.get('retry-after')).toBe('1')
        const body = (await answer.json()) as Json
        expect(JSON.stringify(body)).toContain(`Stand-in ${exception}`)
        if (format === 'messages') expect(body.error.type).toBe(types.messages)
        else if (format === 'content-generation') expect(body.error.status).toBe(types['content-generation'])
        else expect(typeof body.error.message).toBe('string')
      }
    },
  )
})

describe('thinking on Converse: the signature Bedrock issued comes back through every client format', () => {
  it.each(formatIds)(
    '%s client: reasoning with a signature, then the tool round trip is accepted by the stand-in',
    async (format) => {
      const { path, body } = wireRequest(format, 'claude-converse', {
        text: 'Weather in Paris?',
        tools: true,
        reasoning: true,
      })
      const gw = gateway()
      const first = await gw.fetch(post(format, path, body))
      expect(first.status).toBe(200)
      const firstBody = (await first.json()) as Json
      const sent = last().body
      expect(sent.additionalModelRequestFields.thinking).toMatchObject({ type: 'enabled' })
      const next = secondTurn(format, firstBody, body)
      const second = await gw.fetch(post(format, path, next))
      const text = await second.text()
      expect(second.status, text).toBe(200)
      expect(summarize(format, JSON.parse(text)).text).toMatch(/^The tool said: .*18C and sunny/)
      const replayed = last().body.messages[1]
      expect(replayed.role).toBe('assistant')
      expect(replayed.content[0].reasoningContent.reasoningText.signature).toMatch(/^sig-converse-/)
    },
  )

  it.each(formatIds)(
    '%s client: Converse redacted reasoning goes out in the reasoning envelope and comes back as redactedContent',
    async (format) => {
      const upstream = await createStrictUpstream({
        format: 'converse',
        script: [
          {
            redactedReasoning: true,
            reasoning: 'Checking the weather.',
            toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
          },
          { text: 'Sunny.' },
        ],
      })
      try {
        const gw = createGateway({
          upstreams: { converse: upstream.upstream },
          models: { 'claude-converse': { upstream: 'converse', model: claude } },
        })
        const { path, body } = wireRequest(format, 'claude-converse', {
          text: 'Weather?',
          tools: true,
          reasoning: true,
        })
        const first = await gw.fetch(post(format, path, body))
        const firstBody = (await first.json()) as Json
        expect(first.status).toBe(200)
        const issued = JSON.parse(JSON.stringify(firstBody))
        // Towards the client the redacted data is never Bedrock's bare bytes in a field another provider would take.
        if (format === 'messages')
          expect(issued.content[0]).toMatchObject({ type: 'redacted_thinking', data: expect.stringMatching(/^il1\./) })
        const second = await gw.fetch(post(format, path, secondTurn(format, firstBody, body)))
        const text = await second.text()
        expect(second.status, text).toBe(200)
        expect(upstream.rejections).toEqual([])
        const answered = upstream.requests[0]?.body
        const replayed = upstream.requests[1]?.body.messages[1]
        expect(replayed.role).toBe('assistant')
        expect(replayed.content[0]).toEqual({ reasoningContent: { redactedContent: expect.any(String) } })
        expect(JSON.stringify(answered)).not.toContain(replayed.content[0].reasoningContent.redactedContent)
        expect(replayed.content[1].reasoningContent.reasoningText.signature).toMatch(/^sig-converse-/)
      } finally {
        await upstream.close()
      }
    },
  )
})
