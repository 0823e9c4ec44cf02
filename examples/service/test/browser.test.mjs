/**
 * The console in a real browser: Debian's Chromium driven by playwright-core (never a downloaded browser), the service
 * on 127.0.0.1 with a real SMTP catcher, once on PGlite (a temp directory) and once on the PostgreSQL server of the test
 * run (TEST_DATABASES narrows it). Sign-up with the mailed code, a key read from
 * the page and used from the three official SDKs (JSON and streams), usage on the page, revocation (401 in every
 * format), a second account, codes that run out, a cross-site form. Every page is kept as a full-page screenshot at a
 * laptop and a phone size in test-artifacts/screenshots/ (written on every run, from the first database's pass: the
 * pages do not depend on the database), and no page scrolls sideways on a phone.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Anthropic from '@anthropic-ai/sdk'
import { ApiError, GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService } from './harness.mjs'
import { testDatabases } from './support/databases.mjs'

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const shots = fileURLToPath(new URL('../test-artifacts/screenshots/', import.meta.url))
const viewports = { laptop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } }
const model = 'interlingua-mock'

let service, browser, base, profile, kind
const contexts = []
const databases = testDatabases()

beforeAll(async () => {
  if (!existsSync(chromiumPath))
    throw new Error(
      `Chromium not found at ${chromiumPath}. The browser suite drives Debian's chromium: install it with ` +
        '`apt-get install -y chromium` (.ci/run does so when it is missing) or set CHROMIUM_PATH to a Chromium binary.',
    )
  rmSync(shots, { recursive: true, force: true })
  for (const device of Object.keys(viewports)) mkdirSync(join(shots, device), { recursive: true })
  // A fresh profile every run (launch() makes and removes its own user-data-dir); nothing reaches the network.
  profile = mkdtempSync(join(tmpdir(), 'interlingua-chromium-'))
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    env: { ...process.env, HOME: profile },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
})

afterAll(async () => {
  await browser?.close()
  if (profile) rmSync(profile, { recursive: true, force: true })
})

/** A separate browser (own cookies) at laptop size. */
async function newPage() {
  const context = await browser.newContext({ viewport: viewports.laptop })
  contexts.push(context)
  const page = await context.newPage()
  page.setDefaultTimeout(15_000)
  // Nothing the console serves may fail in the browser: no blocked resource, no CSP violation, no missing file.
  page.on('console', (message) => {
    if (message.type() === 'error' && !expectedErrors.some((re) => re.test(message.text())))
      consoleErrors.push(`${page.url()}: ${message.text()}`)
  })
  return page
}

const consoleErrors = []
// The pages that answer 400/403 on purpose, which Chromium reports as a failed resource.
const expectedErrors = [/status of (400|403)/]

let shotNumber = 0
/** Full-page screenshots at both sizes; on the phone the page must not scroll sideways. */
async function shot(page, name) {
  if (kind !== databases[0]) return
  const file = `${String(++shotNumber).padStart(2, '0')}-${name}.png`
  for (const [device, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport)
    await page.screenshot({ path: join(shots, device, file), fullPage: true })
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, `${name} scrolls sideways on a ${device} (${overflow}px)`).toBeLessThanOrEqual(0)
  }
  await page.setViewportSize(viewports.laptop)
}

/** Asks for a code on the sign-up page; the code page is shown and the mail was accepted by then: its code. */
async function requestCode(page, email) {
  await page.getByLabel('E-mail').fill(email)
  await page.getByRole('button', { name: 'Send me a code' }).click()
  await expect.poll(() => page.getByRole('heading', { name: 'Check your e-mail' }).isVisible()).toBe(true)
  expect(await page.getByText(email).first().isVisible()).toBe(true)
  return service.mail.codeFor(email)
}

/** The sign-up flow in the page: address, code from the caught mail, signed in on /keys. */
async function signUp(page, email) {
  await page.goto(`${base}/`)
  expect(new URL(page.url()).pathname).toBe('/signup')
  const code = await requestCode(page, email)
  await page.getByLabel('Code').fill(code)
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.waitForURL(`${base}/keys`)
}

const sdks = (key) => ({
  openai: new OpenAI({ apiKey: key, baseURL: `${base}/v1`, maxRetries: 0 }),
  anthropic: new Anthropic({ apiKey: key, baseURL: base, maxRetries: 0 }),
  gemini: new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: base } }),
})
const cell = (row, index) => row.locator('td').nth(index)
const count = async (locator) => Number((await locator.innerText()).replace(/[^0-9]/g, ''))

