/** `interlingua/testing`'s createStrictUpstream, driven by each format's official SDK. */
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { createStrictUpstream } from '../../src/node/testing/index.js'

describe('createStrictUpstream', () => {
  it('chat-completions: answers the script in order (the last repeats), parallel calls with JSON-string arguments', async () => {
    const upstream = await createStrictUpstream({
      format: 'chat-completions',
      script: [
        {
          toolCalls: [
            { name: 'a', arguments: { x: 1 } },
            { name: 'b', arguments: '{"y":2}' },
          ],
        },
        { text: 'done', usage: { inputTokens: 7, outputTokens: 3 } },
      ],
    })
    const openai = new OpenAI({ baseURL: upstream.baseURL, apiKey: upstream.apiKey })
    const ask = () => openai.chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] })
    const first = await ask()
    expect(first.choices[0]?.finish_reason).toBe('tool_calls')
    expect(first.choices[0]?.message.tool_calls?.map((c) => c.type === 'function' && c.function.arguments)).toEqual([
      '{"x":1}',
      '{"y":2}',
    ])
    for (const _ of [1, 2]) {
      const later = await ask()
      expect(later.choices[0]?.message.content).toBe('done')
      expect(later.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3 })
    }
    expect(upstream.requests).toHaveLength(3)
    expect(upstream.requests[0]?.headers.authorization).toBe(`Bearer ${upstream.apiKey}`)
    await upstream.close()
  })

  it('refuses what the service refuses, natively: a bad field, a missing key, a tool result without its call', async () => {
    const upstream = await createStrictUpstream({ format: 'chat-completions' })
    const openai = new OpenAI({ baseURL: upstream.baseURL, apiKey: upstream.apiKey, maxRetries: 0 })
    const bad = await openai.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 5 as unknown as string }] })
      .catch((e) => e)
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError)
    expect(bad.message).toMatch(/messages\[0\]\.content/)
    const orphan = await openai.chat.completions
      .create({ model: 'm', messages: [{ role: 'tool', tool_call_id: 'call_1', content: 'x' }] })
      .catch((e) => e)
    expect(orphan.message).toMatch(/role 'tool' must be a response/)
    const anonymous = new OpenAI({ baseURL: upstream.baseURL, apiKey: 'wrong', maxRetries: 0 })
    const denied = await anonymous.chat.completions.create({ model: 'm', messages: [] }).catch((e) => e)
    expect(denied).toBeInstanceOf(OpenAI.AuthenticationError)
    expect(upstream.rejections).toHaveLength(2)
    await upstream.close()
  })

  it('messages: its own signature must come back unchanged; an altered one is a 400', async () => {
    const upstream = await createStrictUpstream({
      format: 'messages',
      script: [{ reasoning: 'think', toolCalls: [{ name: 'f', arguments: {} }] }, { text: 'ok' }],
    })
    const anthropic = new Anthropic({ baseURL: upstream.baseURL, apiKey: upstream.apiKey, maxRetries: 0 })
    const tools = [{ name: 'f', input_schema: { type: 'object' as const } }]
    const user = { role: 'user' as const, content: 'go' }
    const first = await anthropic.messages.create({ model: 'claude-x', max_tokens: 100, messages: [user], tools })
    expect(first.content.map((b) => b.type)).toEqual(['thinking', 'tool_use'])
    const use = first.content[1] as Anthropic.ToolUseBlock
    const result = {
      role: 'user' as const,
      content: [{ type: 'tool_result' as const, tool_use_id: use.id, content: 'r' }],
    }
    const history = (content: Anthropic.ContentBlockParam[]) => [user, { role: 'assistant' as const, content }, result]
    const ok = await anthropic.messages.create({
      model: 'claude-x',
      max_tokens: 100,
      tools,
      messages: history(first.content),
    })
    expect(ok.content[0]).toMatchObject({ type: 'text', text: 'ok' })
    const thinking = first.content[0] as Anthropic.ThinkingBlock
    const altered = [{ ...thinking, signature: `${thinking.signature}x` }, use]
    const refused = await anthropic.messages
      .create({ model: 'claude-x', max_tokens: 100, tools, messages: history(altered) })
      .catch((e) => e)
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError)
    expect(refused.message).toMatch(/Invalid `signature`/)
    await upstream.close()
  })

  it('errors and faults: 429 with retry-after, 529, a broken stream, a dropped connection', async () => {
    const upstream = await createStrictUpstream({
      format: 'messages',
      script: [
        { error: { status: 429, retryAfter: 7 } },
        { error: { status: 529, message: 'Overloaded' } },
        { text: 'a long enough answer to be cut in two', fault: 'break' },
        { fault: 'drop' },
      ],
    })
    const anthropic = new Anthropic({ baseURL: upstream.baseURL, apiKey: upstream.apiKey, maxRetries: 0 })
    const body = { model: 'claude-x', max_tokens: 100, messages: [{ role: 'user' as const, content: 'hi' }] }
    const limited = await anthropic.messages.create(body).catch((e) => e)
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError)
    expect(limited.headers.get('retry-after')).toBe('7')
    const overloaded = await anthropic.messages.create(body).catch((e) => e)
    expect([overloaded.status, overloaded.error?.error?.type]).toEqual([529, 'overloaded_error'])
    const stream = anthropic.messages.stream(body)
    await expect(stream.finalMessage()).rejects.toThrow()
    await expect(anthropic.messages.create(body)).rejects.toBeInstanceOf(Anthropic.APIConnectionError)
    await upstream.close()
  })

  it('content-generation: the Gemini SDK takes the origin; a wrong key is 400 API_KEY_INVALID; empty contents 400', async () => {
    const upstream = await createStrictUpstream({ format: 'content-generation', script: [{ text: 'hello' }] })
    const genai = (apiKey: string) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: upstream.baseURL } })
    const answer = await genai(upstream.apiKey).models.generateContent({ model: 'gemini-x', contents: 'hi' })
    expect(answer.text).toBe('hello')
    const wrong = await genai('nope')
      .models.generateContent({ model: 'gemini-x', contents: 'hi' })
      .catch((e) => e)
    expect([wrong.status, wrong.message]).toEqual([400, expect.stringMatching(/API_KEY_INVALID/)])
    // The SDK refuses empty contents itself: sent as is.
    const empty = await fetch(`${upstream.baseURL}/v1beta/models/gemini-x:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': upstream.apiKey, 'content-type': 'application/json' },
      body: '{"contents":[]}',
    })
    expect([empty.status, (await empty.json()).error.status]).toEqual([400, 'INVALID_ARGUMENT'])
    await upstream.close()
  })

  it('answers with ids shaped as each service shapes them (chatcmpl-, resp_, msg_01, Gemini responseId, call_/toolu_)', async () => {
    const script = [{ toolCalls: [{ name: 'f', arguments: {} }] }]
    const ups = await Promise.all(
      (['chat-completions', 'responses', 'messages', 'content-generation'] as const).map((format) =>
        createStrictUpstream({ format, script }),
      ),
    )
    const [chat, responses, messages, gemini] = ups as [
      (typeof ups)[0],
      (typeof ups)[0],
      (typeof ups)[0],
      (typeof ups)[0],
    ]
    const openai = (u: typeof chat) => new OpenAI({ baseURL: u.baseURL, apiKey: u.apiKey })
    const completion = await openai(chat).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(completion.id).toMatch(/^chatcmpl-[A-Za-z0-9]{29}$/)
    expect(completion.choices[0]?.message.tool_calls?.[0]?.id).toMatch(/^call_[A-Za-z0-9]{24}$/)
    const response = await openai(responses).responses.create({ model: 'm', input: 'hi' })
    expect(response.id).toMatch(/^resp_[0-9a-f]{48}$/)
    const message = await new Anthropic({ baseURL: messages.baseURL, apiKey: messages.apiKey }).messages.create({
      model: 'claude-x',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(message.id).toMatch(/^msg_01[A-Za-z0-9]{22}$/)
    expect(message.content[0]).toMatchObject({
      type: 'tool_use',
      id: expect.stringMatching(/^toolu_01[A-Za-z0-9]{22}$/),
    })
    const genai = new GoogleGenAI({ apiKey: gemini.apiKey, httpOptions: { baseUrl: gemini.baseURL } })
    const generated = await genai.models.generateContent({ model: 'gemini-x', contents: 'hi' })
    expect(generated.responseId).toMatch(/^[\w-]{20,}$/)
    await Promise.all(ups.map((u) => u.close()))
  })
})
