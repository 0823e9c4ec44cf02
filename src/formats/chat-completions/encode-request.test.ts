import { describe, expect, it } from 'vitest'
import type * as ir from '../../ir/index.js'
import { encodeRequest } from './encode-request.js'

const base = { model: 'm' }

describe('chat-completions encodeRequest', () => {
  it('writes system/developer in place and tool results as N tool messages', () => {
    const request: ir.Request = {
      ...base,
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'A' }] },
        {
          role: 'system',
          content: [{ type: 'text', text: 'B' }],
          providerData: { 'chat-completions': { role: 'developer' } },
        },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', id: 'c1', name: 'f', arguments: '' },
            { type: 'tool-call', id: 'c2', name: 'f', arguments: '{"x":1}' },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              content: [
                { type: 'text', text: 'see image' },
                { type: 'image', source: { type: 'url', url: 'https://x.test/i.png' } },
              ],
            },
            { type: 'tool-result', toolCallId: 'c2', content: [{ type: 'text', text: 'boom' }], isError: true },
          ],
        },
      ],
    }
    const { value, warnings } = encodeRequest(request)
    expect(value).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'A' },
        { role: 'developer', content: 'B' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } },
            { id: 'c2', type: 'function', function: { name: 'f', arguments: '{"x":1}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'see image' },
        { role: 'tool', tool_call_id: 'c2', content: 'Error: boom' },
      ],
    })
    expect(warnings).toEqual([
      {
        type: 'dropped',
        path: 'messages[3].content[0].content[1]',
        message: 'tool results hold text only; image dropped',
      },
      {
        type: 'changed',
        path: 'messages[3].content[1]',
        message: 'isError has no field: content prefixed with "Error: "',
      },
    ])
  })

  it('encodes user media and warns for what cannot be sent', () => {
    const { value, warnings } = encodeRequest({
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AAAA' }, detail: 'high' },
            { type: 'image', source: { type: 'url', url: 'https://x.test/a.png' } },
            { type: 'audio', source: { type: 'base64', mediaType: 'audio/mpeg', data: 'SUQz' } },
            { type: 'audio', source: { type: 'base64', mediaType: 'audio/ogg', data: 'T2dn' } },
            {
              type: 'document',
              source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBE' },
              filename: 'a.pdf',
            },
            { type: 'document', source: { type: 'file', fileId: 'file-1' } },
            { type: 'document', source: { type: 'text', text: 'plain doc' } },
            { type: 'document', source: { type: 'url', url: 'https://x.test/a.pdf' } },
          ],
        },
      ],
    })
    expect(value).toEqual({
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'high' } },
            { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
            { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' } },
            { type: 'file', file: { file_id: 'file-1' } },
            { type: 'text', text: 'plain doc' },
          ],
        },
      ],
    })
    expect(warnings).toEqual([
      {
        type: 'dropped',
        path: 'messages[0].content[3]',
        message: 'audio (audio/ogg) is not supported: only base64 wav/mp3',
      },
      {
        type: 'dropped',
        path: 'messages[0].content[7]',
        message: 'documents by URL are not supported; inline them first',
      },
    ])
  })

  it('writes reasoning parts and foreign provider data to the carrier', () => {
    const { value } = encodeRequest({
      ...base,
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'hmm', providerData: { messages: { signature: 'sig' } } },
            { type: 'redacted-reasoning', data: 'opaque' },
            { type: 'text', text: 'hi' },
            {
              type: 'tool-call',
              id: 'c',
              name: 'f',
              arguments: '{}',
              providerData: { 'content-generation': { thoughtSignature: 'ts' } },
            },
          ],
        },
      ],
    })
    expect(value).toEqual({
      model: 'm',
      messages: [
        {
          role: 'assistant',
          content: 'hi',
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
          reasoning_content: 'hmm',
          reasoning_details: [
            {
              type: 'reasoning.text',
              text: 'hmm',
              index: 0,
              format: 'messages',
              signature: 'sig',
              provider_data: { messages: { signature: 'sig' } },
            },
            { type: 'reasoning.encrypted', data: 'opaque', index: 1, format: 'messages' },
            {
              type: 'provider-data',
              index: 3,
              id: 'c',
              provider_data: { 'content-generation': { thoughtSignature: 'ts' } },
            },
          ],
        },
      ],
    })
  })

  it('maps top-level settings, reasoning budget, json schema name, extensions', () => {
    const { value, warnings } = encodeRequest({
      ...base,
      messages: [],
      tools: [{ type: 'function', name: 't', parameters: { type: 'object' } }],
      toolChoice: { type: 'tool', name: 't' },
      maxTokens: 100,
      topK: 40,
      stopSequences: ['x'],
      reasoning: { budgetTokens: 1024 },
      responseFormat: { type: 'json-schema', schema: { type: 'object' } },
      stream: true,
      streamIncludeUsage: true,
      extensions: { 'chat-completions': { store: true }, messages: { service_tier: 'auto', container: 'c' } },
    })
    expect(value).toEqual({
      model: 'm',
      messages: [],
      tools: [{ type: 'function', function: { name: 't', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 't' } },
      max_completion_tokens: 100,
      stop: ['x'],
      reasoning_effort: 'low',
      response_format: { type: 'json_schema', json_schema: { name: 'response', schema: { type: 'object' } } },
      stream: true,
      stream_options: { include_usage: true },
      store: true,
    })
    expect(warnings).toEqual([
      { type: 'dropped', path: 'topK', message: 'top_k is not supported' },
      {
        type: 'dropped',
        path: 'service_tier',
        message: 'messages field service_tier has no chat-completions equivalent',
      },
      { type: 'dropped', path: 'container', message: 'messages field container has no chat-completions equivalent' },
    ])
  })

  it('reasoning disabled → none; allowed tools; json; no undefined values', () => {
    const { value } = encodeRequest({
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
      ],
      reasoning: { enabled: false, budgetTokens: 0 },
      toolChoice: { type: 'required' },
      allowedTools: ['a', 'b'],
      responseFormat: { type: 'json' },
    })
    expect(value).toEqual({
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
      ],
      reasoning_effort: 'none',
      tool_choice: {
        type: 'allowed_tools',
        allowed_tools: {
          mode: 'required',
          tools: [
            { type: 'function', function: { name: 'a' } },
            { type: 'function', function: { name: 'b' } },
          ],
        },
      },
      response_format: { type: 'json_object' },
    })
    expect(JSON.stringify(value)).not.toContain('undefined')
    expect(Object.values(value as object).includes(undefined)).toBe(false)
  })
})
