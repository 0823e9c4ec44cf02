import { describe, expect, it } from 'vitest'
import { checkMessagesRequest } from '../../../test/helpers/acceptance.js'
import type * as ir from '../../ir/index.js'
import { toMessagesToolId } from '../../shared/tool-ids.js'
import { encodeRequest } from './encode-request.js'

const text = (value: string): ir.TextPart => ({ type: 'text', text: value })

describe('encodeRequest messages (what the service accepts)', () => {
  it('hoists system messages, merges parallel tool results into one user turn, results first', () => {
    const request: ir.Request = {
      model: 'm',
      messages: [
        { role: 'system', content: [text('rules')] },
        { role: 'user', content: [text('weather?')] },
        {
          role: 'assistant',
          content: [
            text(''),
            { type: 'tool-call', id: 'call.1', name: 'w', arguments: '{"city":"Paris"}' },
            { type: 'tool-call', id: 'call_2', name: 'w', arguments: '{"city":' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call.1', content: [text('15C')] }] },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'call_2', content: [text('20C')], isError: true }],
        },
        {
          role: 'user',
          content: [text('thanks'), { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'AA' } }],
        },
        { role: 'system', content: [text('be nice')] },
        { role: 'user', content: [text('and tomorrow?')] },
      ],
    }
    const { value, warnings } = encodeRequest(request)
    const id1 = toMessagesToolId('call.1')
    expect(value).toEqual({
      model: 'm',
      max_tokens: 4096,
      system: [
        { type: 'text', text: 'rules' },
        { type: 'text', text: 'be nice' },
      ],
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: id1, name: 'w', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'call_2', name: 'w', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: id1, content: '15C' },
            { type: 'tool_result', tool_use_id: 'call_2', content: '20C', is_error: true },
            { type: 'text', text: 'thanks' },
            { type: 'text', text: 'and tomorrow?' },
          ],
        },
      ],
    })
    expect(warnings).toEqual([
      { type: 'dropped', path: 'messages[2].content[0]', message: 'messages does not accept empty text blocks' },
      {
        type: 'changed',
        path: 'messages[2].content[2].arguments',
        message: 'tool-call arguments are not a JSON object; sent {}',
      },
      { type: 'dropped', path: 'messages[5].content[1]', message: 'messages has no audio input' },
      {
        type: 'changed',
        path: 'messages[6]',
        message: 'mid-conversation system message hoisted into the top-level system',
      },
    ])
    expect(id1).toMatch(/^[a-zA-Z0-9_-]+$/)
    expect(checkMessagesRequest(value)).toEqual([])
  })

  it('drops empty turns, foreign reasoning, unsupported media and keeps in-place system messages', () => {
    const { value, warnings } = encodeRequest({
      model: 'm',
      maxTokens: 50,
      messages: [
        { role: 'user', content: [text('a')] },
        { role: 'assistant', content: [{ type: 'reasoning', text: 'thought' }, text('b')] },
        { role: 'system', content: [text('in place')], providerData: { messages: { inPlace: true } } },
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', mediaType: 'image/tiff', data: 'AA' } }] },
        {
          role: 'user',
          content: [text('c'), { type: 'image', source: { type: 'url', url: 'https://x/i.png' }, detail: 'high' }],
        },
        { role: 'assistant', content: [{ type: 'refusal', text: 'no' }] },
      ],
    })
    expect(value).toEqual({
      model: 'm',
      max_tokens: 50,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'system', content: 'in place' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'c' },
            { type: 'image', source: { type: 'url', url: 'https://x/i.png' } },
          ],
        },
        { role: 'assistant', content: 'no' },
      ],
    })
    expect(warnings).toEqual([
      {
        type: 'dropped',
        path: 'messages[1].content[0]',
        message: 'reasoning without a messages signature cannot be replayed',
      },
      {
        type: 'dropped',
        path: 'messages[3].content[0]',
        message: 'image media type image/tiff is not accepted by messages',
      },
      { type: 'dropped', path: 'messages[3]', message: 'messages does not accept a turn with empty content' },
      { type: 'dropped', path: 'messages[4].content[1].detail', message: 'messages has no image detail setting' },
      { type: 'changed', path: 'messages[5].content[0]', message: 'refusal sent as a text block' },
    ])
  })

  it('encodes documents from other formats', () => {
    const { value, warnings } = encodeRequest({
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'document',
              source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBE' },
              filename: 'a.pdf',
            },
            { type: 'document', source: { type: 'base64', mediaType: 'text/markdown', data: btoa('# hi') } },
            { type: 'document', source: { type: 'base64', mediaType: 'application/zip', data: 'UEs=' } },
          ],
        },
      ],
    })
    expect((value as { messages: unknown[] }).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' }, title: 'a.pdf' },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: '# hi' } },
        ],
      },
    ])
    expect(warnings).toEqual([
      {
        type: 'changed',
        path: 'messages[0].content[1]',
        message: 'text/markdown document sent as a plain-text document',
      },
      {
        type: 'dropped',
        path: 'messages[0].content[2]',
        message: 'a application/zip document cannot be sent to messages',
      },
    ])
  })
})

