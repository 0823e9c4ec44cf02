import { describe, expect, it } from 'vitest'
import { InterlinguaError } from '../../errors.js'
import { decodeRequest } from './decode-request.js'
import { encodeRequest } from './encode-request.js'

function failure(body: unknown, route?: { kind: 'count-tokens' }): { message: string; code: string } {
  try {
    decodeRequest(body, route)
  } catch (error) {
    if (InterlinguaError.isInstance(error)) return { message: error.message, code: error.code }
    throw error
  }
  throw new Error('expected a failure')
}

const base = { model: 'claude-x', max_tokens: 100 }

describe('decodeRequest validation', () => {
  it('names the path of a wrong-typed field deep inside a block', () => {
    const body = {
      ...base,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 5 } }] },
      ],
    }
    expect(failure(body)).toEqual({
      code: 'invalid-request',
      message: 'messages[1].content[0].source.data: expected string, received number',
    })
  })

  it('rejects garbage bodies and wrong top-level types', () => {
    expect(failure(null).code).toBe('invalid-request')
    expect(failure([]).code).toBe('invalid-request')
    expect(failure({ ...base, messages: 5 }).message).toBe('messages: expected array, received number')
    expect(failure({ ...base, messages: [{ role: 'user', content: 5 }] }).message).toBe(
      'messages[0].content: expected string or array, received number',
    )
    expect(failure({ ...base, messages: [], temperature: 'hot' }).message).toBe(
      'temperature: expected number, received string',
    )
    expect(
      failure({
        ...base,
        messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'f', input: [] }] }],
      }).message,
    ).toBe('messages[0].content[0].input: expected object, received array')
  })

  it('names paths inside tool results, tools and roles', () => {
    const inResult = {
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't',
              content: [
                { type: 'text', text: 'ok' },
                { type: 'image', source: { type: 'base64', data: [] } },
              ],
            },
          ],
        },
      ],
    }
    expect(failure(inResult).message).toBe(
      'messages[0].content[0].content[1].source.data: expected string, received array',
    )
    expect(failure({ ...base, messages: [], tools: [{ name: 'f', input_schema: [] }] }).message).toBe(
      'tools[0].input_schema: expected object, received array',
    )
    expect(failure({ ...base, messages: [{ role: 'bot', content: 'x' }] }).message).toBe(
      'messages[0].role: expected one of "user", "assistant", "system", received "bot"',
    )
  })

  it('requires a source field that its type needs', () => {
    const body = { ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url' } }] }] }
    expect(failure(body).message).toBe('messages[0].content[0].source.url: required field is missing (expected string)')
  })

  it('requires max_tokens except for count_tokens', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'x' }] }
    expect(failure(body).message).toBe('max_tokens: required field is missing (expected number)')
    expect(decodeRequest(body, { kind: 'count-tokens' }).value).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
    })
  })

  it('requires input_schema on client tools', () => {
    const body = { ...base, messages: [], tools: [{ name: 'f' }] }
    expect(failure(body).message).toBe('tools[0].input_schema: required field is missing (expected object)')
  })
})

describe('decodeRequest messages', () => {
  it('splits a user turn into one tool message and a user message, recovering tool names', () => {
    const { value, warnings } = decodeRequest({
      ...base,
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 't1', name: 'alpha', input: { a: 1 } },
            { type: 'tool_use', id: 't2', name: 'beta', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: 'one' },
            { type: 'tool_result', tool_use_id: 't2', is_error: true, cache_control: { type: 'ephemeral' } },
            { type: 'text', text: 'thanks' },
            { type: 'search_result', source: 'https://x', title: 't', content: [] },
          ],
        },
      ],
    })
    expect(value.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 't1', name: 'alpha', arguments: '{"a":1}' },
          { type: 'tool-call', id: 't2', name: 'beta', arguments: '{}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 't1', toolName: 'alpha', content: [{ type: 'text', text: 'one' }] },
          {
            type: 'tool-result',
            toolCallId: 't2',
            toolName: 'beta',
            isError: true,
            content: [],
            providerData: { messages: { cache_control: { type: 'ephemeral' } } },
          },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
    ])
    expect(warnings).toEqual([
      { type: 'dropped', path: 'messages[2].content[3]', message: 'search_result blocks are not supported here' },
    ])
  })

  it('decodes system blocks, mid-conversation system messages, thinking and redacted thinking', () => {
    const { value } = decodeRequest({
      ...base,
      system: [{ type: 'text', text: 'be brief', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'a', citations: [{ type: 'char_location', cited_text: 'x' }] },
          ],
        },
        { role: 'system', content: 'now formal' },
      ],
    })
    expect(value.messages).toEqual([
      {
        role: 'system',
        content: [
          { type: 'text', text: 'be brief', providerData: { messages: { cache_control: { type: 'ephemeral' } } } },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'hmm', providerData: { messages: { signature: 'sig' } } },
          { type: 'redacted-reasoning', data: 'opaque' },
          {
            type: 'text',
            text: 'a',
            providerData: { messages: { citations: [{ type: 'char_location', cited_text: 'x' }] } },
          },
        ],
      },
      {
        role: 'system',
        content: [{ type: 'text', text: 'now formal' }],
        providerData: { messages: { inPlace: true } },
      },
    ])
  })

  it('decodes image and document sources', () => {
    const { value } = decodeRequest({
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'file', file_id: 'file_1' } },
            { type: 'document', source: { type: 'url', url: 'https://x/a.pdf' }, title: 'A', context: 'ctx' },
            { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'para' }] } },
          ],
        },
      ],
    })
    expect(value.messages[0]?.content).toEqual([
      { type: 'image', source: { type: 'file', fileId: 'file_1' } },
      {
        type: 'document',
        source: { type: 'url', url: 'https://x/a.pdf' },
        title: 'A',
        providerData: { messages: { context: 'ctx' } },
      },
      {
        type: 'document',
        source: { type: 'text', text: 'para', mediaType: 'text/plain' },
        providerData: { messages: { source: { type: 'content', content: [{ type: 'text', text: 'para' }] } } },
      },
    ])
  })
})

