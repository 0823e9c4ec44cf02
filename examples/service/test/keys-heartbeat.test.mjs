/**
 * The key cache's heartbeat on a real PostgreSQL server (src/keys.mjs): pings run while keys are checked and stop when
 * the instance is idle; the first check after an idle spell reads the database (the cache is not trusted on an old
 * heartbeat), starts the pings again, and the cache answers once one is heard. Short periods here (50 ms pings, 250 ms
 * stale bound, 500 ms idle) so the test takes a few seconds; the service uses 200 ms, 800 ms and 10 s. A listening
 * connection that stalls without an error (its backend stopped with SIGSTOP: the socket stays open, nothing arrives)
 * is given up after `reopenMs` and another is opened; the cache is in use again on it.
 */
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openDatabase } from '../src/db.mjs'
import { createKeyCache, keysChannel } from '../src/keys.mjs'
import { newApiKey, sha256 } from '../src/security.mjs'
import { testDatabase, testDatabases } from './support/databases.mjs'

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const onServer = testDatabases().includes('postgres')

let db, cache, listener, key
const pings = []

beforeAll(async () => {
  if (!onServer) return
  const database = await testDatabase('postgres')
  db = await openDatabase(database.config)
  const [{ id: accountId }] = await db.query(
    `INSERT INTO accounts (email, email_key) VALUES ('beat@example.com', 'beat@example.com') RETURNING id`,
  )
  key = newApiKey()
  await db.query('INSERT INTO api_keys (account_id, name, prefix, key_hash) VALUES ($1, $2, $3, $4)', [
    accountId,
    'beat',
    key.slice(0, 10),
    sha256(key),
  ])
  // What the instance sends on the channel, heard by a connection of the test's own.
  listener = new pg.Client({ connectionString: database.config.databaseUrl })
  await listener.connect()
  listener.on('notification', (message) => {
    if (message.payload?.startsWith('ping:')) pings.push(Date.now())
  })
  await listener.query(`LISTEN ${keysChannel}`)
  cache = createKeyCache(db, { heartbeatMs: 50, staleMs: 250, idleMs: 500 })
})

afterAll(async () => {
  await cache?.close()
  await listener?.end()
  await db?.close()
})

const pingsDuring = async (ms) => {
  const before = pings.length
  await sleep(ms)
  return pings.length - before
}

it.skipIf(!onServer)(
  'pings while keys are checked, none while idle; after idle the database answers first',
  async () => {
    // From the start: pings, the cache in use once one is heard.
    await expect.poll(() => cache.usable(), { timeout: 5_000, interval: 20 }).toBe(true)
    expect((await cache.lookup(key))?.id).toBeDefined()
    expect(cache.stats.misses).toBe(1)
    await expect.poll(async () => (await cache.lookup(key)) && cache.stats.hits, { interval: 20 }).toBeGreaterThan(0)

    // Checked every 100 ms: the pings go on past the idle bound.
    for (let i = 0; i < 8; i++) {
      await cache.lookup(key)
      await sleep(100)
    }
    expect(await pingsDuring(300)).toBeGreaterThanOrEqual(3)

    // Idle: the pings stop (those in flight arrive within a moment).
    await sleep(700)
    expect(await pingsDuring(600)).toBe(0)
    expect(cache.usable()).toBe(true) // the gauge: idle, not broken

    // The next check reads the database — the last heartbeat heard is too old to trust the cached record — and the
    // pings start again; the cache answers once one is heard.
    const misses = cache.stats.misses
    const hits = cache.stats.hits
    expect((await cache.lookup(key))?.id).toBeDefined()
    expect(cache.stats.misses).toBe(misses + 1)
    expect(cache.stats.hits).toBe(hits)
    expect(await pingsDuring(200)).toBeGreaterThanOrEqual(2)
    await expect
      .poll(async () => (await cache.lookup(key)) && cache.stats.hits, { timeout: 2_000, interval: 20 })
      .toBeGreaterThan(hits)
  },
)

it.skipIf(!onServer)(
  'a listening connection that stalls without an error is given up and another opened; the cache works again',
  async () => {
    const listeners = async () =>
      (
        await db.query(
          `SELECT pid FROM pg_stat_activity WHERE application_name = 'interlingua-listen' AND datname = current_database() AND query ILIKE 'LISTEN%'`,
        )
      ).map((row) => row.pid)
    const before = new Set(await listeners())
    const stalling = createKeyCache(db, { heartbeatMs: 50, staleMs: 250, idleMs: 10_000, reopenMs: 600 })
    let stalled
    const errors = []
    const original = console.error
    console.error = (...args) => errors.push(args.join(' '))
    try {
      await expect
        .poll(async () => (await listeners()).filter((pid) => !before.has(pid)), { interval: 20 })
        .toHaveLength(1)
      ;[stalled] = (await listeners()).filter((pid) => !before.has(pid))
      const hitsAfter = async (hits) => {
        await expect
          .poll(async () => (await stalling.lookup(key)) && stalling.stats.hits, { timeout: 5_000, interval: 25 })
          .toBeGreaterThan(hits)
      }
      await hitsAfter(0)

      process.kill(stalled, 'SIGSTOP')
      const stoppedAt = Date.now()
      // Keys checked all along (the heartbeat runs while they are): the cache is bypassed once the pings stop being
      // heard, then the connection is given up and another opened.
      await expect
        .poll(async () => (await stalling.lookup(key)) && stalling.stats.resubscriptions, {
          timeout: 5_000,
          interval: 25,
        })
        .toBe(1)
      expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(600)
      expect(errors.join('\n')).toContain('opening another listening connection')
      await expect
        .poll(async () => (await listeners()).filter((pid) => !before.has(pid) && pid !== stalled), { interval: 20 })
        .toHaveLength(1)
      await expect.poll(async () => (await stalling.lookup(key)) && stalling.usable(), { timeout: 5_000 }).toBe(true)
      await hitsAfter(stalling.stats.hits)
      expect(stalling.stats.resubscriptions).toBe(1)
    } finally {
      console.error = original
      if (stalled) {
        process.kill(stalled, 'SIGCONT')
        await db.query('SELECT pg_terminate_backend($1)', [stalled])
      }
      await stalling.close()
    }
  },
)
