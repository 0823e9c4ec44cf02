/**
 * The request log's storage by batch (src/request-log.mjs), on both databases: the `/logs` page shows the account's
 * latest 100 requests, newest first, across several batches of two keys (and when a batch's requests are older than
 * its neighbours'); the periodic clean-up deletes whole batches past LOG_RETENTION_DAYS; rows of the old per-request
 * table are carried into batches by the migration.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createService } from '../src/app.mjs'
import { openDatabase } from '../src/db.mjs'
import { createRequestLog, entryFields } from '../src/request-log.mjs'
import { startCleanup } from '../src/usage.mjs'
import { browser, createKey, signUp } from './support/client.mjs'
import { testDatabase, testDatabases } from './support/databases.mjs'
import { listenService } from './support/processes.mjs'

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
/** The rows of the `/logs` page: key name, model, status. */
const pageRows = (html) =>
  [
    ...html.matchAll(
      /data-label="Key"><span class="name">([^<]*)<\/span><\/td><td data-label="Model"><code>([^<]*)<\/code>/g,
    ),
  ].map(([, key, model]) => `${key} ${model}`)
/** A batch's entry as the service writes it. */
const entry = (at, model) => [at, 'generate', 'chat-completions', model, 'mock', false, 200, 1, null, 1, 1]

describe('collecting and writing (a database stand-in that records the statements)', () => {
  const caller = (id) => ({ id, accountId: `account-${id}` })
  const event = (model) => ({ kind: 'generate', format: 'messages', latencyMs: 3.4, status: 200, model, usage: {} })
  /** The rows each write sent: [key id, requests, the entries' models]. */
  const sentRows = (params) =>
    Array.from({ length: params.length / 6 }, (_, i) => params.slice(6 * i, 6 * i + 6)).map(
      ([, keyId, , , requests, entries]) => [keyId, Number(requests), JSON.parse(entries).map((entry) => entry[3])],
    )
  function recorder() {
    const writes = []
    let failure
    return {
      writes,
      failWith: (error) => {
        failure = error
      },
      query: async (sql, params) => {
        if (failure) {
          const error = failure
          failure = undefined
          throw error
        }
        writes.push(sentRows(params))
        return []
      },
    }
  }

  it('a row per key and write, at most perRow requests a row; a failed write is sent again with the next', async () => {
    const db = recorder()
    const log = createRequestLog(db, { perRow: 2 })
    for (const [key, model] of [
      ['a', 'm1'],
      ['b', 'm2'],
      ['a', 'm3'],
      ['a', 'm4'],
    ])
      log.add(caller(key), event(model), model)
    db.failWith(new Error('connection reset'))
    await log.write()
    expect(db.writes).toEqual([])
    log.add(caller('b'), event('m5'), 'm5')
    await log.write()
    expect(db.writes).toEqual([
      [
        ['a', 2, ['m1', 'm3']],
        ['b', 1, ['m2']],
        ['a', 1, ['m4']],
        ['b', 1, ['m5']],
      ],
    ])
    await log.write() // nothing left
    expect(db.writes).toHaveLength(1)
  })

  it('at most maxPending requests wait (the rest dropped), an integrity error drops the batch; 0 days: nothing', async () => {
    const db = recorder()
    const log = createRequestLog(db, { maxPending: 3 })
    for (let i = 0; i < 5; i++) log.add(caller('a'), event(`m${i}`), `m${i}`)
    db.failWith(Object.assign(new Error('foreign key'), { code: '23503' }))
    await log.write()
    log.add(caller('a'), event('m5'), 'm5')
    await log.write()
    expect(db.writes).toEqual([[['a', 1, ['m5']]]])
    const off = recorder()
    const none = createRequestLog(off, { retentionDays: 0 })
    none.add(caller('a'), event('m'), 'm')
    await none.write()
    expect(off.writes).toEqual([])
  })

  it('a write of more than 1000 batches takes several statements; a failure keeps only the batches not written', async () => {
    const db = recorder()
    const log = createRequestLog(db)
    for (let i = 0; i < 1001; i++) log.add(caller(`k${i}`), event(`m${i}`), `m${i}`)
    const query = db.query
    let statements = 0
    db.query = async (sql, params) => {
      if (++statements === 2) throw new Error('connection reset')
      return query(sql, params)
    }
    await log.write()
    expect(db.writes.map((rows) => rows.length)).toEqual([1000])
    await log.write()
    expect(db.writes.map((rows) => rows.length)).toEqual([1000, 1])
    expect(db.writes[1]).toEqual([['k1000', 1, ['m1000']]])
  })

  it('the maxPending bound counts the requests kept from a failed write', async () => {
    const db = recorder()
    const log = createRequestLog(db, { maxPending: 3 })
    for (let i = 0; i < 5; i++) log.add(caller('a'), event(`m${i}`), `m${i}`)
    db.failWith(new Error('timeout'))
    await log.write()
    log.add(caller('b'), event('x'), 'x')
    await log.write()
    expect(db.writes).toEqual([[['a', 3, ['m0', 'm1', 'm2']]]])
  })
})

