/**
 * Responses-specific decisions (issue 13): stateless refusals, hosted and custom tools, the reasoning envelope round
 * trips (Anthropic thinking signatures, Gemini per-call signatures, OpenAI's own encrypted reasoning), turn regrouping,
 * flat ⇄ nested tool shapes, statuses and usage.
 */
import { describe, expect, it } from 'vitest'
import { convertRequest, convertResponse } from '../../convert.js'
import { InterlinguaError } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import { wrapEnvelope } from '../../shared/reasoning-envelope.js'
import { responses } from './index.js'
import { readEnvelope } from './reasoning.js'

// biome-ignore lint/suspicious/noExplicitAny: wire bodies are navigated freely in assertions
type Json = Record<string, any>

function refusal(body: unknown, to: ir.FormatId): InterlinguaError {
  try {
    convertRequest(body, { from: 'responses', to })
  } catch (error) {
    if (InterlinguaError.isInstance(error)) return error
    throw error
  }
  throw new Error('expected a refusal')
}

describe('stateless by default', () => {
  it('previous_response_id → 400 previous_response_not_found for every other upstream', () => {
    const body = { model: 'm', previous_response_id: 'resp_abc', input: [{ role: 'user', content: 'and then?' }] }
    for (const to of ['chat-completions', 'messages', 'content-generation'] as const) {
      const error = refusal(body, to)
      expect(error.status).toBe(400)
      expect(error.param).toBe('previous_response_id')
      const encoded = responses.encodeError(error.toErrorInfo()) as { status: number; body: Json }
      expect(encoded.status).toBe(400)
      expect(encoded.body.error).toMatchObject({ code: 'previous_response_not_found', param: 'previous_response_id' })
      expect(encoded.body.error.message).toContain("'resp_abc' not found")
    }
  })

  it('item_reference → 400 naming input[i] and telling the user to send store: false', () => {
    const body = {
      model: 'm',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
        { type: 'item_reference', id: 'msg_123' },
        { role: 'user', content: [{ type: 'input_text', text: 'more' }] },
      ],
    }
    const error = refusal(body, 'messages')
    expect(error.param).toBe('input[1]')
    expect(error.message).toMatch(/^input\[1\]: item_reference "msg_123"/)
    expect(error.message).toContain('store: false')
    expect(error.message).toContain('providerOptions.openai.store')
  })

  it('store: false, include and stream_options change nothing and warn nothing; store: true is reported', () => {
    const warnings: ir.Warning[] = []
    const base = { model: 'm', input: 'hi', include: ['reasoning.encrypted_content'], stream_options: {} }
    convertRequest({ ...base, store: false }, { from: 'responses', to: 'messages', onWarning: (w) => warnings.push(w) })
    expect(warnings).toEqual([])
    convertRequest({ ...base, store: true }, { from: 'responses', to: 'messages', onWarning: (w) => warnings.push(w) })
    expect(warnings.map((w) => w.path)).toEqual(['store'])
  })

  it('a top-level key named like an Object.prototype member is kept as an extension, not taken for a state key', () => {
    const body = { model: 'm', input: 'hi', toString: 'x', constructor: 1, hasOwnProperty: true }
    const decoded = responses.decodeRequest(body, {})
    expect(decoded.value.extensions?.responses).toEqual({ toString: 'x', constructor: 1, hasOwnProperty: true })
    const warnings: ir.Warning[] = []
    convertRequest(body, { from: 'responses', to: 'messages', onWarning: (w) => warnings.push(w) })
    expect(warnings.map((w) => w.path)).toEqual(['toString', 'constructor', 'hasOwnProperty'])
  })
})

