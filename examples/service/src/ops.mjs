/**
 * Operations: `GET /healthz` (the process is up), `GET /readyz` (the database answers and every migration is applied),
 * `GET /metrics` (Prometheus text format, prom-client; a bearer `METRICS_TOKEN` when set) — all without a session or
 * key — and one structured JSON log line per API request.
 *
 * Nothing here costs a request more than a few map look-ups: counters are kept in plain maps and handed to prom-client
 * when Prometheus scrapes; the two histograms (unlabelled: requests_total has the breakdown) observe once; log lines are
 * buffered and written once every 100 ms (a pipe's stdout is synchronous on Linux), never with a key, a code or a
 * prompt — the key's row id, the account id, the model, the status, the latency, the time to the first byte, tokens.
 */
import { readFileSync, write as writeFile } from 'node:fs'
import client from 'prom-client'
import { safeEqual } from './security.mjs'

const migrations = JSON.parse(readFileSync(new URL('../migrations/meta/_journal.json', import.meta.url), 'utf8'))
  .entries.length
const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

/**
 * A counter whose values live in a plain map and are read by prom-client at scrape time: `add(joined, n)` where
 * `joined` is the label values joined by NUL (no array or object per request).
 */
function mapCounter(registry, name, help, labelNames) {
  const values = new Map()
  new client.Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset()
      for (const [joined, value] of values) {
        const parts = joined.split('\u0000')
        this.inc(Object.fromEntries(labelNames.map((label, i) => [label, parts[i]])), value)
      }
    },
  })
  return (joined, n = 1) => {
    values.set(joined, (values.get(joined) ?? 0) + n)
  }
}

/**
 * Writes to stdout off the event loop: `process.stdout` is synchronous for pipes on Linux, so a log reader that falls
 * behind (a full pipe) would stop every request. Here one `fs.write` is in flight at a time on libuv's thread pool;
 * text that arrives meanwhile waits, and beyond 16 MiB waiting it is dropped (and how much is said once it flows).
 */
function stdoutWriter() {
  let waiting = []
  let size = 0
  let dropped = 0
  let busy = false
  let idle = []
  const next = () => {
    if (dropped) {
      waiting.push(`{"level":"warn","msg":"log lines dropped: stdout was not read","bytes":${dropped}}\n`)
      dropped = 0
    }
    if (waiting.length === 0) {
      busy = false
      for (const resolve of idle) resolve()
      idle = []
      return
    }
    busy = true
    const bytes = Buffer.from(waiting.join(''))
    waiting = []
    size = 0
    send(bytes, 0)
  }
  /** Writes `bytes` from `offset` on, all of it (a pipe may take part of a write; a non-blocking one may say EAGAIN). */
  const send = (bytes, offset) =>
    writeFile(1, bytes, offset, bytes.length - offset, null, (error, written) => {
      if (error?.code === 'EAGAIN') return setTimeout(() => send(bytes, offset), 10)
      if (!error && offset + written < bytes.length) return send(bytes, offset + written)
      next() // written, or stdout is gone (EPIPE): nothing more to do for these lines
    })
  const write = (text) => {
    if (size + text.length > 16 << 20) {
      dropped += text.length
      return
    }
    waiting.push(text)
    size += text.length
    if (!busy) next()
  }
  /** Resolves when everything given so far is written. */
  write.drained = () => (busy ? new Promise((resolve) => idle.push(resolve)) : Promise.resolve())
  return write
}

/**
 * @param {{ db: { query: Function }, keys?: { stats: object, usable: () => boolean }, limiter?: { stats: object },
 *   metricsToken?: string, logLevel?: string, write?: (text: string) => void }} options
 */
