/**
 * Conversation state shared through PostgreSQL: two service processes behind a round-robin proxy (no affinity), in
 * front of a Claude-format upstream (a messages-speaking mock gateway that records what it receives). Consecutive turns
 * land on different instances, and still:
 * - a Codex-style Responses conversation continues with `previous_response_id`, and `GET /v1/responses/{id}` finds the
 *   answer on the other instance (the service's ResponseStore on tables);
 * - a chat-completions tool loop with thinking on whose client replays only `{ role, content, tool_calls }` (as the
 *   Vercel AI SDK's `openai.chat` does) reaches the upstream on turn 2 with the exact signature it issued on turn 1
 *   (the reasoning entries on a table).
 */
import { createServer } from 'node:http'
import { createGateway } from 'interlingua/gateway'
import { toNodeListener } from 'interlingua/node'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browser, createKey, signUp, startMailCatcher } from './support/client.mjs'
import { testDatabase, testDatabases } from './support/databases.mjs'
import { startService } from './support/processes.mjs'
import { startProxy } from './support/proxy.mjs'

/** The mock model behind the messages wire format, keeping every request body it receives and its JSON answers. */
async function startRecordingUpstream() {
  const received = []
  const answers = []
  const mock = createGateway()
  const server = createServer(
    toNodeListener(async (request) => {
      if (request.method === 'POST') received.push(await request.clone().json())
      const response = await mock.fetch(request)
      if (response.headers.get('content-type')?.includes('json')) answers.push(await response.clone().json())
      return response
    }),
  )
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    received,
    answers,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve)
        server.closeAllConnections()
      }),
  }
}

describe.skipIf(!testDatabases().includes('postgres'))('conversations across two instances', () => {
  let mail, database, proxy, upstream, a, b, key
  const targets = []

  beforeAll(async () => {
    mail = await startMailCatcher()
    database = await testDatabase('postgres')
    upstream = await startRecordingUpstream()
    proxy = await startProxy(targets)
    const env = {
      ...database.env,
      SMTP_URL: mail.url,
      MAIL_FROM: 'test@127.0.0.1',
      PUBLIC_URL: proxy.base,
      ANTHROPIC_BASE_URL: upstream.url,
      ANTHROPIC_API_KEY: 'upstream-key',
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

  it('a Responses conversation continues with previous_response_id on the other instance', async () => {
    const hits = [...proxy.hits]
    const first = await openai().responses.create({ model: 'claude-sonnet-4-5', input: 'My name is Ada.' })
    const second = await openai().responses.create({
      model: 'claude-sonnet-4-5',
      previous_response_id: first.id,
      input: 'What is my name?',
    })
    expect(second.status).toBe('completed')
    // Turn 2 reached the upstream with turn 1's input and answer in front of it.
    const sent = JSON.stringify(upstream.received.at(-1).messages)
    expect(sent).toContain('My name is Ada.')
    expect(sent).toContain(JSON.stringify(first.output_text).slice(1, -1))
    expect(sent).toContain('What is my name?')
    // The two turns went to different instances; the answer is found from either.
    expect(proxy.hits.map((n, i) => n - (hits[i] ?? 0))).toEqual([1, 1])
    for (let i = 0; i < 2; i++) expect((await openai().responses.retrieve(first.id)).id).toBe(first.id)
  })

  it('a chat tool loop with thinking keeps its signature when the client drops reasoning_details', async () => {
    const tools = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'The weather in a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ]
    const messages = [{ role: 'user', content: 'Weather in Paris?' }]
    const ask = () =>
      openai().chat.completions.create({ model: 'claude-sonnet-4-5', messages, tools, reasoning_effort: 'low' })
    const hits = [...proxy.hits]
    const first = (await ask()).choices[0].message
    const signed = upstream.answers.at(-1).content.find((block) => block.type === 'thinking')
    expect(signed.signature).toBeTruthy()
    const call = first.tool_calls[0]
    expect(call.function.name).toBe('get_weather')
    const issued = upstream.received.length
    // What the AI SDK sends back: no reasoning_details.
    messages.push({ role: 'assistant', content: first.content, tool_calls: first.tool_calls })
    messages.push({ role: 'tool', tool_call_id: call.id, content: '{"temperature_c":18}' })
    await ask()
    const turn2 = upstream.received[issued]
    expect(turn2.thinking?.type).toBe('enabled')
    const assistant = turn2.messages.find((m) => m.role === 'assistant')
    expect(assistant.content[0].type).toBe('thinking')
    expect(assistant.content[0].signature).toBe(signed.signature) // byte-exact, from the other instance's table row
    expect(proxy.hits.map((n, i) => n - (hits[i] ?? 0))).toEqual([1, 1])
  })
})
