import { describe, expect, it } from 'vitest'
import { InterlinguaError } from '../../errors.js'
import { generateToolCallId } from '../../shared/tool-ids.js'
import { decodeRequest } from './decode-request.js'

const user = (...parts: unknown[]) => ({ role: 'user', parts })
const model = (...parts: unknown[]) => ({ role: 'model', parts })

function errorOf(fn: () => unknown): InterlinguaError {
  try {
    fn()
  } catch (error) {
    if (InterlinguaError.isInstance(error)) return error
    throw error
  }
  throw new Error('did not throw')
}

describe('decodeRequest: model', () => {
  it('takes the model from the route, stripping models/ and tunedModels/', () => {
    const body = { contents: [user({ text: 'hi' })] }
    expect(decodeRequest(body, { model: 'models/gemini-2.5-flash' }).value.model).toBe('gemini-2.5-flash')
    expect(decodeRequest(body, { model: 'tunedModels/my-tune' }).value.model).toBe('my-tune')
    expect(decodeRequest({ ...body, model: 'gemini-2.0-pro' }).value.model).toBe('gemini-2.0-pro')
  })

  it('throws invalid-request naming model when there is none', () => {
    const error = errorOf(() => decodeRequest({ contents: [] }))
    expect([error.code, error.param]).toEqual(['invalid-request', 'model'])
  })
})

describe('decodeRequest: validation', () => {
  it('names the JSON path of a wrong-typed field', () => {
    const body = { contents: [user({ text: 'a' }), user({ inlineData: { mimeType: 'image/png', data: 5 } })] }
    const error = errorOf(() => decodeRequest(body, { model: 'm' }))
    expect(error.code).toBe('invalid-request')
    expect(error.message.startsWith('contents[1].parts[0].inlineData.data: expected string')).toBe(true)
  })

  it('rejects garbage bodies and wrong generationConfig types', () => {
    expect(errorOf(() => decodeRequest('nope', { model: 'm' })).code).toBe('invalid-request')
    expect(errorOf(() => decodeRequest({ contents: 3 }, { model: 'm' })).param).toBe('contents')
    const bad = { contents: [], generationConfig: { temperature: 'hot' } }
    expect(errorOf(() => decodeRequest(bad, { model: 'm' })).param).toBe('generationConfig.temperature')
  })
})

