/**
 * Two service processes on one PostgreSQL database behind a round-robin proxy (test/support/proxy.mjs, no affinity):
 * keys are cached in each instance's memory, yet a revoked key is refused by both within 1 s (revoked in SQL behind
 * their backs, on the keys page, and after an instance lost its listening connection); per-key rate limits (requests
 * and tokens a minute, set on the keys page) hold across both; usage and "last used" come from the batches.
 */
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browser, createKey, revokeKey, signUp, startMailCatcher } from './support/client.mjs'
import { testDatabase, testDatabases } from './support/databases.mjs'
import { startService } from './support/processes.mjs'
import { startProxy } from './support/proxy.mjs'

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(!testDatabases().includes('postgres'))('two instances behind a round-robin proxy', () => {
  let mail, database, proxy, a, b, sql, page
  const targets = []

  beforeAll(async () => {
    mail = await startMailCatcher()
    database = await testDatabase('postgres')
    proxy = await startProxy(targets)
    const env = { ...database.env, SMTP_URL: mail.url, MAIL_FROM: 'test@127.0.0.1', PUBLIC_URL: proxy.base }
    a = await startService(env)
    b = await startService(env)
    targets.push(a.base, b.base)
    const { default: pg } = await import('pg')
    sql = new pg.Client({ connectionString: database.env.DATABASE_URL })
    await sql.connect()
    page = await signUp(browser(proxy.base), mail, 'scale@example.com')
  })
  afterAll(async () => {
    await sql?.end()
    await Promise.all([a?.stop(), b?.stop()])
    await proxy?.close()
    await mail?.close()
    await database?.cleanup()
  })

  const chat = (key, instance) =>
    new OpenAI({ apiKey: key, baseURL: `${instance.base}/v1`, maxRetries: 0 }).chat.completions
      .create({ model: 'interlingua-mock', messages: [{ role: 'user', content: 'hi' }] })
      .then(
        (answer) => ({ status: 200, answer }),
        (error) => ({ status: error.status, error }),
      )
  /** Calls `instance` until the key is refused; the milliseconds it took from `since`. */
  async function refusedAfter(key, instance, since) {
    for (;;) {
      const { status } = await chat(key, instance)
      if (status === 401) return Date.now() - since
      expect(status).toBe(200)
      if (Date.now() - since > 5_000) throw new Error(`still accepted after 5 s on ${instance.base}`)
    }
  }
  /** A key used once on each instance, so both have it cached. */
  async function cachedKey(form) {
    const key = await createKey(page, form)
    for (const instance of [a, b]) expect((await chat(key, instance)).status).toBe(200)
    return key
  }

  it('a key revoked in the database behind the instances’ backs is refused by both within 1 s', async () => {
    const key = await cachedKey()
    const since = Date.now()
    await sql.query(`UPDATE api_keys SET revoked_at = now() WHERE prefix = $1`, [key.slice(0, 10)])
    const times = await Promise.all([refusedAfter(key, a, since), refusedAfter(key, b, since)])
    for (const ms of times) expect(ms).toBeLessThan(1_000)
  })

  it('a key revoked on the keys page (through the proxy) is refused by both within 1 s', async () => {
    const key = await cachedKey()
    const since = Date.now()
    await revokeKey(page, key)
    const times = await Promise.all([refusedAfter(key, a, since), refusedAfter(key, b, since)])
    for (const ms of times) expect(ms).toBeLessThan(1_000)
  })

  it('an account suspended in SQL: its keys are refused by both within 1 s, and work again when reinstated', async () => {
    const key = await cachedKey()
    const since = Date.now()
    await sql.query(`UPDATE accounts SET suspended_at = now() WHERE email = 'scale@example.com'`)
    const times = await Promise.all([refusedAfter(key, a, since), refusedAfter(key, b, since)])
    for (const ms of times) expect(ms).toBeLessThan(1_000)
    await sql.query(`UPDATE accounts SET suspended_at = NULL WHERE email = 'scale@example.com'`)
    await expect.poll(async () => (await chat(key, a)).status, { timeout: 1_000 }).toBe(200)
    await expect.poll(async () => (await chat(key, b)).status, { timeout: 1_000 }).toBe(200)
  })

  it('an instance that lost its listening connection re-subscribes; a revocation still reaches it within 1 s', async () => {
    const key = await cachedKey()
    const { rows } = await sql.query(
      `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = 'interlingua-listen' AND datname = current_database()`,
    )
    expect(rows.length).toBe(2) // one listening connection per instance
    const listening = async () =>
      (
        await sql.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'interlingua-listen' AND datname = current_database() AND query ILIKE 'LISTEN%'`,
        )
      ).rows[0].n
    // Right after the loss (cache dropped, bypassed until listening again) and once both listen again alike.
    for (const resubscribed of [false, true]) {
      if (resubscribed) await expect.poll(listening, { timeout: 5_000, interval: 50 }).toBe(2)
      const next = resubscribed ? await cachedKey() : key
      const since = Date.now()
      await sql.query(`UPDATE api_keys SET revoked_at = now() WHERE prefix = $1`, [next.slice(0, 10)])
      const times = await Promise.all([refusedAfter(next, a, since), refusedAfter(next, b, since)])
      for (const ms of times) expect(ms).toBeLessThan(1_000)
    }
    const { rows: again } = await sql.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'interlingua-listen' AND datname = current_database()`,
    )
    expect(again[0].n).toBe(2)
  })

  /** Waits until at least `seconds` are left in the current UTC minute (a rate-limit window). */
  async function windowWithRoom(seconds) {
    const left = 60_000 - (Date.now() % 60_000)
    if (left < seconds * 1000) await sleep(left + 50)
  }

  it('a requests-a-minute limit set on the keys page holds across both instances', async () => {
    const key = await createKey(page, { rpm: '40' })
    await windowWithRoom(10)
    const statuses = []
    for (let i = 0; i < 60; i++) {
      const { status, error } = await chat(key, proxy)
      statuses.push(status)
      if (status === 429) expect(Number(error.headers.get('retry-after'))).toBeGreaterThan(0)
    }
    const served = statuses.filter((s) => s === 200).length
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([])
    // Never more than the limit; at most one block (⌈40 / 20⌉ = 2) held by the other instance refused early.
    expect(served).toBeLessThanOrEqual(40)
    expect(served).toBeGreaterThanOrEqual(38)
  })

  it('a tokens-a-minute limit holds across both instances (within the answers in flight)', async () => {
    const key = await createKey(page, { tpm: '300' })
    await windowWithRoom(10)
    let tokens = 0
    let largest = 0
    let refused = 0
    for (let i = 0; i < 40 && refused < 4; i++) {
      const { status, answer } = await chat(key, proxy)
      if (status === 429) refused++
      else {
        expect(status).toBe(200)
        const used = answer.usage.prompt_tokens + answer.usage.completion_tokens
        tokens += used
        largest = Math.max(largest, used)
      }
    }
    expect(refused).toBe(4)
    // Over by at most the answer each instance had in flight when the window ran out.
    expect(tokens).toBeGreaterThan(300 - 2 * largest)
    expect(tokens).toBeLessThanOrEqual(300 + 2 * largest)
  })

  it('usage through both instances is counted once per request, with "last used" written in the batch', async () => {
    const key = await createKey(page, { name: 'usage key' })
    for (let i = 0; i < 6; i++) expect((await chat(key, proxy)).status).toBe(200)
    // Both instances flush every second: the six requests arrive, and no more.
    const usage = async () =>
      (
        await sql.query(
          `SELECT sum(u.requests)::int AS requests, k.last_used_at IS NOT NULL AS used
           FROM api_keys k JOIN usage_daily u ON u.key_id = k.id WHERE k.prefix = $1 GROUP BY k.last_used_at`,
          [key.slice(0, 10)],
        )
      ).rows
    await expect.poll(usage, { timeout: 5_000, interval: 100 }).toEqual([{ requests: 6, used: true }])
    await sleep(1_100) // one more flush of each instance: still counted once
    expect(await usage()).toEqual([{ requests: 6, used: true }])
  })
})