describe.each(testDatabases())('on %s', (kind) => {
  let closeServer, db, base, database, service, page, accountId, keyIds
  const codes = new Map()

  beforeAll(async () => {
    database = await testDatabase(kind)
    db = await openDatabase(database.config)
    ;({ base, close: closeServer } = await listenService(() => service))
    service = await createService({
      db,
      mailer: { send: async (to, code) => codes.set(to.toLowerCase(), code), logged: true },
      gatewayOptions: {},
      models: [{ id: 'interlingua-mock', format: 'mock', supports: 'all' }],
      publicUrl: base,
      logLevel: 'warn',
      keyRateLimit: 10_000,
      usageFlushMs: 3_600_000, // batches written when the test says so (flushUsage)
    })
    page = await signUp(browser(base), { codeFor: (email) => codes.get(email.toLowerCase()) }, 'logs@example.com')
    ;[{ id: accountId }] = await db.query(`SELECT id FROM accounts WHERE email = 'logs@example.com'`)
  })
  afterAll(async () => {
    await closeServer?.()
    await service?.close()
    await db?.close()
    await database?.cleanup()
  })

  it('/logs shows the latest 100 requests across several batches of two keys, newest first', async () => {
    const alpha = await createKey(page, { name: 'alpha' })
    const beta = await createKey(page, { name: 'beta' })
    keyIds = (await db.query('SELECT id FROM api_keys WHERE account_id = $1 ORDER BY name', [accountId])).map(
      (r) => r.id,
    )
    const clients = { alpha, beta }
    const sent = []
    // Three writes; in each, both keys' requests interleaved (their batches overlap in time). Each request is told
    // apart by its model's name (the mock model answers to any).
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 50; i++) {
        const name = i % 3 === 0 ? 'beta' : 'alpha'
        const model = `m-${round}-${i}`
        const openai = new OpenAI({ apiKey: clients[name], baseURL: `${base}/v1`, maxRetries: 0 })
        await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
        sent.push(`${name} ${model}`)
        await sleep(2) // starts a millisecond apart at least: their order is the log's
      }
      await service.flushUsage()
    }
    const batches = await db.query(
      'SELECT key_id, requests FROM request_log_batches WHERE account_id = $1 ORDER BY last_at',
      [accountId],
    )
    expect(batches).toHaveLength(6)
    expect(batches.reduce((sum, batch) => sum + batch.requests, 0)).toBe(150)
    const logs = await page.go('/logs')
    expect(logs.status).toBe(200)
    expect(logs.html).toContain('Your last 100 requests')
    expect(pageRows(logs.html)).toEqual(sent.slice(-100).reverse())
  })

  it('/logs finds the latest requests in a batch whose last request is older than its neighbours’ first ones', async () => {
    await service.flushUsage()
    await db.query('DELETE FROM request_log_batches WHERE account_id = $1', [accountId])
    const [alpha, beta] = keyIds
    const t = Date.now() - 60_000
    const insert = (keyId, entries) =>
      db.query(
        `INSERT INTO request_log_batches (account_id, key_id, first_at, last_at, requests, entries)
         VALUES ($1, $2, to_timestamp($3::float8 / 1000), to_timestamp($4::float8 / 1000), $5, $6)`,
        [
          accountId,
          keyId,
          String(Math.min(...entries.map((e) => e[0]))),
          String(Math.max(...entries.map((e) => e[0]))),
          entries.length,
          JSON.stringify(entries),
        ],
      )
    // A busy second of alpha (150 requests, one every 10 ms), a long request of beta that began before it and ended
    // inside it, and one more request of alpha after it: the latest two batches by last request hold 151, but the
    // latest 100 include beta's.
    await insert(
      alpha,
      Array.from({ length: 150 }, (_, i) => entry(t + i * 10, `a-${i}`)),
    )
    await insert(beta, [entry(t - 5_000, 'b-early'), entry(t + 1485, 'b-late')])
    await insert(alpha, [entry(t + 1495, 'a-last')])
    const rows = pageRows((await page.go('/logs')).html)
    const expected = [
      'alpha a-last',
      'alpha a-149',
      'beta b-late',
      ...Array.from({ length: 97 }, (_, i) => `alpha a-${148 - i}`),
    ]
    expect(rows).toEqual(expected)
  })

  it('a key’s batches are found by an index (deleting an account deletes its keys, and their batches by key_id)', async () => {
    // The first column of each index on the table: without one led by key_id, every deleted key scans every batch.
    const leading = await db.query(
      `SELECT a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0]
       WHERE c.relname = 'request_log_batches' ORDER BY 1`,
    )
    expect(leading.map((row) => row.attname)).toEqual(['account_id', 'id', 'key_id', 'last_at'])
  })

  it('the clean-up deletes the batches whose last request is past the retention, whole', async () => {
    await db.query('DELETE FROM request_log_batches WHERE account_id = $1', [accountId])
    const [alpha] = keyIds
    const day = 86_400_000
    const now = Date.now()
    for (const [first, last, model] of [
      [now - 9 * day, now - 8 * day, 'gone'],
      [now - 8 * day, now - 6 * day, 'kept-straddling'],
      [now - 1000, now - 500, 'kept-recent'],
    ])
      await db.query(
        `INSERT INTO request_log_batches (account_id, key_id, first_at, last_at, requests, entries)
         VALUES ($1, $2, to_timestamp($3::float8 / 1000), to_timestamp($4::float8 / 1000), 2, $5)`,
        [accountId, alpha, String(first), String(last), JSON.stringify([entry(first, model), entry(last, model)])],
      )
    const cleanup = startCleanup(db, { retentionDays: 7, everyMs: 3_600_000 })
    cleanup.stop()
    await cleanup.run()
    const models = await db.query(
      `SELECT DISTINCT r.model FROM request_log_batches b,
         LATERAL (SELECT ${entryFields} FROM json_array_elements(b.entries::json) AS x(e)) r
       WHERE b.account_id = $1 ORDER BY 1`,
      [accountId],
    )
    expect(models.map((row) => row.model)).toEqual(['kept-recent', 'kept-straddling'])
    expect(pageRows((await page.go('/logs')).html)).toEqual([
      'alpha kept-recent',
      'alpha kept-recent',
      'alpha kept-straddling',
      'alpha kept-straddling',
    ])
  })
})

