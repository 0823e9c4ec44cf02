/**
 * Operations, over real HTTP on 127.0.0.1 on both databases: `/healthz` and `/readyz` (200, and 503 when the database
 * stops answering), `/metrics` behind METRICS_TOKEN, scraped after real SDK traffic and parsed with a Prometheus text
 * parser (requests by format, model and status; tokens by kind; latency and first-byte histograms; upstream errors; open
 * streams; the key cache at work), and the structured request log (one JSON line per request, never the key or the
 * prompt; LOG_LEVEL=warn keeps only errors).
 */
import { createServer } from 'node:http'
import OpenAI from 'openai'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createService } from '../src/app.mjs'
import { openDatabase } from '../src/db.mjs'
import { createOps } from '../src/ops.mjs'
import { entryFields } from '../src/request-log.mjs'
import { newApiKey, sha256 } from '../src/security.mjs'
import { testDatabase, testDatabases } from './support/databases.mjs'
import { listenService } from './support/processes.mjs'

const token = 'metrics-token-0123456789'

describe.each(testDatabases())('on %s', (kind) => {
  let database, db, service, closeServer, base, key, keyId, broken
  let logs = ''
  let brokenPort

  beforeAll(async () => {
    // An upstream that accepts the connection and closes it without an answer.
    broken = createServer((req) => req.socket.destroy())
    await new Promise((resolve) => broken.listen(0, '127.0.0.1', resolve))
    brokenPort = broken.address().port
    database = await testDatabase(kind)
    db = await openDatabase(database.config)
    const [{ id: accountId }] = await db.query(
      `INSERT INTO accounts (email, email_key) VALUES ('ops@example.com', 'ops@example.com') RETURNING id`,
    )
    key = newApiKey()
    ;[{ id: keyId }] = await db.query(
      'INSERT INTO api_keys (account_id, name, prefix, key_hash) VALUES ($1, $2, $3, $4) RETURNING id',
      [accountId, 'ops', key.slice(0, 10), sha256(key)],
    )
    ;({ base, close: closeServer } = await listenService(() => service))
    service = await createService({
      db: { ...db, query: (sql, params) => (db.down ? Promise.reject(new Error('down')) : db.query(sql, params)) },
      mailer: { send: async () => {}, logged: true },
      gatewayOptions: {
        upstreams: {
          mock: { format: 'mock' },
          broken: { format: 'chat-completions', baseURL: `http://127.0.0.1:${brokenPort}/v1`, apiKey: 'x' },
        },
        models: { 'interlingua-mock': { upstream: 'mock' }, 'broken-model': { upstream: 'broken' } },
      },
      models: [{ id: 'interlingua-mock', format: 'mock', supports: 'all' }],
      publicUrl: base,
      metricsToken: token,
      logWrite: (text) => {
        logs += text
      },
    })
  })
  afterAll(async () => {
    await closeServer?.()
    await new Promise((resolve) => broken?.close(resolve))
    await service?.close()
    await db?.close()
    await database?.cleanup()
  })

  const scrape = async () => {
    const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    return Object.fromEntries(parsePrometheusTextFormat(await response.text()).map((family) => [family.name, family]))
  }
  const value = (family, labels = {}) =>
    Number(
      family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value ?? Number.NaN,
    )

  it('/healthz and /readyz answer without a session or key; /readyz is 503 while the database does not answer', async () => {
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' })
    const ready = await fetch(`${base}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready' })
    db.down = true
    try {
      const down = await fetch(`${base}/readyz`)
      expect(down.status).toBe(503)
      expect(await down.json()).toEqual({ status: 'unavailable', reason: 'database' })
      expect((await fetch(`${base}/healthz`)).status).toBe(200)
    } finally {
      db.down = false
    }
  })

  it('/metrics wants the bearer METRICS_TOKEN', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401)
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401)
  })

  it('scraped after SDK traffic: requests, tokens, histograms, upstream errors, open streams, the key cache', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${base}/v1`, maxRetries: 0 })
    // On a PostgreSQL server the cache is used once the first heartbeat came back (src/keys.mjs).
    await expect.poll(async () => value((await scrape()).interlingua_key_cache_in_use)).toBe(1)
    const before = await scrape()
    const ask = { model: 'interlingua-mock', messages: [{ role: 'user', content: 'secret prompt 7f3a' }] }
    let input = 0
    let output = 0
    for (let i = 0; i < 3; i++) {
      const answer = await openai.chat.completions.create(ask)
      input += answer.usage.prompt_tokens
      output += answer.usage.completion_tokens
    }
    const stream = await openai.chat.completions.create({
      ...ask,
      stream: true,
      stream_options: { include_usage: true },
    })
    for await (const chunk of stream)
      if (chunk.usage) {
        input += chunk.usage.prompt_tokens
        output += chunk.usage.completion_tokens
      }
    const failed = await openai.chat.completions.create({ ...ask, model: 'broken-model' }).catch((error) => error)
    expect(failed.status).toBe(502)
    const refused = await new OpenAI({ apiKey: 'il-not-a-key', baseURL: `${base}/v1`, maxRetries: 0 }).models
      .list()
      .catch((error) => error)
    expect(refused.status).toBe(401)

    const after = await scrape()
    const ok = { format: 'chat-completions', model: 'interlingua-mock', status: '200' }
    const delta = (name, labels) => value(after[name], labels) - (value(before[name], labels) || 0)
    expect(delta('interlingua_requests_total', ok)).toBe(4)
    expect(delta('interlingua_requests_total', { model: 'broken-model', status: '502' })).toBe(1)
    expect(delta('interlingua_requests_total', { model: '(list-models)', status: '401' })).toBe(1)
    expect(delta('interlingua_tokens_total', { kind: 'input', model: 'interlingua-mock' })).toBe(input)
    expect(delta('interlingua_tokens_total', { kind: 'output', model: 'interlingua-mock' })).toBe(output)
    expect(value(after.interlingua_upstream_errors_total, { upstream: 'broken', code: 'upstream' })).toBe(1)
    expect(value(after.interlingua_open_streams)).toBe(0)
    const histogram = after.interlingua_request_duration_seconds.metrics[0]
    expect(Number(histogram.count)).toBeGreaterThanOrEqual(6)
    expect(Number(histogram.buckets['+Inf'])).toBe(Number(histogram.count))
    expect(Number(after.interlingua_time_to_first_byte_seconds.metrics[0].count)).toBeGreaterThanOrEqual(6)
    // Every key check counted (6: five with the key, one with a wrong one); the cache answered some of them — all but
    // the first, unless a busy machine delayed a heartbeat past 800 ms (then the database answers: slower, correct).
    expect(delta('interlingua_key_cache_hits_total') + delta('interlingua_key_cache_misses_total')).toBe(6)
    expect(delta('interlingua_key_cache_hits_total')).toBeGreaterThanOrEqual(1)
    expect(after.process_resident_memory_bytes).toBeDefined()
  })

  it('logs one JSON line per request — the key id, never the key or the prompt', async () => {
    await new Promise((resolve) => setTimeout(resolve, 250)) // lines are written every 100 ms
    const lines = logs
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    const requests = lines.filter((line) => line.msg === 'request')
    expect(requests.length).toBeGreaterThanOrEqual(6)
    const served = requests.filter((line) => line.status === 200 && line.model === 'interlingua-mock')
    expect(served.length).toBe(4)
    for (const line of served) {
      expect(line).toMatchObject({ level: 'info', format: 'chat-completions', keyId, upstream: 'mock' })
      expect(line.latencyMs).toBeGreaterThanOrEqual(0)
      expect(line.firstByteMs).toBeGreaterThanOrEqual(0)
      expect(line.inputTokens).toBeGreaterThan(0)
      expect(typeof line.requestId).toBe('string')
    }
    expect(requests.find((line) => line.status === 502)).toMatchObject({ level: 'error', upstream: 'broken' })
    expect(logs).not.toContain(key)
    expect(logs).not.toContain(key.slice(3))
    expect(logs).not.toContain('secret prompt')
  })

  it('writes a request-log entry per request of a key — a model name with quotes and backslashes too', async () => {
    const odd = 'no "such" \\ model\n'
    const openai = new OpenAI({ apiKey: key, baseURL: `${base}/v1`, maxRetries: 0 })
    expect((await openai.chat.completions.create({ model: odd, messages: [] }).catch((error) => error)).status).toBe(
      404,
    )
    await service.flushUsage()
    const rows = await db.query(
      `SELECT r.* FROM request_log_batches b,
         LATERAL (SELECT ${entryFields} FROM json_array_elements(b.entries::json) AS x(e)) r
       WHERE b.key_id = $1 ORDER BY r.at`,
      [keyId],
    )
    const served = rows.filter((row) => row.model === 'interlingua-mock' && row.status === 200)
    expect(served).toHaveLength(4)
    for (const row of served) {
      expect(row).toMatchObject({ format: 'chat-completions', kind: 'generate', upstream: 'mock' })
      expect(row.first_byte_ms).toBeGreaterThanOrEqual(0)
      expect(row.first_byte_ms).toBeLessThanOrEqual(row.latency_ms)
      expect(row.input_tokens).toBeGreaterThan(0)
    }
    expect(served.filter((row) => row.stream)).toHaveLength(1)
    expect(rows.find((row) => row.status === 404)).toMatchObject({ model: odd, upstream: null })
    await new Promise((resolve) => setTimeout(resolve, 250))
    const line = logs
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text))
      .find((entry) => entry.status === 404)
    expect(line).toMatchObject({ model: odd, keyId })
  })
})

