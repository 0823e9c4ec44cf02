import { describe, expect, it } from 'vitest'
import { InterlinguaError } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import { wrapEnvelope } from '../../shared/reasoning-envelope.js'
import { generateToolCallId } from '../../shared/tool-ids.js'
import { decodeResponse } from './decode-response.js'
import { encodeResponse } from './encode-response.js'

describe('decodeResponse', () => {
  it('decodes parts, a tool turn finish reason, extra candidates and metadata', () => {
    const { value, warnings } = decodeResponse({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'plan', thought: true },
              { functionCall: { name: 'f', args: { a: 1 } }, thoughtSignature: 'S' },
              { inlineData: { mimeType: 'image/png', data: 'IMG' } },
              { executableCode: { language: 'PYTHON', code: '1' } },
            ],
          },
          finishReason: 'STOP',
          index: 0,
          safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }],
        },
        { content: { role: 'model', parts: [{ text: 'alt' }] }, finishReason: 'MAX_TOKENS', index: 1 },
      ],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 3, totalTokenCount: 18 },
      modelVersion: 'gemini-2.5-pro',
      responseId: 'r1',
    })
    expect(value).toEqual({
      id: 'r1',
      model: 'gemini-2.5-pro',
      content: [
        { type: 'reasoning', text: 'plan' },
        {
          type: 'tool-call',
          id: generateToolCallId('call_', 'r1:0:1:f'),
          name: 'f',
          arguments: '{"a":1}',
          providerData: { 'content-generation': { thoughtSignature: 'S' } },
        },
        { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'IMG' } },
      ],
      finishReason: { unified: 'tool-calls', raw: 'STOP', rawFormat: 'content-generation' },
      usage: { inputTokens: 10, outputTokens: 8, reasoningTokens: 3, totalTokens: 18 },
      extraChoices: [
        {
          index: 1,
          content: [{ type: 'text', text: 'alt' }],
          finishReason: { unified: 'length', raw: 'MAX_TOKENS', rawFormat: 'content-generation' },
        },
      ],
      extensions: {
        'content-generation': {
          candidates: [{ safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }] }, {}],
        },
      },
    })
    expect(warnings).toEqual([
      { type: 'dropped', path: 'candidates[0].content.parts[3]', message: 'Part kind not supported in a response' },
    ])
  })

  it('turns a blocked prompt into an empty content-filter response', () => {
    const { value } = decodeResponse({
      promptFeedback: { blockReason: 'SAFETY' },
      usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 },
      modelVersion: 'm',
      responseId: 'b',
    })
    expect(value).toEqual({
      id: 'b',
      model: 'm',
      content: [],
      finishReason: { unified: 'content-filter', raw: 'SAFETY', rawFormat: 'content-generation' },
      usage: { inputTokens: 4, outputTokens: 0, totalTokens: 4 },
      extensions: { 'content-generation': { promptFeedback: { blockReason: 'SAFETY' } } },
    })
  })

  it('generates a stable id when responseId is absent and validates with paths', () => {
    const body = { candidates: [{ content: { parts: [{ text: 'x' }] } }] }
    expect(decodeResponse(body).value.id).toBe(decodeResponse(body).value.id)
    expect(decodeResponse(body).value.id.startsWith('resp_')).toBe(true)
    try {
      decodeResponse({ candidates: [{ content: { parts: [{ text: 1 }] } }] })
      expect.unreachable()
    } catch (error) {
      expect(InterlinguaError.isInstance(error) && [error.code, error.param]).toEqual([
        'invalid-request',
        'candidates[0].content.parts[0].text',
      ])
    }
  })
})

describe('encodeResponse', () => {
  it('encodes a foreign response: ids only when Gemini-originated, invalid arguments become {}', () => {
    const response: ir.Response = {
      id: 'msg_1',
      model: 'claude',
      content: [
        { type: 'reasoning', text: 'hm', providerData: { messages: { signature: 'x' } } },
        { type: 'text', text: 'Hi' },
        { type: 'tool-call', id: 'toolu_1', name: 'f', arguments: '{"a"' },
        { type: 'tool-call', id: 'g', name: 'g', arguments: '{}', providerData: { 'content-generation': { id: 'g' } } },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_use', rawFormat: 'messages' },
      usage: { inputTokens: 10, outputTokens: 7, reasoningTokens: 2, cachedInputTokens: 4 },
      stopSequence: 'END',
      extensions: { messages: { container: null } },
    }
    expect(encodeResponse(response)).toEqual({
      value: {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                // Anthropic's signature rides back in an envelope (policy 3).
                {
                  text: 'hm',
                  thought: true,
                  thoughtSignature: wrapEnvelope({ providerData: { messages: { signature: 'x' } } }),
                },
                { text: 'Hi' },
                { functionCall: { name: 'f', args: {} } },
                { functionCall: { name: 'g', args: {}, id: 'g' } },
              ],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: {
          promptTokenCount: 10,
          candidatesTokenCount: 5,
          thoughtsTokenCount: 2,
          cachedContentTokenCount: 4,
          totalTokenCount: 17,
        },
        modelVersion: 'claude',
        responseId: 'msg_1',
      },
      warnings: [
        { type: 'changed', path: 'content[2].arguments', message: 'Arguments are not a JSON object; sent as {}' },
        {
          type: 'dropped',
          path: 'container',
          message: 'messages field container has no content-generation equivalent',
        },
        { type: 'dropped', path: 'stopSequence', message: 'content-generation does not report the stop sequence' },
      ],
    })
  })

  it('maps finish reasons of other formats', () => {
    const encode = (finishReason: ir.FinishReason) =>
      (
        encodeResponse({ id: 'i', model: 'm', content: [], finishReason }).value as {
          candidates: Array<{ finishReason: string }>
        }
      ).candidates[0]?.finishReason
    expect(encode({ unified: 'length', raw: 'max_tokens', rawFormat: 'messages' })).toBe('MAX_TOKENS')
    expect(encode({ unified: 'content-filter' })).toBe('SAFETY')
    expect(encode({ unified: 'stop' })).toBe('STOP')
  })
})
