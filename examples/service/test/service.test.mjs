/**
 * The service end to end over real HTTP on 127.0.0.1, once on the embedded database (PGlite, temp dir) and once on a
 * PostgreSQL server (test/global-setup.mjs): a real SMTP catcher (smtp-server) receiving the codes, and the official
 * SDKs calling the gateway with a key made on the keys page.
 */
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createService } from '../src/app.mjs'
import { openDatabase } from '../src/db.mjs'
import { createMailer } from '../src/mail.mjs'
import { browser, createKey, signUp as signUpWith, startMailCatcher } from './support/client.mjs'
import { testDatabase, testDatabases } from './support/databases.mjs'
import { listenService } from './support/processes.mjs'

describe.each(testDatabases())('on %s', (kind) => {
  let mail, closeServer, db, base, database, service

  beforeAll(async () => {
    mail = await startMailCatcher()
    database = await testDatabase(kind)
    db = await openDatabase(database.config)
    const mailer = await createMailer({ smtpUrl: mail.url, from: 'test@127.0.0.1' })
    ;({ base, close: closeServer } = await listenService(() => service))
    service = await createService({
      db,
      mailer,
      gatewayOptions: {},
      models: [{ id: 'interlingua-mock', format: 'mock', supports: 'all' }],
      publicUrl: base,
      logLevel: 'warn', // the request log has its own test (ops.test.mjs)
      keyRateLimit: 1000,
    })
  })
  afterAll(async () => {
    await closeServer?.()
    await service?.close()
    await mail?.close()
    await db?.close()
    await database?.cleanup()
  })
  const signUp = (email) => signUpWith(browser(base), mail, email)

  it('runs on the database it was given', () => {
    expect(db.kind).toBe(kind === 'postgres' ? 'postgresql' : 'pglite')
  })

  describe('sign-up, keys, the gateway and usage', () => {
    let alice, key
    it('a visitor is sent to /signup; a code arrives by SMTP and signs the account in', async () => {
      const b = browser(base)
      expect((await b.go('/')).location).toBe('/signup')
      alice = await signUp('Alice+news@Gmail.com')
      const keys = await alice.go('/keys')
      expect(keys.status).toBe(200)
      expect(keys.headers.get('content-security-policy')).toContain("script-src 'none'")
      expect(keys.html).not.toContain('<script')
    })

    it('a key is shown once, in full, then only its prefix; it works from all three official SDKs', async () => {
      key = await createKey(alice)
      const list = await alice.go('/keys')
      expect(list.html).toContain(key.slice(0, 10))
      expect(list.html).not.toContain(key)
      const openai = new OpenAI({ apiKey: key, baseURL: `${base}/v1`, maxRetries: 0 })
      const completion = await openai.chat.completions.create({
        model: 'interlingua-mock',
        messages: [{ role: 'user', content: 'Say hello' }],
      })
      expect(completion.choices[0].message.content).toMatch(/mock model/)
      const stream = await openai.chat.completions.create({
        model: 'interlingua-mock',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'Say hello' }],
      })
      let text = ''
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
      expect(text).toMatch(/mock model/)
      const anthropic = new Anthropic({ apiKey: key, baseURL: base, maxRetries: 0 })
      const message = await anthropic.messages.create({
        model: 'interlingua-mock',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hi' }],
      })
      expect(message.content[0].type).toBe('text')
      const gemini = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: base } })
      const answer = await gemini.models.generateContent({ model: 'interlingua-mock', contents: 'hi' })
      expect(answer.text).toMatch(/mock model/)
    })

    it('usage appears per key, model and day (the stream included)', async () => {
      await new Promise((resolve) => setTimeout(resolve, 300))
      const usage = await alice.go('/usage')
      expect(usage.html).toContain('interlingua-mock')
      const rows = await db.query(
        'SELECT sum(requests)::int AS requests, sum(input_tokens)::int AS input FROM usage_daily',
      )
      expect(rows[0].requests).toBe(4)
      expect(rows[0].input).toBeGreaterThan(0)
    })

    it('another account cannot see, use or revoke the first one’s keys', async () => {
      const bob = await signUp('bob@example.com')
      const bobKeys = await bob.go('/keys')
      expect(bobKeys.html).not.toContain(key.slice(0, 10))
      const [{ id }] = await db.query('SELECT id FROM api_keys WHERE prefix = $1', [key.slice(0, 10)])
      await bob.go(`/keys/${id}/revoke`, { csrf: bob.csrfOf(bobKeys.html) })
      const [row] = await db.query('SELECT revoked_at FROM api_keys WHERE id = $1', [id])
      expect(row.revoked_at).toBeNull()
    })

    it('a model outside the key’s allow-list is 403, in the client’s format', async () => {
      const limited = await createKey(alice, { name: 'limited', models: 'only-this-one' })
      const response = await fetch(`${base}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': limited, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'interlingua-mock',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'hi' }],
        }),
      })
      expect(response.status).toBe(403)
      expect((await response.json()).error.type).toBe('permission_error')
    })

    it('a revoked key is refused with 401 in each format', async () => {
      const keys = await alice.go('/keys')
      const [{ id }] = await db.query('SELECT id FROM api_keys WHERE prefix = $1', [key.slice(0, 10)])
      await alice.go(`/keys/${id}/revoke`, { csrf: alice.csrfOf(keys.html) })
      const chat = await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'interlingua-mock', messages: [{ role: 'user', content: 'hi' }] }),
      })
      expect(chat.status).toBe(401)
      expect((await chat.json()).error.code).toBe('invalid_api_key')
      const gem = await fetch(`${base}/v1beta/models/interlingua-mock:generateContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }),
      })
      expect(gem.status).toBe(401)
      expect((await gem.json()).error.status).toBe('UNAUTHENTICATED')
    })
  })

  describe('abuse', () => {
    it('wrong codes run out after 5 attempts; the page answers the same for any address', async () => {
      const b = browser(base)
      const page = await b.go('/signup')
      const sent = await b.go('/signup', { csrf: b.csrfOf(page.html), email: 'carol@example.com' })
      const code = mail.codeFor('carol@example.com')
      const wrong = code === '000000' ? '111111' : '000000'
      for (let i = 0; i < 5; i++) {
        const attempt = await b.go('/signup/verify', {
          csrf: b.csrfOf(sent.html),
          email: 'carol@example.com',
          code: wrong,
        })
        expect(attempt.status).toBe(400)
      }
      const late = await b.go('/signup/verify', { csrf: b.csrfOf(sent.html), email: 'carol@example.com', code })
      expect(late.status).toBe(400)
      expect(late.html).toMatch(/expired or was tried too often/)
    })
    it('a cross-site form post is refused', async () => {
      const response = await fetch(`${base}/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' },
        body: 'email=dave%40example.com&csrf=x',
      })
      expect(response.status).toBe(403)
      expect(mail.mails.some((m) => m.to === 'dave@example.com')).toBe(false)
    })
    it('codes and keys are stored only as hashes', async () => {
      const keys = await db.query('SELECT key_hash, prefix FROM api_keys')
      expect(keys.every((k) => /^[0-9a-f]{64}$/.test(k.key_hash))).toBe(true)
      const accounts = await db.query('SELECT email_key FROM accounts ORDER BY created_at')
      expect(accounts[0].email_key).toBe('alice@gmail.com')
    })
  })
})
