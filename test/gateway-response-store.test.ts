/**
 * The optional `responseStore` (issue 13 §5): `previous_response_id`, `item_reference` and `GET /v1/responses/{id}`
 * work in front of upstreams of other formats, per client key; `store: false` answers are not kept; the in-memory
 * store is bounded by count and age. With the real Vercel AI SDK, whose default sends item references.
 */
import { createOpenAI } from '@ai-sdk/openai'
import { generateText, type ModelMessage } from 'ai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryResponseStore } from '../src/gateway/response-store.js'
import { type Json, post, stack } from './gateway-helpers.js'
import { type Running, serve, startStack } from './sdk/servers.js'

const path = '/v1/responses'

describe('previous_response_id and item_reference through the store', () => {
  it('prepends the stored input and output; another client key cannot see it', async () => {
    const { gateway, calls } = stack({
      responseStore: createMemoryResponseStore(),
      apiKeys: ['client-key', 'other-key'],
    })
    const first = (await (
      await gateway.fetch(post('responses', path, { model: 'via-messages', input: 'My name is Ada.' }))
    ).json()) as Json
    expect(first.id).toMatch(/^resp_/)
    const second = await gateway.fetch(
      post('responses', path, { model: 'via-messages', previous_response_id: first.id, input: 'What is my name?' }),
    )
    expect(second.status).toBe(200)
    const sent = JSON.parse(calls[1]?.body ?? '{}') as Json
    expect(sent.messages.map((m: Json) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(JSON.stringify(sent.messages[0])).toContain('My name is Ada.')
    expect(sent.messages[1].content).toBe(first.output[0].content[0].text)
    const stranger = await gateway.fetch(
      post('responses', path, { model: 'via-messages', previous_response_id: first.id, input: 'x' }, 'other-key'),
    )
    expect(stranger.status).toBe(400)
    expect(((await stranger.json()) as Json).error.code).toBe('previous_response_not_found')
  })

  it('scoped by Caller.id: every key of one account sees its responses, callers sharing a key do not', async () => {
    // Two keys of one account; one team key whose callers `authenticate` tells apart by a header.
    const { gateway, calls } = stack({
      responseStore: createMemoryResponseStore(),
      apiKeys: [],
      authenticate: (key, context) => {
        if (key === 'ada-key-1' || key === 'ada-key-2') return { id: 'acct-ada' }
        if (key === 'team-key') return { id: `team/${context.request.headers.get('x-user')}` }
        return key === 'plain-key'
      },
    })
    const ask = (key: string, body: Json, user?: string) => {
      const request = post('responses', path, { model: 'via-messages', ...body }, key)
      if (user) request.headers.set('x-user', user)
      return gateway.fetch(request)
    }
    const get = (key: string, id: string, user?: string) =>
      gateway.fetch(
        new Request(`http://gateway.test${path}/${id}`, {
          headers: { authorization: `Bearer ${key}`, ...(user ? { 'x-user': user } : {}) },
        }),
      )
    const first = (await (await ask('ada-key-1', { input: 'My name is Ada.' })).json()) as Json
    // The account's other key: GET and previous_response_id both see it.
    expect((await get('ada-key-2', first.id)).status).toBe(200)
    const second = await ask('ada-key-2', { previous_response_id: first.id, input: 'What is my name?' })
    expect(second.status).toBe(200)
    expect(JSON.stringify(JSON.parse(calls.at(-1)?.body ?? '{}'))).toContain('My name is Ada.')
    // Another account, and a key without a caller, do not.
    expect((await get('plain-key', first.id)).status).toBe(404)
    // One key, two callers: each sees only its own.
    const mine = (await (await ask('team-key', { input: 'Secret of Bo' }, 'bo')).json()) as Json
    expect((await get('team-key', mine.id, 'bo')).status).toBe(200)
    expect((await get('team-key', mine.id, 'cy')).status).toBe(404)
    const leak = await ask('team-key', { previous_response_id: mine.id, input: 'x' }, 'cy')
    expect(leak.status).toBe(400)
    expect(((await leak.json()) as Json).error.code).toBe('previous_response_not_found')
  })

  it('resolves item_reference by item id, and names the path of an unknown one', async () => {
    const { gateway, calls } = stack({ responseStore: createMemoryResponseStore() })
    const first = (await (
      await gateway.fetch(post('responses', path, { model: 'via-chat-completions', input: 'Hello' }))
    ).json()) as Json
    const reference = { type: 'item_reference', id: first.output[0].id }
    const input = [{ role: 'user', content: 'Hello' }, reference, { role: 'user', content: 'Again' }]
    expect((await gateway.fetch(post('responses', path, { model: 'via-chat-completions', input }))).status).toBe(200)
    const sent = JSON.parse(calls[1]?.body ?? '{}') as Json
    expect(sent.messages[1]).toMatchObject({ role: 'assistant', content: first.output[0].content[0].text })
    const unknown = await gateway.fetch(
      post('responses', path, { model: 'via-chat-completions', input: [{ type: 'item_reference', id: 'msg_nope' }] }),
    )
    expect(unknown.status).toBe(400)
    expect(((await unknown.json()) as Json).error).toMatchObject({ param: 'input[0]' })
  })

  it('GET /v1/responses/{id} returns a stored answer (streamed ones too); store: false is not kept', async () => {
    const { gateway } = stack({ responseStore: createMemoryResponseStore() })
    const streamed = await (
      await gateway.fetch(post('responses', path, { model: 'via-content-generation', input: 'Hi', stream: true }))
    ).text()
    const id = /"id":"(resp_[^"]+)"/.exec(streamed)?.[1] as string
    const fetched = await gateway.fetch(
      new Request(`http://gateway.test${path}/${id}`, { headers: { authorization: 'Bearer client-key' } }),
    )
    expect(fetched.status).toBe(200)
    expect(((await fetched.json()) as Json).output[0].content[0].text).toContain('Hi')
    const unstored = (await (
      await gateway.fetch(post('responses', path, { model: 'via-messages', input: 'Not kept', store: false }))
    ).json()) as Json
    const missing = await gateway.fetch(
      new Request(`http://gateway.test${path}/${unstored.id}`, { headers: { authorization: 'Bearer client-key' } }),
    )
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as Json).error.code).toBeNull()
  })
})

