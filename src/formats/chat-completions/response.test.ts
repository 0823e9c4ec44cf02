import { describe, expect, it } from 'vitest'
import { InterlinguaError } from '../../errors.js'
import { decodeResponse } from './decode-response.js'
import { encodeResponse } from './encode-response.js'
import { encodeModelList } from './models.js'

const wire = (message: Record<string, unknown>, finish: string, extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1700000000,
  model: 'gpt',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', ...message } as Record<string, unknown>,
      finish_reason: finish,
      logprobs: null,
    },
  ],
  ...extra,
})

describe('chat-completions decodeResponse', () => {
  it('decodes text, refusal, tool calls, carrier, extras, usage and extensions', () => {
    const { value, warnings } = decodeResponse(
      wire(
        {
          content: 'Hi',
          refusal: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
          annotations: [{ type: 'url_citation', url_citation: { url: 'https://x.test' } }],
          reasoning_content: 'r',
        },
        'stop',
        {
          usage: {
            prompt_tokens: 10,
            completion_tokens: 5,
            total_tokens: 15,
            prompt_tokens_details: { cached_tokens: 4 },
          },
          system_fingerprint: 'fp',
          service_tier: 'default',
        },
      ),
    )
    expect(warnings).toEqual([])
    expect(value).toEqual({
      id: 'chatcmpl-1',
      model: 'gpt',
      created: 1700000000,
      content: [
        { type: 'reasoning', text: 'r' },
        {
          type: 'text',
          text: 'Hi',
          providerData: {
            'chat-completions': {
              annotations: [{ type: 'url_citation', url_citation: { url: 'https://x.test' } }],
            },
          },
        },
        { type: 'tool-call', id: 'c', name: 'f', arguments: '{}' },
      ],
      finishReason: { unified: 'tool-calls', raw: 'stop', rawFormat: 'chat-completions' },
      usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 4, totalTokens: 15 },
      extensions: { 'chat-completions': { system_fingerprint: 'fp', service_tier: 'default' } },
    })
  })

  it('decodes a refusal and extra choices', () => {
    const body = wire({ content: null, refusal: 'No.' }, 'stop')
    body.choices.push({
      index: 1,
      message: { role: 'assistant', content: 'B' },
      finish_reason: 'length',
      logprobs: null,
    })
    const { value } = decodeResponse(body)
    expect(value.content).toEqual([{ type: 'refusal', text: 'No.' }])
    expect(value.extraChoices).toEqual([
      {
        index: 1,
        content: [{ type: 'text', text: 'B' }],
        finishReason: { unified: 'length', raw: 'length', rawFormat: 'chat-completions' },
      },
    ])
  })

  it('rejects malformed bodies with the path', () => {
    expect(() => decodeResponse(null)).toThrow(InterlinguaError)
    try {
      decodeResponse({ choices: [{ message: { content: 5 } }] })
      expect.unreachable()
    } catch (error) {
      expect((error as InterlinguaError).code).toBe('invalid-request')
      expect((error as Error).message.startsWith('choices[0].message.content')).toBe(true)
    }
  })
})

describe('chat-completions encodeResponse', () => {
  it('concatenates text, writes tool_calls and ends tool_calls, generates id and created', () => {
    const { value } = encodeResponse({
      id: '',
      model: 'gpt',
      content: [
        { type: 'reasoning', text: 'r' },
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
        { type: 'tool-call', id: 'c', name: 'f', arguments: '' },
      ],
      finishReason: { unified: 'stop', raw: 'end_turn', rawFormat: 'messages' },
      usage: { inputTokens: 3, outputTokens: 4, reasoningTokens: 1 },
    })
    const body = value as { id: string; created: number }
    expect(body.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/)
    expect(Math.abs(body.created - Date.now() / 1000)).toBeLessThan(5)
    expect(value).toEqual({
      id: body.id,
      object: 'chat.completion',
      created: body.created,
      model: 'gpt',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'ab',
            refusal: null,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
            reasoning_content: 'r',
            reasoning_details: [{ type: 'reasoning.text', text: 'r', index: 0 }],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 3,
        completion_tokens: 4,
        total_tokens: 7,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 1,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
    })
  })

  it('refusal-only, foreign extensions warn', () => {
    const { value, warnings } = encodeResponse({
      id: 'x',
      model: 'gpt',
      created: 1,
      content: [{ type: 'refusal', text: 'No' }],
      finishReason: { unified: 'content-filter' },
      extensions: { messages: { container: null } },
    })
    expect(value).toEqual({
      id: 'x',
      object: 'chat.completion',
      created: 1,
      model: 'gpt',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: null, refusal: 'No' },
          logprobs: null,
          finish_reason: 'content_filter',
        },
      ],
    })
    expect(warnings).toEqual([
      { type: 'dropped', path: 'container', message: 'messages field container has no chat-completions equivalent' },
    ])
  })
})

describe('chat-completions encodeModelList', () => {
  it('lists models', () => {
    expect(encodeModelList([{ id: 'a', created: 5, ownedBy: 'me' }, { id: 'b' }])).toEqual({
      object: 'list',
      data: [
        { id: 'a', object: 'model', created: 5, owned_by: 'me' },
        { id: 'b', object: 'model', created: 0, owned_by: 'system' },
      ],
    })
  })
})