it('LOG_LEVEL=warn writes only the errors', async () => {
  let text = ''
  const ops = createOps({ db: { query: async () => [] }, logLevel: 'warn', write: (t) => (text += t) })
  const event = { requestId: 'r1', format: 'messages', kind: 'generate', model: 'm', status: 200, latencyMs: 3 }
  ops.observe.response(event)
  ops.observe.response({ ...event, requestId: 'r2', status: 503, error: 'upstream', upstream: 'u' })
  ops.close()
  const lines = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatchObject({ level: 'error', requestId: 'r2', status: 503 })
})

it('each request line has its own fields, whatever the line before it shared (made from cached parts)', async () => {
  let text = ''
  const ops = createOps({ db: { query: async () => [] }, write: (t) => (text += t) })
  const one = { id: 'k1', accountId: 'a1' }
  const two = { id: 'k2', accountId: 'a2' }
  const base = { format: 'chat-completions', kind: 'generate', model: 'm "1"\n', upstream: 'mock', status: 200 }
  const events = [
    { ...base, requestId: 'r1', caller: one, latencyMs: 3, firstByteMs: 3, usage: { inputTokens: 5, outputTokens: 2 } },
    { ...base, requestId: 'r2', caller: one, stream: true, latencyMs: 9, firstByteMs: 1 },
    { ...base, requestId: 'r3', caller: two, upstream: 'other', latencyMs: 4 },
    { ...base, requestId: 'r4', format: 'messages', status: 503, error: 'upstream', latencyMs: 5 },
    { ...base, requestId: 'r5', kind: 'list-models', model: undefined, upstream: undefined, caller: two, latencyMs: 1 },
    { ...base, requestId: 'r6', model: 'ü', upstream: undefined, status: 401, refused: 'authentication', latencyMs: 0 },
    { ...base, requestId: 'r7', caller: one, latencyMs: 2 },
  ]
  for (const event of events) ops.observe.response(event)
  await ops.close()
  const lines = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
  const expected = events.map(({ caller, usage, ...event }) => ({
    level: event.status >= 500 ? 'error' : 'info',
    msg: 'request',
    ...event,
    ...(event.model === undefined ? {} : { model: event.model }),
    stream: event.stream === true,
    ...(caller ? { keyId: caller.id, accountId: caller.accountId } : {}),
    ...(usage ?? {}),
  }))
  for (const entry of expected) for (const name of Object.keys(entry)) if (entry[name] === undefined) delete entry[name]
  expect(lines.map(({ time, ...line }) => line)).toEqual(expected)
  for (const line of lines) expect(Date.parse(line.time)).toBeGreaterThan(Date.now() - 60_000)
})