describe('the default store (issue 21 §3)', () => {
  it('is on without options: previous_response_id, item_reference and GET work; false turns it off', async () => {
    const { gateway } = stack()
    const first = (await (
      await gateway.fetch(post('responses', path, { model: 'via-messages', input: 'My name is Ada.' }))
    ).json()) as Json
    const get = (g: typeof gateway) =>
      g.fetch(
        new Request(`http://gateway.test${path}/${first.id}`, { headers: { authorization: 'Bearer client-key' } }),
      )
    expect((await get(gateway)).status).toBe(200)
    const reference = { type: 'item_reference', id: first.output[0].id }
    const second = await gateway.fetch(
      post('responses', path, { model: 'via-messages', previous_response_id: first.id, input: [reference] }),
    )
    expect(second.status).toBe(200)
    const off = stack({ responseStore: false }).gateway
    const refused = await off.fetch(
      post('responses', path, { model: 'via-messages', previous_response_id: first.id, input: 'x' }),
    )
    expect(refused.status).toBe(400)
    expect((await get(off)).status).toBe(404)
  })

  it('a Responses upstream keeps its own state: references reach it untouched, nothing is stored here', async () => {
    const { gateway, calls } = stack()
    const first = (await (
      await gateway.fetch(post('responses', path, { model: 'via-responses', input: 'My name is Ada.' }))
    ).json()) as Json
    const body = { model: 'via-responses', previous_response_id: first.id, input: 'What is my name?' }
    // The stand-in upstream (a mock-model gateway, store on by default) resolves the id itself.
    expect((await gateway.fetch(post('responses', path, body))).status).toBe(200)
    expect(JSON.parse(calls[1]?.body ?? '{}')).toMatchObject({ previous_response_id: first.id })
    const here = await gateway.fetch(
      new Request(`http://gateway.test${path}/${first.id}`, { headers: { authorization: 'Bearer client-key' } }),
    )
    expect(here.status).toBe(404)
  })

  it('takes the in-memory bounds as options, or any ResponseStore', async () => {
    const puts: string[] = []
    const inner = createMemoryResponseStore()
    const custom = {
      ...inner,
      put: (scope: string, stored: Parameters<typeof inner.put>[1]) => {
        puts.push(stored.id)
        return inner.put(scope, stored)
      },
    }
    const { gateway } = stack({ responseStore: custom })
    const first = (await (
      await gateway.fetch(post('responses', path, { model: 'via-messages', input: 'Hi' }))
    ).json()) as Json
    expect(puts).toEqual([first.id])
    // maxResponses: 1 keeps only the latest answer.
    const bounded = stack({ responseStore: { maxResponses: 1 } }).gateway
    const a = (await (
      await bounded.fetch(post('responses', path, { model: 'via-messages', input: 'A' }))
    ).json()) as Json
    await bounded.fetch(post('responses', path, { model: 'via-messages', input: 'B' }))
    const again = await bounded.fetch(
      post('responses', path, { model: 'via-messages', previous_response_id: a.id, input: 'x' }),
    )
    expect(again.status).toBe(400)
  })
})

