import { describe, expect, it } from 'vitest'
import { InterlinguaError } from '../../errors.js'
import { decodeRequest } from './decode-request.js'

function invalid(body: unknown): InterlinguaError {
  try {
    decodeRequest(body)
  } catch (error) {
    if (InterlinguaError.isInstance(error)) return error
    throw error
  }
  throw new Error('expected an InterlinguaError')
}

describe('chat-completions decodeRequest: messages', () => {
  it('keeps system and developer messages in place, with name', () => {
    const { value, warnings } = decodeRequest({
      model: 'm',
      messages: [
        { role: 'system', content: 'A' },
        { role: 'developer', content: 'B' },
        { role: 'user', content: 'hi', name: 'ada' },
        { role: 'system', content: [{ type: 'text', text: 'C' }], name: 'mid' },
      ],
    })
    expect(warnings).toEqual([])
    expect(value.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'A' }] },
      {
        role: 'system',
        content: [{ type: 'text', text: 'B' }],
        providerData: { 'chat-completions': { role: 'developer' } },
      },
      { role: 'user', content: [{ type: 'text', text: 'hi' }], name: 'ada' },
      {
        role: 'system',
        content: [{ type: 'text', text: 'C' }],
        name: 'mid',
        providerData: { 'chat-completions': { contentArray: true } },
      },
    ])
  })

  it('decodes user media parts', () => {
    const { value } = decodeRequest({
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'https://x.test/a.png', detail: 'low' } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            { type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
            { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' } },
            { type: 'file', file: { file_id: 'file-1' } },
          ],
        },
      ],
    })
    expect(value.messages[0]?.content).toEqual([
      { type: 'image', source: { type: 'url', url: 'https://x.test/a.png' }, detail: 'low' },
      { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AAAA' } },
      { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklG' } },
      { type: 'audio', source: { type: 'base64', mediaType: 'audio/mpeg', data: 'SUQz' } },
      { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBE' }, filename: 'a.pdf' },
      { type: 'document', source: { type: 'file', fileId: 'file-1' } },
    ])
  })

  it('decodes assistant content, refusal, tool calls, carrier; tool messages recover the tool name', () => {
    const { value, warnings } = decodeRequest({
      model: 'm',
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me check.' },
            { type: 'refusal', refusal: 'no' },
          ],
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'get', arguments: '{"a":1}' } },
            { id: 'c2', type: 'custom', custom: { name: 'grammar', input: 'x' } },
          ],
          reasoning_content: 'thinking',
        },
        { role: 'tool', tool_call_id: 'c1', content: 'done' },
        {
          role: 'tool',
          tool_call_id: 'zz',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
      ],
    })
    expect(warnings).toEqual([
      { type: 'dropped', path: 'messages[0].tool_calls[1]', message: 'custom tool calls are not supported' },
    ])
    expect(value.messages).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking' },
          { type: 'text', text: 'Let me check.' },
          { type: 'refusal', text: 'no' },
          { type: 'tool-call', id: 'c1', name: 'get', arguments: '{"a":1}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'get', content: [{ type: 'text', text: 'done' }] },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'zz',
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
        ],
      },
    ])
  })

  it('decodes message refusal field and null content', () => {
    const { value } = decodeRequest({
      model: 'm',
      messages: [{ role: 'assistant', content: null, refusal: 'I cannot' }],
    })
    expect(value.messages[0]).toEqual({
      role: 'assistant',
      content: [{ type: 'refusal', text: 'I cannot' }],
      providerData: { 'chat-completions': { contentNull: true } },
    })
  })

  it('maps the legacy function role, functions and function_call', () => {
    const { value, warnings } = decodeRequest({
      model: 'm',
      functions: [{ name: 'f', parameters: { type: 'object' } }],
      function_call: { name: 'f' },
      messages: [
        { role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } },
        { role: 'function', name: 'f', content: 'ok' },
      ],
    })
    expect(value.tools).toEqual([{ type: 'function', name: 'f', parameters: { type: 'object' } }])
    expect(value.toolChoice).toEqual({ type: 'tool', name: 'f' })
    expect(value.messages).toEqual([
      {
        role: 'assistant',
        content: [{ type: 'tool-call', id: 'call_legacy_0_f', name: 'f', arguments: '{}' }],
        providerData: { 'chat-completions': { contentNull: true } },
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_legacy_0_f',
            toolName: 'f',
            content: [{ type: 'text', text: 'ok' }],
          },
        ],
      },
    ])
    expect(warnings.map((w) => w.path)).toEqual(['messages[0].function_call', 'messages[1]', 'functions'])
  })
})

