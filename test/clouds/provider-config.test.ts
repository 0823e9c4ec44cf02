/**
 * Issue 23 §4: a configuration the gateway cannot serve is refused by `createGateway`, naming the upstream and the
 * field; `headers` may be a function (called per upstream call) for any upstream, first-party included.
 */
import { describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { UpstreamOptions } from '../../src/gateway/options.js'
import { type Json, post, stack, wireRequest } from '../gateway-helpers.js'

const refused = (upstream: Partial<UpstreamOptions> & Json) => () =>
  createGateway({ upstreams: { cloud: upstream as UpstreamOptions } })

describe('createGateway refuses what it cannot serve', () => {
  it.each([
    [
      { format: 'chat-completion', baseURL: 'https://x.test' },
      'upstreams.cloud: format "chat-completion" is not one of',
    ],
    [{ format: 'messages' }, 'upstreams.cloud: baseURL is required'],
    [{ format: 'messages', provider: 'azurre', baseURL: 'https://x.test' }, 'upstreams.cloud: provider "azurre"'],
    [
      { format: 'messages', provider: 'azure', baseURL: 'https://x.openai.azure.com', apiKey: 'k' },
      `upstreams.cloud: format "messages" is not served by provider 'azure'`,
    ],
    [{ format: 'chat-completions', provider: 'azure', apiKey: 'k' }, 'upstreams.cloud: baseURL is required'],
    [{ format: 'chat-completions', provider: 'azure', baseURL: 'x.openai.azure.com', apiKey: 'k' }, 'baseURL must be'],
    [{ format: 'responses', provider: 'azure', baseURL: 'https://x.openai.azure.com' }, 'apiKey or auth is required'],
    [
      { format: 'chat-completions', provider: 'azure', baseURL: 'https://x.test', apiKey: 'k', deployment: 'd' },
      'upstreams.cloud: apiVersion is required with deployment',
    ],
    [
      { format: 'chat-completions', provider: 'azure', baseURL: 'https://x.test', auth: { bearerToken: 't' } },
      'upstreams.cloud: auth must be an Entra ID token',
    ],
    [{ format: 'messages', baseURL: 'https://x.test', headers: 'x-a: b' }, 'upstreams.cloud: headers must be'],
    [
      { format: 'messages', provider: 'vertex', location: 'us-east5', auth: 't' },
      'upstreams.cloud: project is required',
    ],
    [{ format: 'messages', provider: 'vertex', project: 'p', auth: 't' }, 'upstreams.cloud: location is required'],
    [
      { format: 'messages', provider: 'vertex', project: 'p', location: 'us-east5' },
      'upstreams.cloud: auth is required',
    ],
    [
      { format: 'messages', provider: 'vertex', project: 'p', location: 'us-east5', auth: { serviceAccount: {} } },
      'upstreams.cloud: auth.serviceAccount.client_email is missing',
    ],
    [
      {
        format: 'content-generation',
        provider: 'vertex',
        project: 'p',
        location: 'us-east5',
        auth: { serviceAccount: { client_email: 'a@p.iam.gserviceaccount.com', private_key: 'x' } },
      },
      'upstreams.cloud: auth.serviceAccount.private_key is missing',
    ],
    [{ format: 'messages', provider: 'vertex', apiKey: 'k' }, 'serves Gemini (content-generation) only'],
    [
      { format: 'chat-completions', provider: 'vertex', project: 'p', location: 'global', auth: 't' },
      `format "chat-completions" is not served by provider 'vertex'`,
    ],
    [
      { format: 'messages', provider: 'vertex', project: 'p', location: 'US East', auth: 't' },
      'is not a Vertex AI location',
    ],
  ])('%j', (upstream, message) => {
    expect(refused(upstream)).toThrow(message)
  })

  it('accepts well-formed Azure and Vertex AI upstreams', () => {
    expect(
      refused({ format: 'responses', provider: 'azure', baseURL: 'https://x.openai.azure.com', auth: async () => 't' }),
    ).not.toThrow()
    expect(refused({ format: 'content-generation', provider: 'vertex', apiKey: 'k' })).not.toThrow()
    expect(
      refused({ format: 'messages', provider: 'vertex', project: 'p', location: 'global', auth: () => 'token' }),
    ).not.toThrow()
  })
})

describe('headers as a function', () => {
  it('is called per upstream call, first-party upstreams too, beside the key header', async () => {
    let calls = 0
    const { gateway, calls: received } = stack({
      upstreams: {
        openai: {
          format: 'chat-completions',
          baseURL: 'http://upstream.test/v1',
          apiKey: 'upstream-openai-key',
          headers: async () => ({ 'X-Proxy-Token': `token-${++calls}` }),
        },
      },
      models: { m: { upstream: 'openai', model: 'upstream-model' } },
    })
    for (const _ of [1, 2]) {
      const { path, body } = wireRequest('messages', 'm')
      expect((await gateway.fetch(post('messages', path, body))).status).toBe(200)
    }
    expect(received.map((call) => call.headers.get('x-proxy-token'))).toEqual(['token-1', 'token-2'])
    expect(received[0]?.headers.get('authorization')).toBe('Bearer upstream-openai-key')
  })

  it('a failing headers function is a 502 in the client format naming the upstream', async () => {
    const { gateway, calls } = stack({
      upstreams: {
        anthropic: {
          format: 'messages',
          baseURL: 'http://upstream.test',
          headers: () => {
            throw new Error('secret detail')
          },
        },
      },
      models: { m: { upstream: 'anthropic', model: 'upstream-model' } },
    })
    const { path, body } = wireRequest('chat-completions', 'm')
    const response = await gateway.fetch(post('chat-completions', path, body))
    expect(response.status).toBe(502)
    const text = await response.text()
    expect(text).toContain('The headers function of the upstream \\"anthropic\\" failed')
    expect(text).not.toContain('secret detail')
    expect(calls).toHaveLength(0)
  })
})
