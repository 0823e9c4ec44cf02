import { describe, expect, it } from 'vitest'
import { InterlinguaError } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import { unsignedEnvelope } from '../../shared/reasoning-envelope.js'
import { decodeResponse } from './decode-response.js'
import { encodeResponse } from './encode-response.js'

describe('decodeResponse', () => {
  it('decodes blocks, finish reason, usage and extensions', () => {
    const { value, warnings } = decodeResponse({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [
        { type: 'thinking', thinking: 't', signature: 'sig' },
        { type: 'text', text: 'hi', citations: null },
        { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: {} },
        { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      stop_details: null,
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: null },
    })
    expect(value).toEqual({
      id: 'msg_1',
      model: 'claude-x',
      content: [
        { type: 'reasoning', text: 't', providerData: { messages: { signature: 'sig' } } },
        { type: 'text', text: 'hi', providerData: { messages: { citations: null } } },
        { type: 'tool-call', id: 'toolu_1', name: 'f', arguments: '{"a":1}' },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_use', rawFormat: 'messages' },
      usage: { inputTokens: 110, outputTokens: 5, cachedInputTokens: 100 },
      extensions: { messages: { stop_details: null, usage: { cache_creation_input_tokens: null } } },
    })
    expect(warnings).toEqual([
      { type: 'dropped', path: 'content[2]', message: 'server_tool_use blocks have no IR equivalent' },
    ])
  })

  it('rejects a malformed body with the path', () => {
    let caught: unknown
    try {
      decodeResponse({ id: 'x', model: 'm', content: [{ type: 'text', text: 1 }] })
    } catch (error) {
      caught = error
    }
    expect(InterlinguaError.isInstance(caught) && caught.message).toBe(
      'content[0].text: expected string, received number',
    )
  })
})

describe('encodeResponse', () => {
  it('encodes a response from another format', () => {
    const response: ir.Response = {
      id: 'chatcmpl-1',
      model: 'gpt-x',
      created: 1,
      content: [
        { type: 'reasoning', text: 'r' },
        { type: 'text', text: 'hello' },
        { type: 'tool-call', id: 'call.1', name: 'f', arguments: '{"x":true}' },
        { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AA' } },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls', rawFormat: 'chat-completions' },
      usage: { inputTokens: 100, outputTokens: 20, cachedInputTokens: 40, reasoningTokens: 5 },
      extraChoices: [{ index: 1, content: [], finishReason: { unified: 'stop' } }],
      extensions: { 'chat-completions': { system_fingerprint: 'fp' } },
    }
    const { value, warnings } = encodeResponse(response)
    expect(value).toEqual({
      id: 'chatcmpl-1',
      type: 'message',
      role: 'assistant',
      model: 'gpt-x',
      content: [
        // Reasoning with no signature at all: the envelope of nothing, never an empty signature (issue 21 §4).
        { type: 'thinking', thinking: 'r', signature: unsignedEnvelope() },
        { type: 'text', text: 'hello' },
        { type: 'tool_use', id: expect.stringMatching(/^[a-zA-Z0-9_-]+$/), name: 'f', input: { x: true } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 60,
        output_tokens: 20,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 40,
        output_tokens_details: { thinking_tokens: 5 },
      },
    })
    expect(warnings).toEqual([
      { type: 'dropped', path: 'content[3]', message: 'messages responses cannot hold image parts' },
      { type: 'dropped', path: 'extraChoices', message: 'messages returns a single choice' },
      {
        type: 'dropped',
        path: 'system_fingerprint',
        message: 'chat-completions field system_fingerprint has no messages equivalent',
      },
    ])
  })

  it('generates an id, maps a refusal and a stop sequence', () => {
    const refusal = encodeResponse({
      id: '',
      model: 'm',
      content: [{ type: 'refusal', text: 'I cannot.' }],
      finishReason: { unified: 'stop' },
    })
    expect(refusal.value).toEqual({
      id: expect.stringMatching(/^msg_[0-9a-f]{24}$/),
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'text', text: 'I cannot.' }],
      stop_reason: 'refusal',
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    })
    expect(refusal.warnings).toEqual([
      { type: 'changed', path: 'content[0]', message: 'refusal sent as a text block with stop_reason refusal' },
    ])
    const stop = encodeResponse({
      id: 'a',
      model: 'm',
      content: [],
      finishReason: { unified: 'stop' },
      stopSequence: 'END',
    }).value
    expect(stop).toMatchObject({ content: [], stop_reason: 'stop_sequence', stop_sequence: 'END' })
  })
})

describe('thinking.display "omitted" (issue 21: Claude Code)', () => {
  const response: ir.Response = {
    id: 'msg_1',
    model: 'm',
    content: [
      { type: 'reasoning', text: 'secret thoughts', providerData: { messages: { signature: 'sig' } } },
      { type: 'text', text: 'hi' },
    ],
    finishReason: { unified: 'stop' },
  }
  const omitted: ir.Request = { model: 'm', messages: [], reasoning: { enabled: true, includeThoughts: false } }

  it('the client that asked for its thinking omitted gets it signed and empty, whatever the upstream said', () => {
    const body = encodeResponse(response, { request: omitted }).value as { content: unknown[] }
    expect(body.content[0]).toEqual({ type: 'thinking', thinking: '', signature: 'sig' })
    const shown = encodeResponse(response, { request: { ...omitted, reasoning: { enabled: true } } }).value as {
      content: unknown[]
    }
    expect(shown.content[0]).toEqual({ type: 'thinking', thinking: 'secret thoughts', signature: 'sig' })
  })
})