describe('decodeRequest top level', () => {
  it('maps settings, tools, tool_choice, thinking, output_config and keeps the rest as extensions', () => {
    const { value, warnings } = decodeRequest({
      ...base,
      messages: [{ role: 'user', content: 'x' }],
      temperature: 0.5,
      top_p: 0.9,
      top_k: 10,
      stop_sequences: ['END'],
      stream: true,
      tools: [
        {
          name: 'f',
          description: 'd',
          input_schema: { type: 'object' },
          strict: true,
          cache_control: { type: 'ephemeral' },
        },
        { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      thinking: { type: 'adaptive', display: 'omitted' },
      output_config: { effort: 'high', format: { type: 'json_schema', schema: { type: 'object' } } },
      metadata: { user_id: 'u1' },
      service_tier: 'auto',
      container: null,
    })
    expect(warnings).toEqual([])
    expect(value).toEqual({
      model: 'claude-x',
      maxTokens: 100,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
      temperature: 0.5,
      topP: 0.9,
      topK: 10,
      stopSequences: ['END'],
      stream: true,
      tools: [
        {
          type: 'function',
          name: 'f',
          description: 'd',
          parameters: { type: 'object' },
          strict: true,
          providerData: { messages: { cache_control: { type: 'ephemeral' } } },
        },
      ],
      toolChoice: { type: 'required' },
      parallelToolCalls: false,
      reasoning: {
        enabled: true,
        includeThoughts: false,
        effort: 'high',
        providerData: { messages: { thinking: { type: 'adaptive', display: 'omitted' }, effort: 'high' } },
      },
      responseFormat: { type: 'json-schema', schema: { type: 'object' } },
      user: 'u1',
      hostedTools: [
        {
          type: 'web-search',
          maxUses: 3,
          providerData: { messages: { '@type': 'web_search_20250305', '@name': 'web_search' } },
        },
      ],
      extensions: {
        messages: {
          service_tier: 'auto',
          container: null,
        },
      },
    })
  })

  it('maps enabled and disabled thinking and a named tool choice', () => {
    const enabled = decodeRequest({
      ...base,
      messages: [],
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tool_choice: { type: 'tool', name: 'f' },
    }).value
    expect(enabled.reasoning).toEqual({
      enabled: true,
      budgetTokens: 2048,
      includeThoughts: true,
      providerData: { messages: { thinking: { type: 'enabled', budget_tokens: 2048 } } },
    })
    expect(enabled.toolChoice).toEqual({ type: 'tool', name: 'f' })
    const disabled = decodeRequest({ ...base, messages: [], thinking: { type: 'disabled' } }).value
    expect(disabled.reasoning).toEqual({
      enabled: false,
      providerData: { messages: { thinking: { type: 'disabled' } } },
    })
  })
})

describe('role: "system" entries inside messages (Claude Code 2.1.330, issue 21)', () => {
  const entry = (extra: Record<string, unknown>) => ({
    ...base,
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'system', content: 'be brief', ...extra },
    ],
  })

  it('hold text only: any other block is a 400 naming its path', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }
    expect(failure({ ...base, messages: [{ role: 'system', content: [{ type: 'text', text: 'a' }, image] }] })).toEqual(
      {
        code: 'invalid-request',
        message: "messages[0].content[1].type: a system message holds only text blocks (expected 'text')",
      },
    )
    expect(failure(entry({ content: [{ type: 'tool_result', tool_use_id: 't' }] })).message).toMatch(
      /^messages\[1\]\.content\[0\]\.type: /,
    )
    expect(failure(entry({ content: [{ type: 'text', text: 5 }] })).message).toBe(
      'messages[1].content[0].text: expected string, received number',
    )
  })

  it('carry a per-turn output_config.effort, checked, kept in place and written back exactly', () => {
    expect(failure(entry({ output_config: 'x' })).message).toBe(
      'messages[1].output_config: expected object, received string',
    )
    expect(failure(entry({ output_config: { effort: 'huge' } })).message).toMatch(
      /^messages\[1\]\.output_config\.effort: expected one of /,
    )
    const body = {
      ...base,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
        { role: 'system', content: [], output_config: { effort: 'low' } },
        { role: 'user', content: 'again' },
        {
          role: 'system',
          content: [{ type: 'text', text: 'env', cache_control: { type: 'ephemeral' } }],
          output_config: { effort: 'high' },
        },
      ],
    }
    const decoded = decodeRequest(body)
    expect(decoded.warnings).toEqual([])
    expect(decoded.value.messages[2]).toEqual({
      role: 'system',
      content: [],
      providerData: { messages: { inPlace: true, output_config: { effort: 'low' }, contentArray: true } },
    })
    expect(encodeRequest(decoded.value)).toEqual({ value: body, warnings: [] })
  })
})