export function createOps({ db, keys, limiter, metricsToken, logLevel = 'info', write }) {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry })
  const requests = mapCounter(
    registry,
    'interlingua_requests_total',
    'API requests answered, by client format, model and status',
    ['format', 'model', 'status'],
  )
  const tokens = mapCounter(
    registry,
    'interlingua_tokens_total',
    'Tokens used, by kind (input, output, cached, reasoning) and model',
    ['kind', 'model'],
  )
  const upstreamErrors = mapCounter(
    registry,
    'interlingua_upstream_errors_total',
    'Failed answers from upstreams (timeouts, unreachable, 5xx, …), by upstream and error code',
    ['upstream', 'code'],
  )
  const buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
  const latency = new client.Histogram({
    name: 'interlingua_request_duration_seconds',
    help: 'API request duration to the end of the answer (streams included)',
    buckets,
    registers: [registry],
  })
  const firstByte = new client.Histogram({
    name: 'interlingua_time_to_first_byte_seconds',
    help: 'Time from an API request to the first byte of its answer (the status line and headers)',
    buckets,
    registers: [registry],
  })
  let open = 0
  new client.Gauge({
    name: 'interlingua_open_streams',
    help: 'Streamed answers in progress',
    registers: [registry],
    collect() {
      this.set(open)
    },
  })
  for (const [name, help, read] of [
    ['interlingua_key_cache_hits_total', 'Key checks answered from the in-memory cache', () => keys?.stats.hits ?? 0],
    ['interlingua_key_cache_misses_total', 'Key checks that read the database', () => keys?.stats.misses ?? 0],
    [
      'interlingua_key_cache_invalidations_total',
      'Keys or accounts dropped from the cache on a notification',
      () => keys?.stats.invalidations ?? 0,
    ],
    [
      'interlingua_rate_limit_leases_total',
      'Blocks of rate-limit allowances leased from the database',
      () => limiter?.stats.leases ?? 0,
    ],
  ])
    new client.Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset()
        this.inc(read())
      },
    })
  new client.Gauge({
    name: 'interlingua_key_cache_in_use',
    help: '1 while the key cache is in use (listening, heartbeat heard), else 0 (every key read from the database)',
    registers: [registry],
    collect() {
      this.set(keys?.usable() ? 1 : 0)
    },
  })

  // ── logs ─────────────────────────────────────────────────────────────────────────────────────────────────────────
  const threshold = levels[logLevel] ?? levels.info
  const out = write ?? stdoutWriter()
  let buffered = []
  /**
   * What waits for a request's first byte, by request id: its log line and its request-log row (a JSON answer's first
   * byte is written just after its `onResponse`). Forgotten every 100 ms.
   */
  let unwritten = new Map()
  const flushLogs = () => {
    if (buffered.length === 0) return
    const text = buffered.map((line) => `${JSON.stringify(line)}\n`).join('')
    buffered = []
    out(text)
  }
  const logTimer = setInterval(() => {
    flushLogs()
    unwritten = new Map()
  }, 100)
  logTimer.unref()
  function log(level, fields) {
    if (levels[level] < threshold) return
    fields.time = new Date().toISOString()
    fields.level = level
    buffered.push(fields)
    if (buffered.length >= 1000) flushLogs()
    return fields
  }

  // ── the gateway's hooks ──────────────────────────────────────────────────────────────────────────────────────────
  const firstBytes = new Map()
  const observe = {
    request(event) {
      if (event.stream) open++
    },
    /** `logged`: the request's row in the request log, if any (its first byte filled in here). */
    response(event, logged) {
      if (event.stream && !event.refused) open--
      const model = event.model ?? `(${event.kind})`
      requests(`${event.format}\u0000${model}\u0000${event.status}`)
      latency.observe(event.latencyMs / 1000)
      const usage = event.usage
      if (usage) {
        if (usage.inputTokens) tokens(`input\u0000${model}`, usage.inputTokens)
        if (usage.outputTokens) tokens(`output\u0000${model}`, usage.outputTokens)
        if (usage.cachedInputTokens) tokens(`cached\u0000${model}`, usage.cachedInputTokens)
        if (usage.reasoningTokens) tokens(`reasoning\u0000${model}`, usage.reasoningTokens)
      }
      // An upstream's failure: an HTTP error it caused (5xx, its 429) or an error inside a started stream — not the
      // client's own mistakes (400, 403, 404).
      const status = event.status
      if (event.error && event.upstream && !event.refused && (status >= 500 || status === 429 || status < 400))
        upstreamErrors(`${event.upstream}\u0000${event.error}`)
      const ttfb = firstBytes.get(event.requestId)
      firstBytes.delete(event.requestId)
      if (logged && ttfb !== undefined) logged.first_byte_ms = ttfb
      const level = event.status >= 500 ? 'error' : 'info'
      const line = levels[level] >= threshold ? requestLine(level, event, usage, ttfb) : undefined
      if (ttfb === undefined && (line || logged)) unwritten.set(event.requestId, [line, logged])
    },
  }
  /** The request's log line: the fields in a fixed order, absent ones left out. */
  function requestLine(level, event, usage, ttfb) {
    const line = {
      time: '',
      level,
      msg: 'request',
      requestId: event.requestId,
      kind: event.kind,
      format: event.format,
      model: event.model,
      upstream: event.upstream,
      stream: event.stream ?? false,
      status: event.status,
      error: event.error,
      refused: event.refused,
      latencyMs: event.latencyMs,
      firstByteMs: ttfb,
      keyId: event.caller?.id,
      accountId: event.caller?.accountId,
      inputTokens: usage?.inputTokens,
      outputTokens: usage?.outputTokens,
    }
    return log(level, line)
  }

  /**
   * Wraps the API listener: times the first byte (the status line and headers) of every answer. The request id comes
   * back in the `x-request-id` header, which keys the time for the log line.
   */
  function wrapApi(listener) {
    return (req, res) => {
      const started = performance.now()
      const writeHead = res.writeHead
      res.writeHead = function (status, ...rest) {
        const ms = performance.now() - started
        firstByte.observe(ms / 1000)
        const headers = rest.at(-1)
        const id = Array.isArray(headers) ? undefined : headers?.['x-request-id']
        if (id) {
          const rounded = Math.round(ms * 100) / 100
          const waiting = unwritten.get(id)
          if (waiting) {
            // A JSON answer: its line and row were made just before.
            const [line, logged] = waiting
            if (line) line.firstByteMs = rounded
            if (logged) logged.first_byte_ms = rounded
            unwritten.delete(id)
          } else {
            if (firstBytes.size > 10_000) firstBytes.clear() // answers whose request never reached the hooks
            firstBytes.set(id, rounded) // a stream: its line comes when it ends
          }
        }
        return writeHead.call(this, status, ...rest)
      }
      listener(req, res)
    }
  }

  // ── the endpoints ────────────────────────────────────────────────────────────────────────────────────────────────
  const send = (res, status, type, body, extra = {}) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...extra })
    res.end(body)
  }
  async function ready() {
    const timeout = new Promise((_, reject) =>
      setTimeout(() => reject(new Error('timed out after 2 s')), 2_000).unref(),
    )
    const [row] = await Promise.race([
      db.query('SELECT count(*)::int AS applied FROM drizzle.__drizzle_migrations'),
      timeout,
    ])
    if (row.applied < migrations) throw new Error(`${row.applied} of ${migrations} migrations applied`)
  }
  /** Answers `/healthz`, `/readyz` and `/metrics`; false for any other path. */
  function handle(req, res) {
    const path = (req.url ?? '/').split('?')[0]
    if (path === '/healthz') {
      send(res, 200, 'application/json', '{"status":"ok"}')
      return true
    }
    if (path === '/readyz') {
      ready().then(
        () => send(res, 200, 'application/json', '{"status":"ready"}'),
        (error) => {
          log('warn', { time: '', level: 'warn', msg: 'not ready', reason: error.message })
          send(res, 503, 'application/json', JSON.stringify({ status: 'unavailable', reason: 'database' }))
        },
      )
      return true
    }
    if (path === '/metrics') {
      const presented = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1]
      if (metricsToken && !(presented && safeEqual(presented, metricsToken))) {
        send(res, 401, 'text/plain; charset=utf-8', 'A bearer token (METRICS_TOKEN) is required.\n', {
          'www-authenticate': 'Bearer',
        })
        return true
      }
      registry.metrics().then(
        (text) => send(res, 200, registry.contentType, text),
        (error) => send(res, 500, 'text/plain; charset=utf-8', `metrics failed: ${error.message}\n`),
      )
      return true
    }
    return false
  }

  return {
    observe,
    wrapApi,
    handle,
    log,
    /** Stops the timer and writes the lines still buffered; resolves when they are out. */
    async close() {
      clearInterval(logTimer)
      flushLogs()
      await out.drained?.()
    },
  }
}
