/**
 * Issue 10 fidelity fixes that cross formats: each test names the item it guards.
 */
import { describe, expect, it } from 'vitest'
import { convertRequest } from '../src/convert.js'

type Json = Record<string, any>

describe('thinking asked by a non-Gemini client reaches a Gemini upstream with includeThoughts (§2)', () => {
  it('messages thinking.enabled → thinkingConfig.includeThoughts: true', () => {
    const body = convertRequest(
      {
        model: 'm',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        messages: [{ role: 'user', content: 'hi' }],
      },
      { from: 'messages', to: 'content-generation' },
    ) as Json
    expect(body.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 2048, includeThoughts: true })
  })
  it('messages display: "omitted" keeps the thoughts hidden', () => {
    const body = convertRequest(
      {
        model: 'm',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 2048, display: 'omitted' },
        messages: [{ role: 'user', content: 'hi' }],
      },
      { from: 'messages', to: 'content-generation' },
    ) as Json
    expect(body.generationConfig.thinkingConfig.includeThoughts).toBe(false)
  })
  it('chat-completions reasoning_effort → includeThoughts: true; "none" → thinking off', () => {
    const on = convertRequest(
      { model: 'm', reasoning_effort: 'high', messages: [{ role: 'user', content: 'hi' }] },
      { from: 'chat-completions', to: 'content-generation' },
    ) as Json
    expect(on.generationConfig.thinkingConfig.includeThoughts).toBe(true)
    const off = convertRequest(
      { model: 'm', reasoning_effort: 'none', messages: [{ role: 'user', content: 'hi' }] },
      { from: 'chat-completions', to: 'content-generation' },
    ) as Json
    expect(off.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 0 })
  })
})