describe.each(databases)('the console in Chromium, on %s', (databaseKind) => {
  beforeAll(async () => {
    kind = databaseKind
    service = await startService(databaseKind)
    base = service.base
  })
  afterAll(async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => {})
    await service?.close()
  })

  let alice, key, keyAction
  const keyName = 'billing service'

  it('signs up with the code from the mail (a bad address and a wrong code are explained on the page)', async () => {
    alice = await newPage()
    await alice.goto(`${base}/`)
    await expect.poll(() => alice.getByRole('heading', { name: 'Sign in or sign up' }).isVisible()).toBe(true)
    await shot(alice, 'signup')
    // The browser accepts `a@b` as an e-mail address; the service does not.
    await alice.getByLabel('E-mail').fill('alice@localhost')
    await alice.getByRole('button', { name: 'Send me a code' }).click()
    await expect.poll(() => alice.getByRole('status').innerText()).toMatch(/valid e-mail address/)
    await shot(alice, 'signup-invalid-address')

    const code = await requestCode(alice, 'Alice@Example.com')
    await shot(alice, 'code-entry')
    await alice.getByLabel('Code').fill(code === '000000' ? '111111' : '000000')
    await alice.getByRole('button', { name: 'Continue' }).click()
    await expect.poll(() => alice.getByRole('status').innerText()).toMatch(/not right\. 4 attempt\(s\) left/)
    await shot(alice, 'code-wrong')
    await alice.getByLabel('Code').fill(code)
    await alice.getByRole('button', { name: 'Continue' }).click()
    await alice.waitForURL(`${base}/keys`)
    expect(await alice.getByText('No keys yet').isVisible()).toBe(true)
    const cookies = await alice.context().cookies()
    expect(cookies.find((c) => c.name === 'sid')).toMatchObject({ httpOnly: true, sameSite: 'Lax' })
    await shot(alice, 'keys-empty')
  })

  it('creates a key, shows it once in the read-only field `key` with the SDK snippets, then only its prefix', async () => {
    await alice.getByLabel('Name').fill(keyName)
    await alice.getByLabel(/^Expires/).fill('2020-01-01')
    await alice.getByRole('button', { name: 'Create key' }).click()
    await expect.poll(() => alice.getByRole('status').innerText()).toMatch(/future date/)
    await shot(alice, 'key-create-error')

    await alice.getByLabel('Name').fill(keyName)
    await alice.getByLabel(/^Expires/).fill('')
    await alice.getByRole('button', { name: 'Create key' }).click()
    const field = alice.locator('input[name="key"]')
    key = await field.inputValue()
    expect(key).toMatch(/^il-[A-Za-z0-9_-]{43}$/)
    expect(await field.getAttribute('readonly')).not.toBeNull()
    const page = await alice.content()
    for (const snippet of ['new OpenAI(', 'new Anthropic(', 'new GoogleGenAI(']) expect(page).toContain(snippet)
    expect(page).toContain(`${base}/v1`)
    await shot(alice, 'key-new')

    await alice.getByRole('link', { name: /I have copied it|Done/ }).click()
    await alice.waitForURL(`${base}/keys`)
    expect(await alice.content()).not.toContain(key)
    const row = alice.getByRole('row', { name: new RegExp(keyName) })
    expect(await row.innerText()).toContain(key.slice(0, 10))
    expect(await row.innerText()).toMatch(/active/)
    keyAction = await row.locator('form[action$="/revoke"]').getAttribute('action')
    expect(keyAction).toMatch(/^\/keys\/[0-9a-f-]{36}\/revoke$/)
    expect(await row.innerText()).toMatch(/1,000 req\/min/) // the service default, until the key has its own
    await shot(alice, 'keys-list')

    // Its own limits, set on the page ("Limits" opens a small form in the row; no script).
    await row.getByText('Limits', { exact: true }).click()
    await row.getByLabel('Requests a minute').fill('120')
    await row.getByLabel('Tokens a minute').fill('50000')
    await shot(alice, 'keys-limits-form')
    await row.getByRole('button', { name: 'Save limits' }).click()
    await alice.waitForURL(`${base}/keys`)
    const saved = alice.getByRole('row', { name: new RegExp(keyName) })
    expect(await saved.innerText()).toMatch(/120 req\/min/)
    expect(await saved.innerText()).toMatch(/50,000 tokens\/min/)
  })

  it('the key read from the page works from the three official SDKs, JSON and streamed', async () => {
    const { openai, anthropic, gemini } = sdks(key)
    const completion = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }] })
    expect(completion.choices[0].message.content).toMatch(/mock model/)
    let text = ''
    const chunks = await openai.chat.completions.create({
      model,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hello' }],
    })
    for await (const chunk of chunks) text += chunk.choices[0]?.delta?.content ?? ''
    expect(text).toMatch(/mock model/)

    const message = await anthropic.messages.create({
      model,
      max_tokens: 200,
      messages: [{ role: 'user', content: 'hello' }],
    })
    expect(message.content[0].text).toMatch(/mock model/)
    text = ''
    const events = await anthropic.messages.create({
      model,
      max_tokens: 200,
      stream: true,
      messages: [{ role: 'user', content: 'hello' }],
    })
    for await (const event of events) if (event.type === 'content_block_delta') text += event.delta.text ?? ''
    expect(text).toMatch(/mock model/)

    const answer = await gemini.models.generateContent({ model, contents: 'hello' })
    expect(answer.text).toMatch(/mock model/)
    text = ''
    for await (const chunk of await gemini.models.generateContentStream({ model, contents: 'hello' }))
      text += chunk.text ?? ''
    expect(text).toMatch(/mock model/)
  })

  it('the usage page shows the six requests with their tokens', async () => {
    await alice.getByRole('link', { name: 'Models' }).click()
    await alice.waitForURL(`${base}/models`)
    expect(await alice.getByRole('row', { name: new RegExp(model) }).count()).toBe(1)
    expect(await alice.content()).toContain(`${base}/v1`)
    await shot(alice, 'models')

    await alice.getByRole('link', { name: 'Usage' }).click()
    await alice.waitForURL(`${base}/usage`)
    const row = alice.getByRole('row', { name: new RegExp(`${keyName}.*${model}`) })
    // Streamed answers are recorded when their last event has gone out: reload until all six are there.
    await expect
      .poll(async () => {
        await alice.reload()
        return (await row.count()) && count(cell(row, 3))
      })
      .toBe(6)
    expect(await count(cell(row, 4))).toBe(0)
    const input = await count(cell(row, 5))
    const output = await count(cell(row, 6))
    expect(input).toBeGreaterThan(0)
    expect(output).toBeGreaterThan(0)
    const total = (label) => count(alice.locator('.stats > div', { hasText: label }).locator('dd'))
    expect(await total('Requests')).toBe(6)
    expect(await total('Errors')).toBe(0)
    expect(await total('Input tokens')).toBe(input)
    expect(await total('Output tokens')).toBe(output)
    // The chart: an inline SVG (no script), today's bar the only one, its summary the accessible name.
    const chart = alice.getByRole('img', { name: /Tokens and requests per day/ })
    expect(await chart.getAttribute('aria-label')).toContain(
      `${(input + output).toLocaleString('en-US')} tokens, 6 requests`,
    )
    expect(await alice.locator('svg rect.bar[height]:not([height="0.0"])').count()).toBe(1)
    await shot(alice, 'usage')
  })

  it('the request log shows each request: key, model, client, upstream, status, latency, first byte, tokens', async () => {
    await alice.getByRole('link', { name: 'Logs' }).click()
    await alice.waitForURL(`${base}/logs`)
    const rows = alice.getByRole('row', { name: new RegExp(keyName) })
    expect(await rows.count()).toBe(6)
    const texts = await rows.allInnerTexts()
    for (const text of texts) {
      expect(text).toContain(model)
      expect(text).toMatch(/\b200\b/)
      expect(text).toMatch(/\d+ ms/)
    }
    // Three client formats (named as people know them), three of them streamed — only those show a first byte; the
    // embedded mock model upstream.
    for (const client of ['OpenAI Chat', 'Anthropic Messages', 'Gemini'])
      expect(texts.filter((text) => text.includes(client))).toHaveLength(2)
    const streamed = texts.filter((text) => /stream/.test(text))
    expect(streamed).toHaveLength(3)
    for (const text of streamed) expect(text.match(/\d+ ms/g)).toHaveLength(2)
    for (const text of texts.filter((text) => !/stream/.test(text))) expect(text.match(/\d+ ms/g)).toHaveLength(1)
    expect(texts.every((text) => text.includes('mock'))).toBe(true)
    expect(await alice.content()).not.toContain(key)
    await shot(alice, 'logs')
  })

  it('a second account cannot see, revoke (by a tampered form) or account for the first one’s keys', async () => {
    const bob = await newPage()
    await signUp(bob, 'bob@example.com')
    expect(await bob.content()).not.toContain(key.slice(0, 10))
    await bob.getByLabel('Name').fill('bob laptop')
    await bob.getByRole('button', { name: 'Create key' }).click()
    const bobKey = await bob.locator('input[name="key"]').inputValue()
    await bob.goto(`${base}/keys`)
    expect(await bob.getByRole('row').count()).toBe(2) // the header and bob's key
    expect(await bob.content()).not.toContain(key.slice(0, 10))
    expect(await bob.content()).not.toContain(keyName)
    await shot(bob, 'keys-second-account')

    // Bob points his own revoke form at Alice's key id and submits it.
    await bob
      .locator('form[action$="/revoke"]')
      .evaluate((form, action) => form.setAttribute('action', action), keyAction)
    await bob.getByRole('button', { name: 'Revoke' }).click()
    await bob.waitForURL(`${base}/keys`)
    expect(await bob.getByRole('row', { name: /bob laptop/ }).innerText()).toMatch(/active/)
    await alice.goto(`${base}/keys`)
    expect(await alice.getByRole('row', { name: new RegExp(keyName) }).innerText()).toMatch(/active/)
    const { openai } = sdks(key)
    const still = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'still?' }] })
    expect(still.choices[0].message.content).toMatch(/mock model/)

    await bob.goto(`${base}/usage`)
    expect(await bob.getByText('No requests yet').isVisible()).toBe(true)
    expect(await bob.locator('figure.chart').count()).toBe(0) // no empty chart above it
    expect(await bob.content()).not.toContain(keyName)
    await shot(bob, 'usage-empty')
    expect((await sdks(bobKey).openai.models.list()).data.map((m) => m.id)).toContain(model)
  })

  it('revoking on the page makes the key a 401 in every format, from every SDK', async () => {
    await alice.goto(`${base}/keys`)
    const row = alice.getByRole('row', { name: new RegExp(keyName) })
    await row.getByRole('button', { name: 'Revoke' }).click()
    await alice.waitForURL(`${base}/keys`)
    expect(await row.innerText()).toMatch(/revoked/)
    expect(await row.getByRole('button', { name: 'Revoke' }).count()).toBe(0)
    await shot(alice, 'keys-revoked')

    const { openai, anthropic, gemini } = sdks(key)
    const messages = [{ role: 'user', content: 'hello' }]
    const openaiCalls = [
      () => openai.chat.completions.create({ model, messages }),
      () => openai.chat.completions.create({ model, messages, stream: true }),
      () => openai.responses.create({ model, input: 'hello' }),
      () => openai.responses.create({ model, input: 'hello', stream: true }),
    ]
    for (const call of openaiCalls) {
      const error = await call().then(
        () => undefined,
        (e) => e,
      )
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError)
      expect(error.status).toBe(401)
    }
    for (const stream of [false, true]) {
      const error = await anthropic.messages.create({ model, max_tokens: 10, messages, stream }).then(
        () => undefined,
        (e) => e,
      )
      expect(error).toBeInstanceOf(Anthropic.AuthenticationError)
      expect(error.status).toBe(401)
      expect(error.error?.error?.type).toBe('authentication_error')
    }
    for (const call of [
      () => gemini.models.generateContent({ model, contents: 'hello' }),
      () => gemini.models.generateContentStream({ model, contents: 'hello' }),
    ]) {
      const error = await call().then(
        () => undefined,
        (e) => e,
      )
      expect(error).toBeInstanceOf(ApiError)
      expect(error.status).toBe(401)
      expect(error.message).toMatch(/UNAUTHENTICATED/)
    }
  })

  it('a cross-site form post is refused, even from a signed-in browser', async () => {
    // Another origin (same host, another port: the session cookie is sent, so only the Origin and CSRF checks stop it).
    const evil = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html')
      response.end(`<!doctype html><title>Win a prize</title>
<form id="key" method="post" action="${base}/keys"><input name="name" value="planted"><input name="csrf" value="guess"><button>Claim your prize</button></form>
<form id="mail" method="post" action="${base}/signup"><input name="email" value="dave@example.com"><button>Subscribe</button></form>`)
    })
    await new Promise((resolve) => evil.listen(0, '127.0.0.1', resolve))
    try {
      for (const [button, action] of [
        ['Claim your prize', '/keys'],
        ['Subscribe', '/signup'],
      ]) {
        await alice.goto(`http://127.0.0.1:${evil.address().port}/`)
        const [response] = await Promise.all([
          alice.waitForResponse((r) => r.url() === `${base}${action}` && r.request().method() === 'POST'),
          alice.getByRole('button', { name: button }).click(),
        ])
        expect(response.status()).toBe(403)
        await expect.poll(() => alice.getByRole('heading', { name: 'Request refused' }).isVisible()).toBe(true)
      }
      await shot(alice, 'cross-site-refused')
    } finally {
      evil.closeAllConnections()
      await new Promise((resolve) => evil.close(resolve))
    }
    await alice.goto(`${base}/keys`)
    expect(await alice.content()).not.toContain('planted')
    expect(service.mail.mails.some((m) => m.to === 'dave@example.com')).toBe(false)
  })

  it('wrong codes run out after 5 attempts: then even the right code is refused', async () => {
    const carol = await newPage()
    await carol.goto(`${base}/signup`)
    const code = await requestCode(carol, 'carol@example.com')
    const wrong = code === '000000' ? '111111' : '000000'
    for (let left = 4; left >= 0; left--) {
      await carol.getByLabel('Code').fill(wrong)
      await carol.getByRole('button', { name: 'Continue' }).click()
      await expect.poll(() => carol.getByRole('status').innerText()).toContain(`${left} attempt(s) left`)
    }
    await carol.getByLabel('Code').fill(code)
    await carol.getByRole('button', { name: 'Continue' }).click()
    await expect.poll(() => carol.getByRole('status').innerText()).toMatch(/expired or was tried too often/)
    expect(new URL(carol.url()).pathname).toBe('/signup/verify')
    expect(await carol.context().cookies()).not.toContainEqual(expect.objectContaining({ name: 'sid' }))
    await shot(carol, 'code-run-out')
    await carol.goto(`${base}/keys`)
    expect(new URL(carol.url()).pathname).toBe('/signup')
  })

  it('deleting an account takes the typed address; then its keys, usage, log and sessions are gone', async () => {
    const erin = await newPage()
    await signUp(erin, 'erin@example.com')
    await erin.getByLabel('Name').fill('erin key')
    await erin.getByRole('button', { name: 'Create key' }).click()
    const erinKey = await erin.locator('input[name="key"]').inputValue()
    await sdks(erinKey).openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
    const [{ id: erinId }] = await service.db.query(`SELECT id FROM accounts WHERE email = 'erin@example.com'`)
    await erin.goto(`${base}/logs`) // written to the database on the way (usage and the request log)
    expect(await erin.getByRole('row', { name: /erin key/ }).count()).toBe(1)
    await erin.goto(`${base}/account`)
    // What goes, counted in words (one key, one request).
    const losses = await erin.getByRole('list').filter({ hasText: 'API key' }).innerText()
    expect(losses).toMatch(/Your 1 API key — refused on every instance/)
    expect(losses).toMatch(/1 request recorded/)
    expect(losses).not.toMatch(/\(s\)/)
    await shot(erin, 'account')
    await erin.getByLabel(/Type your e-mail address/).fill('someone@example.com')
    await erin.getByRole('button', { name: 'Delete my account' }).click()
    await expect.poll(() => erin.getByRole('status').innerText()).toMatch(/Nothing was deleted/)
    await erin.getByLabel(/Type your e-mail address/).fill('Erin@Example.com')
    await erin.getByRole('button', { name: 'Delete my account' }).click()
    await expect.poll(() => erin.getByRole('heading', { level: 1 }).innerText()).toBe('Your account was deleted')
    await shot(erin, 'account-deleted')
    await erin.goto(`${base}/keys`)
    expect(new URL(erin.url()).pathname).toBe('/signup')
    const refused = await sdks(erinKey)
      .openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
      .catch((error) => error)
    expect(refused.status).toBe(401)
    for (const table of ['api_keys', 'sessions', 'usage_daily', 'request_log_batches'])
      expect(await service.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE account_id = $1`, [erinId])).toEqual(
        [{ n: 0 }],
      )
    expect(await service.db.query('SELECT count(*)::int AS n FROM accounts WHERE id = $1', [erinId])).toEqual([
      { n: 0 },
    ])
  })

  it('no page logged an error in the browser console (CSP violations, missing files)', () => {
    expect(consoleErrors).toEqual([])
  })

  it('signing out ends the session', async () => {
    await alice.goto(`${base}/keys`)
    await alice.getByRole('button', { name: 'Sign out' }).click()
    await alice.waitForURL(`${base}/signup`)
    await alice.goto(`${base}/usage`)
    expect(new URL(alice.url()).pathname).toBe('/signup')
  })
})