describe('chat-completions decodeRequest: top level', () => {
  it('maps every known field and keeps the rest as extensions', () => {
    const { value } = decodeRequest({
      model: 'm',
      messages: [],
      tools: [
        { type: 'function', function: { name: 't', description: 'd', parameters: { type: 'object' }, strict: true } },
      ],
      tool_choice: 'required',
      parallel_tool_calls: false,
      max_completion_tokens: 10,
      temperature: 0.5,
      top_p: 0.9,
      stop: 'END',
      n: 2,
      seed: 7,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      logprobs: true,
      top_logprobs: 2,
      user: 'u',
      metadata: { k: 'v' },
      reasoning_effort: 'none',
      response_format: { type: 'json_schema', json_schema: { name: 'p', description: 'x', schema: {}, strict: true } },
      stream: true,
      stream_options: { include_usage: true },
      store: true,
      logit_bias: { '1': 2 },
    })
    expect(value).toEqual({
      model: 'm',
      messages: [],
      tools: [{ type: 'function', name: 't', description: 'd', parameters: { type: 'object' }, strict: true }],
      toolChoice: { type: 'required' },
      parallelToolCalls: false,
      maxTokens: 10,
      temperature: 0.5,
      topP: 0.9,
      stopSequences: ['END'],
      n: 2,
      seed: 7,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      logprobs: true,
      topLogprobs: 2,
      user: 'u',
      metadata: { k: 'v' },
      reasoning: { enabled: false, effort: 'none' },
      responseFormat: { type: 'json-schema', name: 'p', description: 'x', schema: {}, strict: true },
      stream: true,
      streamIncludeUsage: true,
      extensions: { 'chat-completions': { store: true, logit_bias: { '1': 2 } } },
    })
  })

  it('tool_choice variants, custom tools, json_object, max_tokens spelling', () => {
    const { value, warnings } = decodeRequest({
      model: 'm',
      messages: [],
      tools: [{ type: 'custom', custom: { name: 'g' } }],
      tool_choice: {
        type: 'allowed_tools',
        allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'a' } }] },
      },
      max_tokens: 5,
      reasoning_effort: 'low',
      response_format: { type: 'json_object' },
    })
    expect(warnings).toEqual([{ type: 'dropped', path: 'tools[0]', message: 'custom tools are not supported' }])
    expect(value).toEqual({
      model: 'm',
      messages: [],
      tools: [],
      toolChoice: { type: 'auto' },
      allowedTools: ['a'],
      maxTokens: 5,
      reasoning: { enabled: true, effort: 'low', includeThoughts: true },
      responseFormat: { type: 'json' },
      extensions: { 'chat-completions': { max_tokens: 5 } },
    })
    expect(
      decodeRequest({ model: 'm', messages: [], tool_choice: { type: 'function', function: { name: 'x' } } }).value
        .toolChoice,
    ).toEqual({ type: 'tool', name: 'x' })
  })
})

describe('chat-completions decodeRequest: invalid input', () => {
  it('rejects non-objects', () => {
    for (const body of [null, 5, 'x', []]) expect(invalid(body).code).toBe('invalid-request')
  })
  it('names the deep path of a wrong-typed field', () => {
    const error = invalid({
      model: 'm',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'c' },
            { type: 'image_url', image_url: { url: 5 } },
          ],
        },
      ],
    })
    expect(error.code).toBe('invalid-request')
    expect(error.message.startsWith('messages[2].content[1].image_url.url')).toBe(true)
  })
  it('names missing model and wrong top-level types', () => {
    expect(invalid({ messages: [] }).message.startsWith('model')).toBe(true)
    expect(invalid({ model: 'm', messages: [], temperature: 'hot' }).message.startsWith('temperature')).toBe(true)
    expect(
      invalid({ model: 'm', messages: [{ role: 'tool', content: 'x' }] }).message.startsWith(
        'messages[0].tool_call_id',
      ),
    ).toBe(true)
  })
})

describe('chat-completions decodeRequest: kept verbatim', () => {
  it('keeps stream_options with extra keys whole and warns for a shadowed max_tokens', () => {
    const { value, warnings } = decodeRequest({
      model: 'm',
      messages: [],
      max_completion_tokens: 9,
      max_tokens: 3,
      stream: true,
      stream_options: { include_usage: true, include_obfuscation: false },
    })
    expect(value).toEqual({
      model: 'm',
      messages: [],
      maxTokens: 9,
      stream: true,
      streamIncludeUsage: true,
      extensions: { 'chat-completions': { stream_options: { include_usage: true, include_obfuscation: false } } },
    })
    expect(warnings).toEqual([
      { type: 'dropped', path: 'max_tokens', message: 'max_tokens ignored: max_completion_tokens is set' },
    ])
  })
})
