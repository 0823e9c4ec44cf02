import { describe, expect, it } from 'vitest'
import type * as ir from '../../ir/index.js'
import { encodeRequest } from './encode-request.js'

const base = (messages: ir.Message[], extra: Partial<ir.Request> = {}): ir.Request => ({
  model: 'm',
  messages,
  ...extra,
})
const text = (t: string): ir.TextPart => ({ type: 'text', text: t })

describe('encodeRequest: messages', () => {
  it('hoists every system message (mid-conversation ones with a warning) and merges same-role turns', () => {
    const { value, warnings } = encodeRequest(
      base([
        { role: 'system', content: [text('A')] },
        { role: 'user', content: [text('hi')] },
        { role: 'user', content: [text('again')] },
        { role: 'system', content: [text('B')] },
        { role: 'assistant', content: [text('hello')] },
      ]),
    )
    expect(value).toEqual({
      systemInstruction: { role: 'user', parts: [{ text: 'A' }, { text: 'B' }] },
      contents: [
        { role: 'user', parts: [{ text: 'hi' }, { text: 'again' }] },
        { role: 'model', parts: [{ text: 'hello' }] },
      ],
    })
    expect(warnings).toEqual([
      {
        type: 'changed',
        path: 'messages[3]',
        message: 'A mid-conversation system message was hoisted into systemInstruction',
      },
    ])
  })

  it('names every functionResponse, puts N parallel results in one user content merged with the next user turn', () => {
    const { value, warnings } = encodeRequest(
      base([
        { role: 'user', content: [text('go')] },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', id: 'call_1', name: 'lookup', arguments: '{"q":"a"}' },
            {
              type: 'tool-call',
              id: 'g1',
              name: 'fetch',
              arguments: 'not json',
              providerData: { 'content-generation': { id: 'g1', thoughtSignature: 'SIG' } },
            },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', content: [text('{"hits":3}')] }] },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'g1',
              content: [text('boom')],
              isError: true,
            },
          ],
        },
        { role: 'user', content: [text('and?')] },
      ]),
    )
    expect(value).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'lookup', args: { q: 'a' } } },
            { functionCall: { name: 'fetch', args: {}, id: 'g1' }, thoughtSignature: 'SIG' },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'lookup', response: { hits: 3 } } },
            { functionResponse: { name: 'fetch', response: { error: 'boom' }, id: 'g1' } },
            { text: 'and?' },
          ],
        },
      ],
    })
    expect(warnings).toEqual([
      {
        type: 'changed',
        path: 'messages[1].content[1].arguments',
        message: 'Arguments are not a JSON object; sent as {}',
      },
    ])
  })

  it('wraps plain text results as {output}, keeps images in functionResponse.parts, falls back to the id as name', () => {
    const { value, warnings } = encodeRequest(
      base([
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'orphan',
              content: [
                text('done'),
                { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'IMG' } },
              ],
            },
          ],
        },
      ]),
    )
    expect(value).toEqual({
      contents: [
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                name: 'orphan',
                response: { output: 'done' },
                parts: [{ inlineData: { mimeType: 'image/png', data: 'IMG' } }],
              },
            },
          ],
        },
      ],
    })
    expect(warnings.map((w) => w.path)).toEqual(['messages[0].content[0]'])
  })

  it('encodes media, signed reasoning only, and warns on URLs', () => {
    const { value, warnings } = encodeRequest(
      base([
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
            { type: 'image', source: { type: 'url', url: 'data:image/gif;base64,R0lG' } },
            { type: 'document', source: { type: 'file', fileId: 'files/abc', mediaType: 'application/pdf' } },
            { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklG' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'unsigned' },
            { type: 'reasoning', text: 'foreign', providerData: { messages: { signature: 'x' } } },
            { type: 'reasoning', text: 'mine', providerData: { 'content-generation': { thoughtSignature: 'S' } } },
            { type: 'redacted-reasoning', data: 'zzz' },
          ],
        },
      ]),
    )
    expect(value).toEqual({
      contents: [
        {
          role: 'user',
          parts: [
            { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/cat.png' } },
            { inlineData: { mimeType: 'image/gif', data: 'R0lG' } },
            { fileData: { mimeType: 'application/pdf', fileUri: 'files/abc' } },
            { inlineData: { mimeType: 'audio/wav', data: 'UklG' } },
          ],
        },
        { role: 'model', parts: [{ text: 'mine', thought: true, thoughtSignature: 'S' }] },
      ],
    })
    expect(warnings.map((w) => [w.type, w.path])).toEqual([
      ['changed', 'messages[0].content[0]'],
      ['dropped', 'messages[1].content[0]'],
      ['dropped', 'messages[1].content[1]'],
      ['dropped', 'messages[1].content[3]'],
    ])
  })
})