describe.each(testDatabases())('the migration to batches, on %s', (kind) => {
  let database, folder
  beforeAll(async () => {
    database = await testDatabase(kind, { empty: true })
    // The migrations up to the per-request table (0003), applied as an older service did.
    const migrations = fileURLToPath(new URL('../migrations/', import.meta.url))
    folder = mkdtempSync(join(tmpdir(), 'migrations-'))
    cpSync(migrations, folder, { recursive: true })
    const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8'))
    journal.entries = journal.entries.filter((e) => e.idx <= 3)
    writeFileSync(join(folder, 'meta/_journal.json'), JSON.stringify(journal))
  })
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true })
    await database?.cleanup()
  })

  it('carries the request_log rows into batches (per key and minute) with every field', async () => {
    const { drizzle } = await import(kind === 'postgres' ? 'drizzle-orm/node-postgres' : 'drizzle-orm/pglite')
    const { migrate } = await import(
      kind === 'postgres' ? 'drizzle-orm/node-postgres/migrator' : 'drizzle-orm/pglite/migrator'
    )
    let client
    if (kind === 'postgres') {
      const { default: pg } = await import('pg')
      client = new pg.Client({ connectionString: database.config.databaseUrl })
      await client.connect()
    } else {
      const { PGlite } = await import('@electric-sql/pglite')
      client = await PGlite.create(database.config.dataDir)
    }
    await migrate(drizzle({ client }), { migrationsFolder: folder })
    await client.query(
      `WITH a AS (INSERT INTO accounts (email, email_key) VALUES ('old@example.com', 'old@example.com') RETURNING id),
       k AS (INSERT INTO api_keys (account_id, name, prefix, key_hash) SELECT id, 'old', 'il-old', 'h' FROM a RETURNING id, account_id)
       INSERT INTO request_log (account_id, key_id, at, kind, format, model, upstream, stream, status, latency_ms,
         first_byte_ms, input_tokens, output_tokens)
       SELECT account_id, id, '2026-11-27T10:00:01.5Z'::timestamptz, 'generate', 'messages', 'old "model"', 'mock', true, 200, 12, 3, 7, 9 FROM k
       UNION ALL SELECT account_id, id, '2026-11-27T10:00:30Z', 'list-models', 'responses', '(model list)', NULL, false, 401, 1, NULL, 0, 0 FROM k
       UNION ALL SELECT account_id, id, '2026-11-27T10:01:00Z', 'generate', 'chat-completions', 'm', 'mock', false, 200, 2, NULL, 1, 2 FROM k`,
    )
    await (kind === 'postgres' ? client.end() : client.close())
    const db = await openDatabase(database.config)
    try {
      expect(await db.query(`SELECT to_regclass('public.request_log') AS t`)).toEqual([{ t: null }])
      const batches = await db.query('SELECT requests FROM request_log_batches ORDER BY last_at')
      expect(batches.map((b) => b.requests)).toEqual([2, 1])
      const rows = await db.query(
        `SELECT r.* FROM request_log_batches b,
           LATERAL (SELECT ${entryFields} FROM json_array_elements(b.entries::json) AS x(e)) r ORDER BY r.at`,
      )
      expect(rows.map((row) => ({ ...row, at: new Date(row.at).toISOString() }))).toEqual([
        {
          at: '2026-11-27T10:00:01.500Z',
          kind: 'generate',
          format: 'messages',
          model: 'old "model"',
          upstream: 'mock',
          stream: true,
          status: 200,
          latency_ms: 12,
          first_byte_ms: 3,
          input_tokens: 7,
          output_tokens: 9,
        },
        {
          at: '2026-11-27T10:00:30.000Z',
          kind: 'list-models',
          format: 'responses',
          model: '(model list)',
          upstream: null,
          stream: false,
          status: 401,
          latency_ms: 1,
          first_byte_ms: null,
          input_tokens: 0,
          output_tokens: 0,
        },
        {
          at: '2026-11-27T10:01:00.000Z',
          kind: 'generate',
          format: 'chat-completions',
          model: 'm',
          upstream: 'mock',
          stream: false,
          status: 200,
          latency_ms: 2,
          first_byte_ms: null,
          input_tokens: 1,
          output_tokens: 2,
        },
      ])
    } finally {
      await db.close()
    }
  })
})
