/**
 * The service end to end over real HTTP on 127.0.0.1: an embedded PostgreSQL (PGlite, temp dir), a real SMTP catcher
 * (smtp-server) receiving the codes, and the official SDKs calling the gateway with a key made on the keys page.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import { serve } from '@hono/node-server'
import { simpleParser } from 'mailparser'
import OpenAI from 'openai'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createService } from '../src/app.mjs'
import { openDatabase } from '../src/db.mjs'
import { createMailer } from '../src/mail.mjs'

const mails = []
let smtp, server, db, base, dataDir

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, done) {
      simpleParser(stream).then((mail) => {
        mails.push({ to: mail.to.text, text: mail.text })
        done()
      }, done)
    },
  })
  await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve))
  const smtpPort = smtp.server.address().port
  dataDir = mkdtempSync(join(tmpdir(), 'interlingua-service-'))
  db = await openDatabase({ dataDir })
  const mailer = await createMailer({ smtpUrl: `smtp://127.0.0.1:${smtpPort}`, from: 'test@127.0.0.1' })
  await new Promise((resolve) => {
    server = serve({ fetch: (request) => service.fetch(request), hostname: '127.0.0.1', port: 0 }, (info) => {
      base = `http://127.0.0.1:${info.port}`
      resolve()
    })
  })
  service = await createService({
    db,
    mailer,
    gatewayOptions: {},
    models: [{ id: 'interlingua-mock', format: 'mock', supports: 'all' }],
    publicUrl: base,
    keyRateLimit: 1000,
  })
})
let service
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await new Promise((resolve) => smtp?.close(resolve))
  await db?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

/** A browser-like client: a cookie jar, same-origin form posts. */
function browser() {
  const jar = new Map()
  async function go(path, form) {
    const headers = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') }
    let body
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      headers.origin = base
      body = new URLSearchParams(form).toString()
    }
    const response = await fetch(base + path, { method: form ? 'POST' : 'GET', headers, body, redirect: 'manual' })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';')
      const [name, value] = pair.split('=')
      if (value === '') jar.delete(name)
      else jar.set(name, value)
    }
    return {
      status: response.status,
      location: response.headers.get('location'),
      html: await response.text(),
      headers: response.headers,
    }
  }
  const csrfOf = (html) => /name="csrf" value="([^"]+)"/.exec(html)?.[1]
  return { go, csrfOf, jar }
}

async function signUp(email) {
  const b = browser()
  const page = await b.go('/signup')
  const sent = await b.go('/signup', { csrf: b.csrfOf(page.html), email })
  expect(sent.status).toBe(200)
  const mail = mails.findLast((m) => m.to.toLowerCase() === email.toLowerCase())
  const code = /\b(\d{6})\b/.exec(mail.text)[1]
  const done = await b.go('/signup/verify', { csrf: b.csrfOf(sent.html), email, code })
  expect(done.status).toBe(302)
  expect(done.location).toBe('/keys')
  return b
}

async function createKey(b, form = {}) {
  const keys = await b.go('/keys')
  const made = await b.go('/keys', { csrf: b.csrfOf(keys.html), name: 'test key', ...form })
  expect(made.status).toBe(200)
  return /name="key" value="(il-[A-Za-z0-9_-]{32,})"/.exec(made.html)[1]
}

describe('sign-up, keys, the gateway and usage', () => {
  let alice, key
  it('a visitor is sent to /signup; a code arrives by SMTP and signs the account in', async () => {
    const b = browser()
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
      body: JSON.stringify({ model: 'interlingua-mock', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
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
    const b = browser()
    const page = await b.go('/signup')
    const sent = await b.go('/signup', { csrf: b.csrfOf(page.html), email: 'carol@example.com' })
    const code = /\b(\d{6})\b/.exec(mails.findLast((m) => m.to === 'carol@example.com').text)[1]
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
    expect(mails.some((m) => m.to === 'dave@example.com')).toBe(false)
  })
  it('codes and keys are stored only as hashes', async () => {
    const keys = await db.query('SELECT key_hash, prefix FROM api_keys')
    expect(keys.every((k) => /^[0-9a-f]{64}$/.test(k.key_hash))).toBe(true)
    const accounts = await db.query('SELECT email_key FROM accounts ORDER BY created_at')
    expect(accounts[0].email_key).toBe('alice@gmail.com')
  })
})