describe('encodeRequest: tools and config', () => {
  const tool: ir.FunctionTool = {
    type: 'function',
    name: 'find',
    description: 'Find',
    parameters: { type: 'object', properties: { q: { type: ['string', 'null'] } }, additionalProperties: false },
    strict: true,
  }

  it('uses parametersJsonSchema by default and parameters in openapi mode; no parameters key without a schema', () => {
    const request = base([], {
      tools: [tool, { type: 'function', name: 'ping' }],
      toolChoice: { type: 'tool', name: 'find' },
    })
    expect(encodeRequest(request)).toEqual({
      value: {
        contents: [],
        tools: [
          {
            functionDeclarations: [
              {
                name: 'find',
                description: 'Find',
                parametersJsonSchema: {
                  type: 'object',
                  properties: { q: { type: ['string', 'null'] } },
                  additionalProperties: false,
                },
              },
              { name: 'ping' },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['find'] } },
      },
      warnings: [{ type: 'dropped', path: 'tools[0].strict', message: 'content-generation has no strict mode' }],
    })
    const openapi = encodeRequest(request, { schemaDialect: 'openapi' })
    expect((openapi.value as { tools: unknown }).tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'find',
            description: 'Find',
            parameters: { type: 'OBJECT', properties: { q: { type: 'STRING', nullable: true } } },
          },
          { name: 'ping' },
        ],
      },
    ])
    expect(openapi.warnings.map((w) => w.path)).toEqual(['tools[0].parameters.additionalProperties', 'tools[0].strict'])
  })

  it.each([
    [{ toolChoice: { type: 'auto' } }, { mode: 'AUTO' }],
    [{ toolChoice: { type: 'none' } }, { mode: 'NONE' }],
    [
      { toolChoice: { type: 'required' }, allowedTools: ['a'] },
      { mode: 'ANY', allowedFunctionNames: ['a'] },
    ],
    [{ allowedTools: ['a', 'b'] }, { mode: 'ANY', allowedFunctionNames: ['a', 'b'] }],
  ] as Array<[Partial<ir.Request>, unknown]>)('tool choice %j', (extra, fcc) => {
    expect((encodeRequest(base([], extra)).value as { toolConfig: unknown }).toolConfig).toEqual({
      functionCallingConfig: fcc,
    })
  })

  it('maps sampling, clamps temperature and thinking budget, reports what it cannot carry', () => {
    const { value, warnings } = encodeRequest(
      base([], {
        maxTokens: 50,
        temperature: 2.5,
        topP: 0.5,
        topK: 3,
        n: 2,
        stopSequences: ['x'],
        seed: 1,
        presencePenalty: 0.1,
        frequencyPenalty: 0.2,
        logprobs: true,
        topLogprobs: 4,
        responseFormat: { type: 'json-schema', name: 'out', schema: { type: 'object', const: 1 } },
        reasoning: { budgetTokens: 50000, includeThoughts: true },
        parallelToolCalls: false,
        user: 'u1',
        metadata: { a: 'b' },
        extensions: {
          'chat-completions': { logit_bias: {} },
          'content-generation': {
            cachedContent: 'cachedContents/1',
            generationConfig: { responseModalities: ['TEXT'] },
          },
        },
      }),
    )
    expect(value).toEqual({
      contents: [],
      cachedContent: 'cachedContents/1',
      generationConfig: {
        maxOutputTokens: 50,
        temperature: 2,
        topP: 0.5,
        topK: 3,
        candidateCount: 2,
        stopSequences: ['x'],
        seed: 1,
        presencePenalty: 0.1,
        frequencyPenalty: 0.2,
        responseLogprobs: true,
        logprobs: 4,
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'object', enum: [1] },
        thinkingConfig: { thinkingBudget: 24576, includeThoughts: true },
        responseModalities: ['TEXT'],
      },
    })
    expect(warnings.map((w) => [w.type, w.path])).toEqual([
      ['dropped', 'parallelToolCalls'],
      ['changed', 'temperature'],
      ['changed', 'responseFormat.schema.const'],
      ['dropped', 'responseFormat.name'],
      ['changed', 'reasoning.budgetTokens'],
      ['dropped', 'user'],
      ['dropped', 'metadata'],
      ['dropped', 'logit_bias'],
    ])
  })

  it.each([
    [{ enabled: false, effort: 'high' }, { thinkingBudget: 0 }],
    [{ effort: 'low' }, { thinkingBudget: 1024 }],
    [{ budgetTokens: -1 }, { thinkingBudget: -1 }],
    [{ effort: 'high', providerData: { 'content-generation': { thinkingLevel: 'HIGH' } } }, { thinkingLevel: 'HIGH' }],
  ] as Array<[ir.ReasoningConfig, unknown]>)('reasoning %j', (reasoning, thinkingConfig) => {
    const body = encodeRequest(base([], { reasoning })).value as { generationConfig: unknown }
    expect(body.generationConfig).toEqual({ thinkingConfig })
  })

  it.each([
    ['gemini-3-flash-preview', { effort: 'medium' }, 'MEDIUM', undefined],
    ['gemini-3.6-flash', { effort: 'minimal' }, 'MINIMAL', undefined],
    [
      'models/gemini-3-flash-lite',
      { enabled: false, effort: 'high' },
      'MINIMAL',
      'effort none sent as thinkingLevel minimal',
    ],
    ['gemini-3-flash', { effort: 'max' }, 'HIGH', 'effort max sent as thinkingLevel high'],
    ['gemini-3-pro-preview', { effort: 'low' }, 'LOW', undefined],
    ['gemini-3-pro-preview', { effort: 'medium' }, 'HIGH', 'effort medium sent as thinkingLevel high'],
    ['gemini-3.5-pro', { effort: 'minimal' }, 'LOW', 'effort minimal sent as thinkingLevel low'],
  ] as Array<[string, ir.ReasoningConfig, string, string | undefined]>)(
    'Gemini 3 (%s) takes thinkingLevel for %j',
    (model, reasoning, thinkingLevel, warning) => {
      const { value, warnings } = encodeRequest({ model, messages: [], reasoning })
      expect((value as { generationConfig: unknown }).generationConfig).toEqual({ thinkingConfig: { thinkingLevel } })
      expect(warnings.map((w) => w.message.split(',')[0])).toEqual(warning ? [warning] : [])
    },
  )

  it('Gemini 3 keeps an explicit budget, and Gemini 2.5 a budget for an effort', () => {
    const budget = encodeRequest({ model: 'gemini-3-flash', messages: [], reasoning: { budgetTokens: 2048 } })
    expect(budget.value).toEqual({ contents: [], generationConfig: { thinkingConfig: { thinkingBudget: 2048 } } })
    const old = encodeRequest({ model: 'gemini-2.5-flash', messages: [], reasoning: { effort: 'medium' } })
    expect(old.value).toEqual({ contents: [], generationConfig: { thinkingConfig: { thinkingBudget: 8192 } } })
  })

  it('json without a schema is responseMimeType alone; openapi mode uses responseSchema', () => {
    expect(encodeRequest(base([], { responseFormat: { type: 'json' } })).value).toEqual({
      contents: [],
      generationConfig: { responseMimeType: 'application/json' },
    })
    const schema = { type: 'object', properties: { a: { type: 'string' } } }
    const body = encodeRequest(base([], { responseFormat: { type: 'json-schema', schema } }), {
      schemaDialect: 'openapi',
    })
    expect(body.value).toEqual({
      contents: [],
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { a: { type: 'STRING' } } },
      },
    })
  })
})