describe('tools', () => {
  it('hosted tools: left out with a warning, a 400 naming them only under strict (tools.test.ts has the rest)', () => {
    const body = {
      model: 'm',
      input: 'search',
      tools: [{ type: 'function', name: 'f', parameters: null, strict: null }, { type: 'file_search' }],
    }
    const warnings: ir.Warning[] = []
    convertRequest(body, { from: 'responses', to: 'chat-completions', onWarning: (w) => warnings.push(w) })
    expect(warnings.map((w) => w.path)).toEqual(['tools[1]'])
    expect(() => convertRequest(body, { from: 'responses', to: 'chat-completions', strict: true })).toThrow(
      /^tools\[1\]: hosted tool "file_search"/,
    )
  })

  it('function tools and tool_choice: flat → nested (chat) → flat again', () => {
    const body = {
      model: 'm',
      input: 'x',
      tools: [
        { type: 'function', name: 'get_weather', description: 'd', parameters: { type: 'object' }, strict: true },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
    }
    const chat = convertRequest(body, { from: 'responses', to: 'chat-completions' }) as Json
    expect(chat.tools).toEqual([
      {
        type: 'function',
        function: { name: 'get_weather', description: 'd', parameters: { type: 'object' }, strict: true },
      },
    ])
    expect(chat.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } })
    const back = convertRequest(chat, { from: 'chat-completions', to: 'responses' }) as Json
    expect(back.tools).toEqual(body.tools)
    expect(back.tool_choice).toEqual(body.tool_choice)
    expect(back.parallel_tool_calls).toBe(false)
    const anthropic = convertRequest(body, { from: 'responses', to: 'messages' }) as Json
    expect(anthropic.tool_choice).toEqual({ type: 'tool', name: 'get_weather', disable_parallel_tool_use: true })
  })

  it("Codex's custom apply_patch → a function with one string property; the grammar is reported", () => {
    const warnings: ir.Warning[] = []
    const body = {
      model: 'm',
      input: 'patch it',
      tools: [
        {
          type: 'custom',
          name: 'apply_patch',
          description: 'Apply a patch',
          format: { type: 'grammar', syntax: 'lark', definition: 'start: "*** Begin Patch"' },
        },
      ],
    }
    const anthropic = convertRequest(body, {
      from: 'responses',
      to: 'messages',
      onWarning: (w) => warnings.push(w),
    }) as Json
    expect(anthropic.tools[0]).toMatchObject({
      name: 'apply_patch',
      input_schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
    })
    expect(warnings.some((w) => w.path === 'tools[0].format' && w.message.includes('lark'))).toBe(true)
  })

  it('custom_tool_call items go out as a call with {"input": …} and come back as custom_tool_call', () => {
    const body = {
      model: 'm',
      input: [
        { role: 'user', content: 'patch' },
        { type: 'custom_tool_call', call_id: 'call_1', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' },
        { type: 'custom_tool_call_output', call_id: 'call_1', output: 'Done' },
      ],
      tools: [{ type: 'custom', name: 'apply_patch' }],
    }
    const chat = convertRequest(body, { from: 'responses', to: 'chat-completions' }) as Json
    expect(chat.messages[1].tool_calls[0].function).toEqual({
      name: 'apply_patch',
      arguments: JSON.stringify({ input: '*** Begin Patch\n*** End Patch' }),
    })
    const upstreamAnswer = {
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      model: 'gpt-5',
      output: [{ id: 'ctc_1', type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: 'PATCH' }],
    }
    const viaChat = convertResponse(upstreamAnswer, { from: 'responses', to: 'chat-completions' })
    const back = convertResponse(viaChat, { from: 'chat-completions', to: 'responses' }) as Json
    expect(back.output.at(-1)).toMatchObject({
      type: 'custom_tool_call',
      call_id: 'call_2',
      name: 'apply_patch',
      input: 'PATCH',
    })
  })

  it('regroups parallel calls into one assistant turn, and interleaved call/output pairs into valid turns', () => {
    const call = (id: string) => ({ type: 'function_call', call_id: id, name: 'f', arguments: '{}' })
    const output = (id: string) => ({ type: 'function_call_output', call_id: id, output: 'ok' })
    const parallel = {
      model: 'm',
      input: [{ role: 'user', content: 'go' }, call('a'), call('b'), output('a'), output('b')],
    }
    const gemini = convertRequest(parallel, { from: 'responses', to: 'content-generation', model: 'm' }) as Json
    expect(gemini.contents.map((c: Json) => [c.role, c.parts.length])).toEqual([
      ['user', 1],
      ['model', 2],
      ['user', 2],
    ])
    expect(gemini.contents[2].parts[1].functionResponse.name).toBe('f')
    const interleaved = {
      model: 'm',
      input: [{ role: 'user', content: 'go' }, call('a'), output('a'), call('b'), output('b')],
    }
    const anthropic = convertRequest(interleaved, { from: 'responses', to: 'messages' }) as Json
    expect(anthropic.messages.map((m: Json) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user'])
  })
})

describe('reasoning round trips through a Responses client', () => {
  it('Anthropic thinking + signature and redacted thinking come back byte-exact', () => {
    const anthropic = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude',
      content: [
        { type: 'thinking', thinking: 'Let me think.', signature: 'SIG/abc==' },
        { type: 'redacted_thinking', data: 'REDACTED==' },
        { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 5, output_tokens: 7 },
    }
    const answer = convertResponse(anthropic, { from: 'messages', to: 'responses' }) as Json
    const [thinking, redacted, call] = answer.output
    expect(thinking).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Let me think.' }] })
    expect(thinking.encrypted_content).toMatch(/^il1\./)
    expect(redacted).toMatchObject({ type: 'reasoning', summary: [] })
    expect(call).toMatchObject({
      type: 'function_call',
      call_id: 'toolu_1',
      status: 'completed',
      id: expect.stringMatching(/^fc_/),
    })
    // What Codex sends back: no ids, summary and encrypted_content only.
    const next = {
      model: 'claude',
      input: [
        { role: 'user', content: 'go' },
        { type: 'reasoning', summary: thinking.summary, encrypted_content: thinking.encrypted_content },
        { type: 'reasoning', summary: [], encrypted_content: redacted.encrypted_content },
        { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: 'function_call_output', call_id: call.call_id, output: 'done' },
      ],
    }
    const request = convertRequest(next, { from: 'responses', to: 'messages' }) as Json
    expect(request.messages[1].content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'SIG/abc==' },
      { type: 'redacted_thinking', data: 'REDACTED==' },
      { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } },
    ])
  })

  it("Gemini's per-function-call thoughtSignature rides a reasoning item just before the call and comes back on it", () => {
    const gemini = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'f', args: { a: 1 } }, thoughtSignature: 'GEMINI_SIG' }],
          },
          finishReason: 'STOP',
        },
      ],
      modelVersion: 'gemini-3-pro',
    }
    const answer = convertResponse(gemini, { from: 'content-generation', to: 'responses' }) as Json
    expect(answer.output.map((item: Json) => item.type)).toEqual(['reasoning', 'function_call'])
    expect(readEnvelope(answer.output[0])).toEqual({
      kind: 'attach',
      providerData: { 'content-generation': { thoughtSignature: 'GEMINI_SIG' } },
    })
    const [carrier, call] = answer.output
    const next = {
      model: 'gemini-3-pro',
      input: [
        { role: 'user', content: 'go' },
        { type: 'reasoning', summary: [], encrypted_content: carrier.encrypted_content },
        { type: 'function_call', call_id: call.call_id, name: 'f', arguments: call.arguments },
        { type: 'function_call_output', call_id: call.call_id, output: '{"ok":true}' },
      ],
    }
    const request = convertRequest(next, { from: 'responses', to: 'content-generation', model: 'gemini-3-pro' }) as Json
    expect(request.contents[1].parts).toEqual([
      { functionCall: expect.objectContaining({ name: 'f', args: { a: 1 } }), thoughtSignature: 'GEMINI_SIG' },
    ])
  })

  it("OpenAI's own encrypted reasoning is never sent to another provider, and survives a chat client round trip", () => {
    const body = {
      model: 'o4',
      input: [
        { role: 'user', content: 'q' },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: 's' }],
          encrypted_content: 'gAAAAAopaque',
        },
        { role: 'assistant', content: 'a' },
        { role: 'user', content: 'q2' },
      ],
    }
    const warnings: ir.Warning[] = []
    const anthropic = convertRequest(body, { from: 'responses', to: 'messages', onWarning: (w) => warnings.push(w) })
    expect(JSON.stringify(anthropic)).not.toContain('gAAAAAopaque')
    expect(warnings.length).toBeGreaterThan(0)
    const chat = convertRequest(body, { from: 'responses', to: 'chat-completions' })
    const back = convertRequest(chat, { from: 'chat-completions', to: 'responses' }) as Json
    expect(back.input[1]).toEqual({
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 's' }],
      encrypted_content: 'gAAAAAopaque',
    })
  })

  it("a Responses upstream never receives another provider's reasoning or signatures (dropped with a warning)", () => {
    const warnings: ir.Warning[] = []
    const anthropicHistory = {
      model: 'claude',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'ANTHROPIC_SIG' },
            { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] },
      ],
    }
    const body = convertRequest(anthropicHistory, {
      from: 'messages',
      to: 'responses',
      onWarning: (w) => warnings.push(w),
    })
    expect(JSON.stringify(body)).not.toContain('ANTHROPIC_SIG')
    expect((body as Json).input.map((item: Json) => item.type ?? item.role)).toEqual([
      'user',
      'function_call',
      'function_call_output',
    ])
    expect(warnings.some((w) => w.message.includes('another provider'))).toBe(true)
  })

  it('reasoning without any signature gets the envelope of nothing; its text comes back as plain reasoning', () => {
    const chat = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'deepseek-reasoner',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            reasoning_content: 'Think first.',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
    }
    const answer = convertResponse(chat, { from: 'chat-completions', to: 'responses' }) as Json
    const [reasoning, call] = answer.output
    expect(reasoning).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Think first.' }] })
    expect(reasoning.encrypted_content).toMatch(/^il1\./)
    expect(readEnvelope(reasoning)).toEqual({ kind: 'reasoning' })
    // Sent back the way the AI SDK (store: false) and Codex do: no id, summary and encrypted_content.
    const input = [
      { role: 'user', content: 'go' },
      { type: 'reasoning', summary: reasoning.summary, encrypted_content: reasoning.encrypted_content },
      { type: 'function_call', call_id: call.call_id, name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: call.call_id, output: 'ok' },
    ]
    const body = convertRequest({ model: 'm', input }, { from: 'responses', to: 'chat-completions' }) as Json
    const assistant = body.messages.find((m: Json) => m.role === 'assistant')
    expect(assistant.reasoning_content).toBe('Think first.')
    expect(JSON.stringify(body)).not.toContain('il1.')
  })

  it('a damaged envelope or a foreign blob is never mistaken for ours', () => {
    expect(readEnvelope({ summary: [], encrypted_content: 'il1.not-base64!!' })).toBeUndefined()
    expect(readEnvelope({ summary: [], encrypted_content: 'gAAAA' })).toBeUndefined()
    const sealed = wrapEnvelope({ providerData: { messages: { signature: 's' } } })
    expect(readEnvelope({ summary: [], encrypted_content: sealed })).toEqual({
      kind: 'reasoning',
      providerData: { messages: { signature: 's' } },
    })
    const redacted = wrapEnvelope({ providerData: {}, redactedData: 'R' })
    expect(readEnvelope({ summary: [], encrypted_content: redacted })).toEqual({ kind: 'redacted', data: 'R' })
  })
})

describe('responses', () => {
  it('length → incomplete with max_output_tokens; usage has every integer field', () => {
    const chat = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt',
      choices: [{ index: 0, message: { role: 'assistant', content: 'cut' }, finish_reason: 'length' }],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    }
    const body = convertResponse(chat, { from: 'chat-completions', to: 'responses' }) as Json
    expect(body).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      created_at: 1,
    })
    expect(body.usage).toEqual({
      input_tokens: 3,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 4,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 7,
    })
    expect(body.output[0]).toEqual({
      id: expect.stringMatching(/^msg_/),
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'cut' }],
    })
  })

  it('a response without output is a 400-class decode error naming output', () => {
    expect(() => responses.decodeResponse({ id: 'x', status: 'completed' })).toThrow(/^output:/)
  })
})
