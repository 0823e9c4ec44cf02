/**
 * Two service processes on one PostgreSQL database, started at the same moment (so their migrations race): an account
 * signed up on one uses its key on the other, a key revoked on one is refused by both within 1 s, a session
 * made on one is signed in on the other, the code-request rate limit counts requests made to either, and an instance
 * stopped with SIGTERM writes the usage it had counted in memory.
 */
import { readFileSync } from 'node:fs'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../src/db.mjs'
import { browser, createKey, requestCode, revokeKey, signUp, startMailCatcher } from './support/client.mjs'
import { testDatabase, testDatabases } from './support/databases.mjs'
import { startService } from './support/processes.mjs'

const migrations = JSON.parse(readFileSync(new URL('../migrations/meta/_journal.json', import.meta.url), 'utf8'))
  .entries.length

describe.skipIf(!testDatabases().includes('postgres'))('two instances on one PostgreSQL', () => {
  let mail, database, env, a, b
  beforeAll(async () => {
    mail = await startMailCatcher()
    database = await testDatabase('postgres', { empty: true })
    env = { ...database.env, SMTP_URL: mail.url, MAIL_FROM: 'test@127.0.0.1' }
    const started = await Promise.allSettled([startService(env), startService(env)])
    ;[a, b] = started.map((s) => (s.status === 'fulfilled' ? s.value : undefined))
    const failed = started.find((s) => s.status === 'rejected')
    if (failed) throw failed.reason
  })
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await mail?.close()
    await database?.cleanup()
  })

  it('both started on an empty database at once; each migration was applied once', async () => {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: database.env.DATABASE_URL })
    await client.connect()
    try {
      const { rows } = await client.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations')
      expect(rows[0].n).toBe(migrations)
    } finally {
      await client.end()
    }
    expect(a.output()).toMatch(/database: postgresql/)
    expect(b.output()).toMatch(/database: postgresql/)
  })

  it('eight openings of one empty database at once: all succeed, each migration applied once', async () => {
    // Drizzle's migrator alone fails this (two of three concurrent runs: duplicate key in pg_type); the advisory lock in
    // src/db.mjs serialises them.
    const fresh = await testDatabase('postgres', { empty: true })
    const opened = await Promise.all(Array.from({ length: 8 }, () => openDatabase(fresh.config)))
    try {
      expect(await opened[0].query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations')).toEqual([
        { n: migrations },
      ])
    } finally {
      await Promise.all(opened.map((db) => db.close()))
    }
  })

  it('sign up on one, use the key on the other, revoke on the other, refused on both within 1 s', async () => {
    const onA = await signUp(browser(a.base), mail, 'erin@example.com')
    const key = await createKey(onA)
    const sdk = (instance) => new OpenAI({ apiKey: key, baseURL: `${instance.base}/v1`, maxRetries: 0 })
    const ask = (instance) =>
      sdk(instance).chat.completions.create({ model: 'interlingua-mock', messages: [{ role: 'user', content: 'hi' }] })
    expect((await ask(b)).choices[0].message.content).toMatch(/mock model/)
    expect((await ask(a)).choices[0].message.content).toMatch(/mock model/)

    // The session made on A is signed in on B (sessions live in the database), and sees the usage B recorded.
    const onB = browser(b.base)
    for (const [name, value] of onA.jar) onB.jar.set(name, value)
    await expect.poll(async () => (await onB.go('/usage')).html).toMatch(/interlingua-mock/)
    await revokeKey(onB, key)

    // Each instance caches the key; the revocation reaches the other one by a database notification, within 1 s.
    for (const instance of [a, b]) {
      const refusal = () =>
        ask(instance).then(
          () => undefined,
          (error) => error,
        )
      await expect.poll(refusal, { timeout: 1_000, interval: 20 }).toBeInstanceOf(OpenAI.AuthenticationError)
      expect((await refusal()).status).toBe(401)
    }
  })

  it('an instance stopped with SIGTERM writes the usage it counted (not flushed yet) before it exits', async () => {
    const c = await startService({ ...env, USAGE_FLUSH_MS: '3600000' })
    let onA
    try {
      const onC = await signUp(browser(c.base), mail, 'gina@example.com')
      const key = await createKey(onC)
      const openai = new OpenAI({ apiKey: key, baseURL: `${c.base}/v1`, maxRetries: 0 })
      await openai.chat.completions.create({ model: 'interlingua-mock', messages: [{ role: 'user', content: 'hi' }] })
      onA = browser(a.base)
      for (const [name, value] of onC.jar) onA.jar.set(name, value)
      // Counted in C's memory only: another instance's page does not show it yet.
      expect((await onA.go('/usage')).html).not.toMatch(/interlingua-mock/)
    } finally {
      await c.stop()
    }
    expect(c.output()).not.toMatch(/usage not written|usage flush failed/)
    expect((await onA.go('/usage')).html).toMatch(/interlingua-mock/)
  })

  it('the code-request rate limit is shared: three requests for one address across both, the fourth refused', async () => {
    const answers = []
    for (const instance of [a, b, a, b])
      answers.push((await requestCode(browser(instance.base), 'frank@example.com')).status)
    expect(answers).toEqual([200, 200, 200, 429])
    expect(mail.mails.filter((m) => m.to === 'frank@example.com')).toHaveLength(3)
  })
})