describe('encodeRequest settings', () => {
  const messages: ir.Message[] = [{ role: 'user', content: [text('x')] }]

  it('clamps temperature, maps user, tools, tool choice and response format, warns on the rest', () => {
    const { value, warnings } = encodeRequest(
      {
        model: 'm',
        messages,
        temperature: 1.5,
        topP: 0.8,
        n: 2,
        seed: 7,
        presencePenalty: 0.1,
        user: 'u',
        metadata: { k: 'v' },
        tools: [
          { type: 'function', name: 'a' },
          {
            type: 'function',
            name: 'b',
            parameters: { type: 'object', properties: { x: { type: 'string' } } },
            strict: true,
          },
        ],
        allowedTools: ['b'],
        toolChoice: { type: 'required' },
        parallelToolCalls: false,
        responseFormat: { type: 'json' },
        extensions: { 'chat-completions': { logit_bias: { 1: 2 } } },
      },
      { defaultMaxTokens: 1000 },
    )
    expect(value).toEqual({
      model: 'm',
      max_tokens: 1000,
      messages: [{ role: 'user', content: 'x' }],
      temperature: 1,
      top_p: 0.8,
      metadata: { user_id: 'u' },
      tools: [{ name: 'b', input_schema: { type: 'object', properties: { x: { type: 'string' } } }, strict: true }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      output_config: { format: { type: 'json_schema', schema: { type: 'object' } } },
    })
    expect(warnings).toEqual([
      { type: 'changed', path: 'temperature', message: 'temperature 1.5 clamped to 1' },
      { type: 'dropped', path: 'n', message: 'messages returns one choice; n > 1 ignored' },
      { type: 'dropped', path: 'seed', message: 'messages has no seed' },
      { type: 'dropped', path: 'presence_penalty', message: 'messages has no presence_penalty' },
      { type: 'dropped', path: 'metadata', message: 'messages has no metadata' },
      { type: 'changed', path: 'allowedTools', message: 'messages has no allowed-tools list; tools filtered to it' },
      { type: 'changed', path: 'responseFormat', message: 'JSON mode sent as a permissive object schema' },
      { type: 'dropped', path: 'logit_bias', message: 'chat-completions field logit_bias has no messages equivalent' },
    ])
  })

  it('gives tools without parameters an empty object schema and defaults tool_choice for the parallel flag', () => {
    const { value } = encodeRequest({
      model: 'm',
      messages,
      tools: [{ type: 'function', name: 'a', description: 'd' }],
      parallelToolCalls: false,
      responseFormat: { type: 'json-schema', name: 'n', schema: { type: 'object', properties: {} } },
    })
    expect(value).toMatchObject({
      tools: [{ name: 'a', description: 'd', input_schema: { type: 'object', properties: {} } }],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: {} } } },
    })
  })

  it('maps reasoning: effort → budget, clamps the budget and raises max_tokens', () => {
    const effort = encodeRequest({ model: 'm', messages, maxTokens: 2000, reasoning: { effort: 'medium' } })
    expect(effort.value).toMatchObject({ max_tokens: 10192, thinking: { type: 'enabled', budget_tokens: 8192 } })
    expect(effort.warnings).toEqual([
      {
        type: 'changed',
        path: 'maxTokens',
        message: 'max_tokens raised from 2000 to 10192 to fit the thinking budget',
      },
    ])
    const small = encodeRequest({ model: 'm', messages, reasoning: { budgetTokens: 100, includeThoughts: false } })
    expect(small.value).toMatchObject({
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 1024, display: 'omitted' },
    })
    expect(small.warnings).toEqual([
      { type: 'changed', path: 'reasoning', message: 'thinking budget 100 raised to the minimum 1024' },
    ])
    expect(encodeRequest({ model: 'm', messages, reasoning: { enabled: false } }).value).toMatchObject({
      thinking: { type: 'disabled' },
    })
    expect(encodeRequest({ model: 'm', messages, reasoning: { effort: 'none' } }).value).toMatchObject({
      thinking: { type: 'disabled' },
    })
  })

  it('policy 3: disables thinking when a tool-use turn lacks its own signed thinking block', () => {
    const history: ir.Message[] = [
      { role: 'user', content: [text('go')] },
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: 'gemini thought',
            providerData: { 'content-generation': { thoughtSignature: 's' } },
          },
          { type: 'tool-call', id: 'c1', name: 'f', arguments: '{}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', content: [text('ok')] }] },
    ]
    const { value, warnings } = encodeRequest({ model: 'm', messages: history, reasoning: { budgetTokens: 2048 } })
    expect(value).toMatchObject({ thinking: { type: 'disabled' } })
    expect(warnings).toEqual([
      {
        type: 'dropped',
        path: 'messages[1].content[0]',
        message: 'reasoning without a messages signature cannot be replayed',
      },
      {
        type: 'changed',
        path: 'reasoning',
        message: 'thinking disabled: an assistant tool-use turn has no signed thinking block from messages',
      },
    ])
    const signed = structuredClone(history)
    const first = signed[1]?.content[0] as ir.ReasoningPart
    first.providerData = { messages: { signature: 'sig' } }
    const ok = encodeRequest({ model: 'm', messages: signed, reasoning: { budgetTokens: 2048 } })
    expect(ok.value).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 } })
    expect(ok.warnings).toEqual([])
  })

  it('with thinking on, drops sampling the service rejects and disables thinking for a forced tool', () => {
    const sampled = encodeRequest({
      model: 'm',
      messages,
      maxTokens: 8000,
      temperature: 0.2,
      topP: 0.5,
      topK: 5,
      reasoning: { budgetTokens: 2000 },
    })
    expect(sampled.value).toEqual({
      model: 'm',
      max_tokens: 8000,
      messages: [{ role: 'user', content: 'x' }],
      top_p: 0.95,
      thinking: { type: 'enabled', budget_tokens: 2000 },
    })
    expect(sampled.warnings).toEqual([
      { type: 'dropped', path: 'temperature', message: 'temperature must stay at 1 with thinking' },
      { type: 'dropped', path: 'top_k', message: 'top_k is not allowed with thinking' },
      { type: 'changed', path: 'top_p', message: 'top_p 0.5 raised to 0.95 for thinking' },
    ])
    const forced = encodeRequest({
      model: 'm',
      messages,
      tools: [{ type: 'function', name: 'f' }],
      toolChoice: { type: 'tool', name: 'f' },
      reasoning: { effort: 'low' },
    })
    expect(forced.value).toMatchObject({ tool_choice: { type: 'tool', name: 'f' }, thinking: { type: 'disabled' } })
    expect(forced.warnings).toEqual([
      {
        type: 'changed',
        path: 'reasoning',
        message: 'thinking disabled: a forced tool choice is not allowed with thinking',
      },
    ])
  })
})