it('labels metrics with listed models and models answered, at most maxModelLabels; made-up names are (other)', async () => {
  const ops = createOps({ db: { query: async () => [] }, write: () => {}, models: ['listed'], maxModelLabels: 2 })
  const base = { format: 'chat-completions', kind: 'generate', latencyMs: 1, firstByteMs: 1 }
  const events = [
    ...Array.from({ length: 50 }, (_, i) => ({ model: `made-up-${i}`, status: 404 })),
    { model: 'listed', status: 400 },
    { model: 'routed-a', status: 200, usage: { inputTokens: 2, outputTokens: 3 } },
    { model: 'routed-a', status: 404 },
    { model: 'routed-b', status: 502 },
    { model: 'routed-c', status: 200, usage: { inputTokens: 1, outputTokens: 1 } },
    { model: undefined, kind: 'list-models', status: 200 },
  ]
  for (const [i, event] of events.entries()) ops.observe.response({ ...base, requestId: `r${i}`, ...event })
  const text = await new Promise((resolve, reject) => {
    const res = { writeHead: () => {}, end: resolve }
    if (!ops.handle({ url: '/metrics', headers: {} }, res)) reject(new Error('/metrics not handled'))
  })
  await ops.close()
  const families = Object.fromEntries(parsePrometheusTextFormat(text).map((family) => [family.name, family]))
  const series = (name) =>
    families[name].metrics.map((metric) => [
      metric.labels.model,
      metric.labels.status ?? metric.labels.kind,
      metric.value,
    ])
  expect(series('interlingua_requests_total').sort()).toEqual(
    [
      ['(other)', '404', '50'],
      ['listed', '400', '1'],
      ['routed-a', '200', '1'],
      ['routed-a', '404', '1'],
      ['routed-b', '502', '1'],
      ['(other)', '200', '1'],
      ['(list-models)', '200', '1'],
    ].sort(),
  )
  expect(series('interlingua_tokens_total').sort()).toEqual(
    [
      ['routed-a', 'input', '2'],
      ['routed-a', 'output', '3'],
      ['(other)', 'input', '1'],
      ['(other)', 'output', '1'],
    ].sort(),
  )
})
