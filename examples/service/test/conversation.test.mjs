/**
 * Conversation state shared through PostgreSQL: two service processes behind a round-robin proxy (no affinity), in
 * front of a strict Claude-format upstream (`createStrictUpstream` from `interlingua/testing`: it refuses, as Anthropic
 * does, a thinking tool turn whose assistant message does not start with a thinking block carrying a signature it
 * issued, unchanged). Consecutive turns land on different instances, and still:
 * - a Codex-style Responses conversation continues with `previous_response_id`, and `GET /v1/responses/{id}` finds the
 *   answer on either instance (the service's ResponseStore on tables);
 * - the Vercel AI SDK's chat model (`openai.chat(…)`, which replays only `{ role, content, tool_calls }`, never
 *   `reasoning_details`) runs a reasoning + tool loop, JSON and streamed: step 2 reaches the upstream from the other
 *   instance with the exact signature step 1 issued (the reasoning entries on a table).
 */
import { createOpenAI } from '@ai-sdk/openai'
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai'
import { createStrictUpstream } from 'interlingua/testing'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browser, createKey, signUp, startMailCatcher } from './support/client.mjs'
import { testDatabase, testDatabases } from './support/databases.mjs'
import { startService } from './support/processes.mjs'
import { startProxy } from './support/proxy.mjs'

describe.skipIf(!testDatabases().includes('postgres'))('conversations across two instances', () => {
  let mail, database, proxy, upstream, a, b, key
  const targets = []

  beforeAll(async () => {
    mail = await startMailCatcher()
    database = await testDatabase('postgres')
    upstream = await createStrictUpstream({ format: 'messages' })
    proxy = await startProxy(targets)
    const env = {
      ...database.env,
      SMTP_URL: mail.url,
      MAIL_FROM: 'test@127.0.0.1',
      PUBLIC_URL: proxy.base,
      ANTHROPIC_BASE_URL: upstream.baseURL,
      ANTHROPIC_API_KEY: upstream.apiKey,
    }
    ;[a, b] = await Promise.all([startService(env), startService(env)])
    targets.push(a.base, b.base)
    key = await createKey(await signUp(browser(proxy.base), mail, 'talk@example.com'))
  })
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await proxy?.close()
    await upstream?.close()
    await mail?.close()
    await database?.cleanup()
  })

  const openai = () => new OpenAI({ apiKey: key, baseURL: `${proxy.base}/v1`, maxRetries: 0 })
  /** What each instance answered since `before` (a copy of `proxy.hits`). */
  const since = (before) => proxy.hits.map((n, i) => n - (before[i] ?? 0))
  const bodies = (from) => upstream.requests.slice(from).map((request) => request.body)

  it('a Responses conversation continues with previous_response_id on the other instance', async () => {
    const hits = [...proxy.hits]
    const sent = upstream.requests.length
    const first = await openai().responses.create({ model: 'claude-sonnet-4-5', input: 'My name is Ada.' })
    const second = await openai().responses.create({
      model: 'claude-sonnet-4-5',
      previous_response_id: first.id,
      input: 'What is my name?',
    })
    expect(second.status).toBe('completed')
    expect(upstream.rejections).toEqual([])
    // Turn 2 reached the upstream with turn 1's input and answer in front of it.
    const [, turn2] = bodies(sent)
    const history = JSON.stringify(turn2.messages)
    expect(history).toContain('My name is Ada.')
    expect(first.output_text).toBeTruthy()
    expect(history).toContain(JSON.stringify(first.output_text).slice(1, -1))
    expect(history).toContain('What is my name?')
    // The two turns went to different instances; the answer is found from either.
    expect(since(hits)).toEqual([1, 1])
    for (let i = 0; i < 2; i++) expect((await openai().responses.retrieve(first.id)).id).toBe(first.id)
  })

  const tools = {
    get_weather: tool({
      description: 'The weather in a city',
      inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
      execute: async ({ city }) => ({ city, temperature_c: 18 }),
    }),
  }
  /** The AI SDK's chat model through the proxy, thinking on, the tool, up to three steps. */
  const loop = () => ({
    model: createOpenAI({ apiKey: key, baseURL: `${proxy.base}/v1` }).chat('claude-sonnet-4-5'),
    prompt: 'Weather in Paris?',
    tools,
    stopWhen: stepCountIs(3),
    providerOptions: { openai: { forceReasoning: true, reasoningEffort: 'low' } },
    maxRetries: 0,
  })
  /** Step 2 reached the upstream with step 1's signature, byte-exact, from the other instance. */
  function expectSignatureKept(sent, hits) {
    expect(upstream.rejections).toEqual([])
    const [step1, step2] = bodies(sent)
    expect(step1.thinking?.type).toBe('enabled')
    expect(step2.thinking?.type).toBe('enabled')
    const assistant = step2.messages.find((message) => message.role === 'assistant')
    expect(assistant.content[0].type).toBe('thinking')
    expect(assistant.content[0].signature).toBeTruthy()
    expect(JSON.stringify(step1)).not.toContain(assistant.content[0].signature) // issued by step 1's answer
    expect(assistant.content.find((block) => block.type === 'tool_use')?.name).toBe('get_weather')
    expect(since(hits)).toEqual([1, 1])
  }

  it('an AI SDK chat reasoning + tool loop keeps its signature across instances (generateText)', async () => {
    const hits = [...proxy.hits]
    const sent = upstream.requests.length
    const result = await generateText(loop())
    expect(result.steps).toHaveLength(2)
    expect(result.steps[0].toolCalls[0]?.toolName).toBe('get_weather')
    expect(result.steps[0].toolResults[0]?.output).toEqual({ city: 'Paris', temperature_c: 18 })
    expect(result.text).toBeTruthy()
    expectSignatureKept(sent, hits)
  })

  it('the same loop streamed (streamText)', async () => {
    const hits = [...proxy.hits]
    const sent = upstream.requests.length
    const result = streamText(loop())
    let text = ''
    for await (const delta of result.textStream) text += delta
    expect(text).toBeTruthy()
    const steps = await result.steps
    expect(steps).toHaveLength(2)
    expect(steps[0].toolCalls[0]?.toolName).toBe('get_weather')
    expectSignatureKept(sent, hits)
  })
})