describe('the in-memory store is bounded', () => {
  const stored = (id: string) => ({ id, input: [], response: { id, output: [{ id: `msg_${id}` }] } })

  it('evicts the least recently used beyond maxResponses, and their items', () => {
    const store = createMemoryResponseStore({ maxResponses: 2 })
    store.put('s', stored('a'))
    store.put('s', stored('b'))
    store.get('s', 'a')
    store.put('s', stored('c'))
    expect(store.get('s', 'b')).toBeUndefined()
    expect(store.item('s', 'msg_b')).toBeUndefined()
    expect(store.get('s', 'a')).toBeDefined()
    expect(store.item('s', 'msg_c')).toEqual({ id: 'msg_c' })
    expect(store.get('other', 'a')).toBeUndefined()
  })

  it('forgets entries after ttlMs and keeps nothing larger than maxBytes', async () => {
    const store = createMemoryResponseStore({ ttlMs: 5, maxBytes: 200 })
    store.put('s', stored('a'))
    expect(store.get('s', 'a')).toBeDefined()
    await new Promise((resolve) => setTimeout(resolve, 15))
    expect(store.get('s', 'a')).toBeUndefined()
    store.put('s', { id: 'big', input: ['x'.repeat(500)], response: { id: 'big', output: [] } })
    expect(store.get('s', 'big')).toBeUndefined()
  })
})

describe('the Vercel AI SDK with its default settings (item references) over HTTP', () => {
  let gateway: Running
  let upstream: Running
  beforeAll(async () => {
    ;({ gateway, upstream } = await startStack({ responseStore: createMemoryResponseStore() }))
  })
  afterAll(async () => {
    await gateway?.close()
    await upstream?.close()
  })

  it('a second turn built from the first answer works (and 400s without a store)', async () => {
    const openai = createOpenAI({ apiKey: 'client-key', baseURL: `${gateway.url}/v1` })
    const messages: ModelMessage[] = [{ role: 'user', content: 'Say hello' }]
    const first = await generateText({ model: openai('via-messages'), messages, maxRetries: 0 })
    messages.push(...first.response.messages, { role: 'user', content: 'Once more' })
    const second = await generateText({ model: openai('via-messages'), messages, maxRetries: 0 })
    expect(second.text).toContain('Once more')
    const client = new OpenAI({ apiKey: 'client-key', baseURL: `${gateway.url}/v1`, maxRetries: 0 })
    const retrieved = await client.responses.retrieve(first.response.id)
    expect(retrieved.id).toBe(first.response.id)
    const stateless = await serve(createStatelessGateway())
    try {
      const error = await generateText({
        model: createOpenAI({ apiKey: 'client-key', baseURL: `${stateless.url}/v1` })('via-messages'),
        messages,
        maxRetries: 0,
      }).catch((caught: unknown) => caught)
      // The stateless gateway cannot resolve the references the AI SDK sent: a 400 that says what to do.
      expect(String((error as Error).message)).toContain('store: false')
    } finally {
      await stateless.close()
    }
  })
})

function createStatelessGateway() {
  return stack({ responseStore: false }).gateway.fetch
}