describe('encodeRequest: nothing dropped silently', () => {
  it('reports names, image detail and document filename', () => {
    const { value, warnings } = encodeRequest(
      base([
        {
          role: 'user',
          name: 'ada',
          content: [
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'A' }, detail: 'high' },
            {
              type: 'document',
              source: { type: 'base64', mediaType: 'application/pdf', data: 'B' },
              filename: 'a.pdf',
            },
          ],
        },
      ]),
    )
    expect(value).toEqual({
      contents: [
        {
          role: 'user',
          parts: [
            { inlineData: { mimeType: 'image/png', data: 'A' } },
            { inlineData: { mimeType: 'application/pdf', data: 'B' } },
          ],
        },
      ],
    })
    expect(warnings.map((w) => [w.type, w.path])).toEqual([
      ['dropped', 'messages[0].name'],
      ['dropped', 'messages[0].content[0].detail'],
      ['dropped', 'messages[0].content[1].filename'],
    ])
  })
})

describe('encodeRequest: content-generation extensions', () => {
  it('spreads built-in tools, toolConfig and generationConfig extras back for a lossless round trip', async () => {
    const { decodeRequest } = await import('./decode-request.js')
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'news?' }] }],
      tools: [{ functionDeclarations: [{ name: 'f' }] }, { googleSearch: {} }, { codeExecution: {} }],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' }, retrievalConfig: { languageCode: 'en' } },
      generationConfig: {
        responseMimeType: 'text/x.enum',
        responseSchema: { type: 'STRING', enum: ['a', 'b'] },
        thinkingConfig: { thinkingBudget: 512, thinkingLevel: 'LOW' },
      },
      labels: { team: 'x' },
    }
    const decoded = decodeRequest(body, { model: 'm' })
    expect(encodeRequest(decoded.value)).toEqual({ value: body, warnings: [] })
  })
})