describe('decodeRequest: contents', () => {
  it('decodes every part kind with signatures on the part they rode on', () => {
    const { value, warnings } = decodeRequest(
      {
        systemInstruction: { role: 'user', parts: [{ text: 'Be brief.' }] },
        contents: [
          { parts: [{ text: 'look' }, { inlineData: { mimeType: 'image/png', data: 'AAA' } }] },
          user(
            { inlineData: { mimeType: 'audio/mpeg', data: 'BBB' } },
            { inlineData: { mimeType: 'application/pdf', data: 'CCC' } },
            {
              fileData: {
                mimeType: 'video/mp4',
                fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc',
              },
            },
            { executableCode: { language: 'PYTHON', code: 'print(1)' } },
          ),
          model({ text: 'hmm', thought: true, thoughtSignature: 'sig1' }, { text: 'Answer', thoughtSignature: 'sig2' }),
        ],
      },
      { model: 'm' },
    )
    expect(value.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AAA' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'audio', source: { type: 'base64', mediaType: 'audio/mpeg', data: 'BBB' } },
          { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: 'CCC' } },
          {
            type: 'document',
            source: {
              type: 'file',
              fileId: 'https://generativelanguage.googleapis.com/v1beta/files/abc',
              mediaType: 'video/mp4',
            },
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'hmm', providerData: { 'content-generation': { thoughtSignature: 'sig1' } } },
          { type: 'text', text: 'Answer', providerData: { 'content-generation': { thoughtSignature: 'sig2' } } },
        ],
      },
    ])
    expect(warnings).toEqual([
      {
        type: 'dropped',
        path: 'contents[1].parts[3]',
        message: 'Part kind not supported (executableCode, codeExecutionResult, …)',
      },
    ])
  })

  it('generates stable call ids and pairs responses by name and order', () => {
    const body = {
      contents: [
        user({ text: 'weather?' }),
        model(
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'S' },
          { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
          { functionCall: { name: 'now' } },
        ),
        user(
          { functionResponse: { name: 'now', response: { output: '12:00' } } },
          { functionResponse: { name: 'get_weather', response: { temp: 20 } } },
          { functionResponse: { name: 'get_weather', response: { error: 'down' } } },
          { text: 'thanks' },
        ),
      ],
    }
    const first = decodeRequest(body, { model: 'm' }).value
    const again = decodeRequest(body, { model: 'm' }).value
    expect(again).toEqual(first)
    const ids = ['1:0:get_weather', '1:1:get_weather', '1:2:now'].map((seed) => generateToolCallId('call_', seed))
    expect(first.messages[1]).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          id: ids[0],
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
          providerData: { 'content-generation': { thoughtSignature: 'S' } },
        },
        { type: 'tool-call', id: ids[1], name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'tool-call', id: ids[2], name: 'now', arguments: '{}' },
      ],
    })
    expect(first.messages[2]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: ids[2],
          toolName: 'now',
          content: [{ type: 'text', text: '12:00' }],
          providerData: { 'content-generation': { response: { output: '12:00' } } },
        },
        {
          type: 'tool-result',
          toolCallId: ids[0],
          toolName: 'get_weather',
          content: [{ type: 'text', text: '{"temp":20}' }],
          providerData: { 'content-generation': { response: { temp: 20 } } },
        },
        {
          type: 'tool-result',
          toolCallId: ids[1],
          toolName: 'get_weather',
          content: [{ type: 'text', text: 'down' }],
          isError: true,
          providerData: { 'content-generation': { response: { error: 'down' } } },
        },
      ],
    })
    expect(first.messages[3]).toEqual({ role: 'user', content: [{ type: 'text', text: 'thanks' }] })
  })

  it('pairs by id when the call has one and keeps images of a function response', () => {
    const { value } = decodeRequest(
      {
        contents: [
          model(
            { functionCall: { id: 'a1', name: 'shot', args: {} } },
            { functionCall: { id: 'a2', name: 'shot', args: {} } },
          ),
          user({
            functionResponse: {
              id: 'a2',
              name: 'shot',
              response: { output: 'ok' },
              parts: [{ inlineData: { mimeType: 'image/png', data: 'IMG' } }],
            },
          }),
        ],
      },
      { model: 'm' },
    )
    expect(value.messages[1]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'a2',
          toolName: 'shot',
          content: [
            { type: 'text', text: 'ok' },
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'IMG' } },
          ],
          providerData: { 'content-generation': { response: { output: 'ok' }, id: 'a2' } },
        },
      ],
    })
  })
})

