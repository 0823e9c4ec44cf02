/** Drives a gateway at `base` (serving the mock model) with all three official SDKs, streaming and not. */
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { expect } from 'vitest'

export async function driveWithSdks(base: string): Promise<void> {
  const openai = new OpenAI({ apiKey: 'test-key', baseURL: `${base}/v1`, maxRetries: 0 })
  const completion = await openai.chat.completions.create({
    model: 'mock-model',
    messages: [{ role: 'user', content: 'Say hello' }],
  })
  expect(completion.choices[0]?.message.content).toBeTruthy()
  expect(completion.choices[0]?.finish_reason).toBe('stop')

  const stream = await openai.chat.completions.create({
    model: 'mock-model',
    messages: [{ role: 'user', content: 'Say hello' }],
    stream: true,
  })
  const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = []
  for await (const chunk of stream) chunks.push(chunk)
  expect(chunks.length).toBeGreaterThan(2)
  expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(completion.choices[0]?.message.content)
  expect(chunks.findLast((c) => c.choices.length > 0)?.choices[0]?.finish_reason).toBe('stop')

  const anthropic = new Anthropic({ apiKey: 'test-key', baseURL: base, maxRetries: 0 })
  const message = await anthropic.messages
    .stream({ model: 'mock-model', max_tokens: 200, messages: [{ role: 'user', content: 'Say hello' }] })
    .finalMessage()
  expect(message.content[0]?.type).toBe('text')
  expect(message.stop_reason).toBe('end_turn')

  const gemini = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: base } })
  const answer = await gemini.models.generateContent({ model: 'mock-model', contents: 'Say hello' })
  expect(answer.text).toBeTruthy()
  let streamed = ''
  for await (const chunk of await gemini.models.generateContentStream({ model: 'mock-model', contents: 'Say hello' }))
    streamed += chunk.text ?? ''
  expect(streamed).toBe(answer.text)
}
