/**
 * The service's keys at the gateway, over real HTTP on 127.0.0.1 with the official SDKs: the key's allow-list (403 and
 * filtered listings), its rate limit (429 with retry-after in each client format), and usage recorded from the
 * gateway's `onResponse` — for a passthrough stream too (a chat-completions upstream, itself a local mock gateway), with or without
 * `include_usage`.
 */
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import { serve } from '@hono/node-server'
import { createGateway } from 'interlingua/gateway'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createService } from '../src/app.mjs'
import { openDatabase } from '../src/db.mjs'
import { newApiKey, sha256 } from '../src/security.mjs'
import { testDatabase, testDatabases } from './support/databases.mjs'
import { listenService } from './support/processes.mjs'

describe.each(testDatabases())('on %s', (kind) => {
  let closeServer, upstream, db, base, database, accountId, service
  let usageFails = false

  function listen(fetch) {
    return new Promise((resolve) => {
      const running = serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
        resolve({ running, url: `http://127.0.0.1:${info.port}` }),
      )
    })
  }

  /** A key row for the test account, as the keys page makes it (only the hash stored). */
  async function makeKey(models = null) {
    const key = newApiKey()
    await db.query('INSERT INTO api_keys (account_id, name, prefix, key_hash, models) VALUES ($1, $2, $3, $4, $5)', [
      accountId,
      'test',
      key.slice(0, 10),
      sha256(key),
      models,
    ])
    return key
  }

  beforeAll(async () => {
    // The upstreams: one mock-model gateway speaking every format.
    const mock = createGateway()
    const up = await listen((request) => mock.fetch(request))
    upstream = up.running
    database = await testDatabase(kind)
    db = await openDatabase(database.config)
    ;[{ id: accountId }] = await db.query(
      `INSERT INTO accounts (email, email_key) VALUES ('keys@example.com', 'keys@example.com') RETURNING id`,
    )
    ;({ base, close: closeServer } = await listenService(() => service))
    service = await createService({
      // The usage upsert fails while `usageFails` is set (the database unreachable, say); everything else goes through.
      db: {
        ...db,
        query: (sql, params) =>
          usageFails && sql.includes('INSERT INTO usage_daily')
            ? Promise.reject(new Error('connection terminated unexpectedly'))
            : db.query(sql, params),
      },
      usageFlushMs: 3_600_000, // flushed by the tests only
      mailer: { send: async () => {}, logged: true },
      gatewayOptions: {
        upstreams: {
          openai: { format: 'chat-completions', baseURL: `${up.url}/v1`, apiKey: 'upstream-key' },
          anthropic: { format: 'messages', baseURL: up.url, apiKey: 'upstream-key' },
        },
        models: { 'gpt-x': { upstream: 'openai' }, 'claude-x': { upstream: 'anthropic' } },
      },
      models: [
        { id: 'gpt-x', format: 'chat-completions', supports: 'all' },
        { id: 'claude-x', format: 'messages', supports: 'all' },
      ],
      publicUrl: base,
      logLevel: 'warn', // the request log has its own test (ops.test.mjs)
      keyRateLimit: 5,
    })
  })
  afterAll(async () => {
    await closeServer?.()
    await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve()))
    await service?.close()
    await db?.close()
    await database?.cleanup()
  })

  const openai = (apiKey) => new OpenAI({ apiKey, baseURL: `${base}/v1`, maxRetries: 0 })
  const anthropic = (apiKey) => new Anthropic({ apiKey, baseURL: base, maxRetries: 0 })
  const gemini = (apiKey) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: base } })
  // The service writes usage in batches; flushed here as before a usage page.
  const resetUsage = async () => {
    await service.flushUsage() // the earlier tests' counts
    await db.query('DELETE FROM usage_daily WHERE account_id = $1', [accountId])
  }
  const usageRows = async () => {
    await service.flushUsage()
    return db.query(
      `SELECT model, sum(requests)::int AS requests, sum(errors)::int AS errors, sum(input_tokens)::int AS input_tokens,
         sum(output_tokens)::int AS output_tokens FROM usage_daily WHERE account_id = $1 GROUP BY model ORDER BY model`,
      [accountId],
    )
  }

  describe('a key at the gateway', () => {
    it('with an allow-list: listings show only its models, another model is a permission error', async () => {
      const key = await makeKey(['gpt-x'])
      const ids = []
      for await (const model of openai(key).models.list()) ids.push(model.id)
      expect(ids).toEqual(['gpt-x'])
      const error = await anthropic(key)
        .messages.create({ model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
        .catch((e) => e)
      expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError)
      expect(error.error.error.type).toBe('permission_error')
    })

    it('usage is recorded from onResponse: a passthrough stream, a translated answer, an error', async () => {
      await resetUsage()
      const key = await makeKey(['gpt-x'])
      const stream = await openai(key).chat.completions.create({
        model: 'gpt-x',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'Say hello' }],
      })
      let streamed
      for await (const chunk of stream) if (chunk.usage) streamed = chunk.usage
      const open = await makeKey()
      const message = await anthropic(open).messages.create({
        model: 'gpt-x',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hi' }],
      })
      await anthropic(key)
        .messages.create({ model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
        .catch(() => {})
      await expect.poll(async () => (await usageRows()).reduce((n, row) => n + row.requests, 0)).toBe(3)
      expect(await usageRows()).toEqual([
        { model: 'claude-x', requests: 1, errors: 1, input_tokens: 0, output_tokens: 0 },
        {
          model: 'gpt-x',
          requests: 2,
          errors: 0,
          input_tokens: streamed.prompt_tokens + message.usage.input_tokens,
          output_tokens: streamed.completion_tokens + message.usage.output_tokens,
        },
      ])
      expect(streamed.prompt_tokens).toBeGreaterThan(0)
    })

    it('usage counts survive a failed write: kept, logged without the key, written by the next flush', async () => {
      await resetUsage()
      const key = await makeKey(['gpt-x'])
      const ask = () =>
        openai(key).chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] })
      const first = await ask()
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
      try {
        usageFails = true
        await expect
          .poll(async () => {
            await service.flushUsage()
            return logged.mock.calls.length
          })
          .toBeGreaterThan(0)
        expect(await db.query('SELECT 1 FROM usage_daily WHERE account_id = $1', [accountId])).toEqual([])
        const log = logged.mock.calls.flat().join(' ')
        expect(log).toMatch(/usage not written yet \(1 row\(s\) kept for the next flush\)/)
        expect(log).not.toContain(key)
        expect(log).not.toContain(key.slice(0, 10))
      } finally {
        usageFails = false
        logged.mockRestore()
      }
      const second = await ask()
      await expect.poll(async () => (await usageRows())[0]?.requests).toBe(2)
      expect((await usageRows())[0]).toMatchObject({
        model: 'gpt-x',
        errors: 0,
        input_tokens: first.usage.prompt_tokens + second.usage.prompt_tokens,
        output_tokens: first.usage.completion_tokens + second.usage.completion_tokens,
      })
    })

    it('usage is recorded for an OpenAI SDK stream that did not ask for it (the SDK default)', async () => {
      await resetUsage()
      const key = await makeKey(['gpt-x'])
      const params = { model: 'gpt-x', stream: true, messages: [{ role: 'user', content: 'Say hello' }] }
      const chunks = []
      for await (const chunk of await openai(key).chat.completions.create(params)) chunks.push(chunk)
      // The gateway asked the upstream for usage; the client does not see the usage chunk.
      expect(chunks.length).toBeGreaterThan(1)
      expect(chunks.filter((chunk) => chunk.usage || chunk.choices.length === 0)).toEqual([])
      await expect.poll(async () => (await usageRows())[0]?.requests).toBe(1)
      const [row] = await usageRows()
      // The mock upstream is deterministic: the same request with include_usage shows the counts it reported.
      let streamed
      const asked = await openai(key).chat.completions.create({ ...params, stream_options: { include_usage: true } })
      for await (const chunk of asked) if (chunk.usage) streamed = chunk.usage
      expect(streamed.prompt_tokens).toBeGreaterThan(0)
      expect(row).toMatchObject({
        model: 'gpt-x',
        input_tokens: streamed.prompt_tokens,
        output_tokens: streamed.completion_tokens,
      })
    })

    it('over its rate limit: 429 with retry-after, in each client format', async () => {
      const key = await makeKey()
      for (let i = 0; i < 5; i++)
        expect((await fetch(`${base}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200)
      const chat = await openai(key)
        .chat.completions.create({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] })
        .catch((e) => e)
      expect(chat).toBeInstanceOf(OpenAI.RateLimitError)
      const retryAfter = Number(chat.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(60)
      const message = await anthropic(key)
        .messages.create({ model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
        .catch((e) => e)
      expect(message).toBeInstanceOf(Anthropic.RateLimitError)
      expect(message.error.error.type).toBe('rate_limit_error')
      const gen = await gemini(key)
        .models.generateContent({ model: 'gpt-x', contents: 'hi' })
        .catch((e) => e)
      expect(gen.status).toBe(429)
      expect(JSON.parse(gen.message).error.status).toBe('RESOURCE_EXHAUSTED')
    })
  })
})