describe('decodeRequest: tools and config', () => {
  it('maps declarations, built-in tools and functionCallingConfig', () => {
    const { value, warnings } = decodeRequest(
      {
        contents: [user({ text: 'x' })],
        tools: [
          {
            functionDeclarations: [
              { name: 'a', parametersJsonSchema: { type: 'object' }, behavior: 'NON_BLOCKING' },
              { name: 'b', description: 'B', parameters: { type: 'OBJECT', properties: { q: { type: 'STRING' } } } },
              { name: 'c' },
            ],
          },
          { googleSearch: {} },
        ],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['b'] } },
      },
      { model: 'm' },
    )
    expect(value.tools).toEqual([
      {
        type: 'function',
        name: 'a',
        parameters: { type: 'object' },
        providerData: { 'content-generation': { behavior: 'NON_BLOCKING' } },
      },
      {
        type: 'function',
        name: 'b',
        description: 'B',
        parameters: { type: 'object', properties: { q: { type: 'string' } } },
        providerData: {
          'content-generation': { parameters: { type: 'OBJECT', properties: { q: { type: 'STRING' } } } },
        },
      },
      { type: 'function', name: 'c' },
    ])
    expect(value.toolChoice).toEqual({ type: 'tool', name: 'b' })
    // googleSearch is the IR web search (issue 21); other built-in tools stay extensions.
    expect(value.hostedTools).toEqual([
      { type: 'web-search', providerData: { 'content-generation': { '@googleSearch': true } } },
    ])
    expect(value.extensions).toBeUndefined()
    expect(warnings).toEqual([])
  })

  it.each([
    [{ mode: 'AUTO' }, { toolChoice: { type: 'auto' } }],
    [{ mode: 'NONE' }, { toolChoice: { type: 'none' } }],
    [{ mode: 'ANY' }, { toolChoice: { type: 'required' } }],
    [
      { mode: 'ANY', allowedFunctionNames: ['a', 'b'] },
      { toolChoice: { type: 'required' }, allowedTools: ['a', 'b'] },
    ],
    [
      { mode: 'VALIDATED', allowedFunctionNames: ['a'] },
      { toolChoice: { type: 'auto' }, allowedTools: ['a'] },
    ],
  ])('functionCallingConfig %j', (fcc, expected) => {
    const { value } = decodeRequest({ contents: [], toolConfig: { functionCallingConfig: fcc } }, { model: 'm' })
    expect({ toolChoice: value.toolChoice, allowedTools: value.allowedTools }).toEqual({
      allowedTools: undefined,
      ...expected,
    })
  })

  it('keeps generationConfig keys named like Object.prototype members as extensions', () => {
    const { value } = decodeRequest(
      { contents: [], generationConfig: { temperature: 0.5, toString: 3, constructor: 4 } },
      { model: 'm' },
    )
    const { messages: _messages, ...rest } = value
    expect(rest).toEqual({
      model: 'm',
      temperature: 0.5,
      extensions: { 'content-generation': { generationConfig: { toString: 3, constructor: 4 } } },
    })
  })

  it('maps generationConfig and keeps the rest as extensions', () => {
    const { value } = decodeRequest(
      {
        contents: [],
        safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'OFF' }],
        cachedContent: 'cachedContents/abc',
        generationConfig: {
          temperature: 0.3,
          topP: 0.8,
          topK: 20,
          candidateCount: 2,
          maxOutputTokens: 100,
          stopSequences: ['END'],
          presencePenalty: 0.1,
          frequencyPenalty: 0.2,
          seed: 7,
          responseLogprobs: true,
          logprobs: 2,
          responseMimeType: 'application/json',
          responseSchema: { type: 'OBJECT', properties: { a: { type: 'STRING', nullable: true } } },
          thinkingConfig: { thinkingLevel: 'LOW', includeThoughts: false },
          mediaResolution: 'MEDIA_RESOLUTION_LOW',
        },
      },
      { model: 'm', stream: true },
    )
    const { messages: _messages, ...rest } = value
    expect(rest).toEqual({
      model: 'm',
      temperature: 0.3,
      topP: 0.8,
      topK: 20,
      n: 2,
      maxTokens: 100,
      stopSequences: ['END'],
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      seed: 7,
      logprobs: true,
      topLogprobs: 2,
      responseFormat: {
        type: 'json-schema',
        schema: { type: 'object', properties: { a: { type: ['string', 'null'] } } },
      },
      reasoning: {
        effort: 'low',
        includeThoughts: false,
        providerData: { 'content-generation': { thinkingLevel: 'LOW' } },
      },
      stream: true,
      extensions: {
        'content-generation': {
          generationConfig: { mediaResolution: 'MEDIA_RESOLUTION_LOW' },
          safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'OFF' }],
          cachedContent: 'cachedContents/abc',
        },
      },
    })
  })

  it.each([
    [0, { budgetTokens: 0, enabled: false }],
    [-1, { budgetTokens: -1, enabled: true }],
    [2048, { budgetTokens: 2048, enabled: true }],
  ])('thinkingBudget %d', (thinkingBudget, reasoning) => {
    const body = { contents: [], generationConfig: { thinkingConfig: { thinkingBudget } } }
    expect(decodeRequest(body, { model: 'm' }).value.reasoning).toEqual(reasoning)
  })
})

describe('decodeRequest: countTokens', () => {
  it('unwraps generateContentRequest on the count-tokens route', () => {
    const body = {
      generateContentRequest: { model: 'models/x', contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    }
    expect(decodeRequest(body, { kind: 'count-tokens', model: 'x' }).value).toEqual({
      model: 'x',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    })
  })
})
