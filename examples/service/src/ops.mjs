/**
 * Operations: `GET /healthz` (the process is up), `GET /readyz` (the database answers and every migration is applied),
 * `GET /metrics` (Prometheus text format, prom-client; a bearer `METRICS_TOKEN` when set) — all without a session or
 * key — and one structured JSON log line per API request.
 *
 * Nothing here costs a request more than a few map look-ups: counters and histogram buckets are kept in plain maps and
 * arrays and handed to prom-client when Prometheus scrapes; a request's log line is made once, when its answer is
 * done (from the gateway's `onResponse`, which carries the time to the first byte), encoded into buffers outside the
 * heap and written once every 100 ms (a pipe's stdout is synchronous on Linux: see `stdoutWriter`) — never with a key,
 * a code or a prompt: the key's row id, the account id, the model, the status, the latency, the time to the first
 * byte, tokens.
 */
import { readFileSync, writev } from 'node:fs'
import client from 'prom-client'
import { safeEqual } from './security.mjs'
import { textChunks } from './text-chunks.mjs'

const migrations = JSON.parse(readFileSync(new URL('../migrations/meta/_journal.json', import.meta.url), 'utf8'))
  .entries.length
const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

/**
 * A counter of two or three labels whose values live in nested maps (a level per label, keyed by the values as given:
 * the request's own strings and numbers) and are read by prom-client at scrape time: `add(n, a, b[, c])` — no joined
 * key string to make and hash per request, no array or object.
 */
function mapCounter(registry, name, help, labelNames) {
  const root = new Map()
  new client.Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset()
      const walk = (map, values) => {
        for (const [key, value] of map) {
          if (value instanceof Map) walk(value, [...values, key])
          else this.inc(Object.fromEntries(labelNames.map((label, i) => [label, String([...values, key][i])])), value)
        }
      }
      walk(root, [])
    },
  })
  const level = (map, key) => {
    let next = map.get(key)
    if (next === undefined) {
      next = new Map()
      map.set(key, next)
    }
    return next
  }
  const add = (map, key, n) => map.set(key, (map.get(key) ?? 0) + n)
  return labelNames.length === 2
    ? (n, a, b) => add(level(root, a), b, n)
    : (n, a, b, c) => add(level(level(root, a), b), c, n)
}

/**
 * An unlabelled histogram whose buckets are a plain array (prom-client's `observe` hashes a label set per call): read by
 * prom-client at scrape time. Returns `observe(seconds)`.
 */
function arrayHistogram(registry, name, help, bounds) {
  const counts = new Float64Array(bounds.length + 1)
  let sum = 0
  registry.registerMetric({
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    reset() {},
    get() {
      const values = []
      let cumulative = 0
      for (let i = 0; i <= bounds.length; i++) {
        cumulative += counts[i]
        values.push({
          metricName: `${name}_bucket`,
          labels: { le: i < bounds.length ? bounds[i] : '+Inf' },
          value: cumulative,
        })
      }
      values.push(
        { metricName: `${name}_sum`, labels: {}, value: sum },
        { metricName: `${name}_count`, labels: {}, value: cumulative },
      )
      return { name, help, type: 'histogram', values, aggregator: 'sum' }
    },
  })
  return (value) => {
    let i = 0
    while (i < bounds.length && value > bounds[i]) i++
    counts[i]++
    sum += value
  }
}

/**
 * Writes to stdout off the event loop: `process.stdout` is synchronous for pipes on Linux, so a log reader that falls
 * behind (a full pipe) would stop every request. Here one `fs.writev` of the waiting buffers (as they are, not joined)
 * is in flight at a time on libuv's thread pool; text that arrives meanwhile waits, and beyond 16 MiB waiting it is
 * dropped (and how much is said once it flows).
 */
function stdoutWriter() {
  let waiting = []
  let size = 0
  let dropped = 0
  let busy = false
  let idle = []
  const next = () => {
    if (dropped) {
      waiting.push(Buffer.from(`{"level":"warn","msg":"log lines dropped: stdout was not read","bytes":${dropped}}\n`))
      dropped = 0
    }
    if (waiting.length === 0) {
      busy = false
      for (const resolve of idle) resolve()
      idle = []
      return
    }
    busy = true
    const buffers = waiting
    waiting = []
    size = 0
    send(buffers)
  }
  /** Writes all of `buffers` (a pipe may take part of a write; a non-blocking one may say EAGAIN). */
  const send = (buffers) =>
    writev(1, buffers, null, (error, written) => {
      if (error?.code === 'EAGAIN') return setTimeout(() => send(buffers), 10)
      if (!error) {
        let i = 0
        while (i < buffers.length && written >= buffers[i].length) written -= buffers[i++].length
        if (i < buffers.length) return send([buffers[i].subarray(written), ...buffers.slice(i + 1)])
      }
      next() // written, or stdout is gone (EPIPE): nothing more to do for these lines
    })
  /** Takes buffers of whole lines. */
  const write = (buffers) => {
    for (const buffer of buffers) {
      if (size + buffer.length > 16 << 20) {
        dropped += buffer.length
        continue
      }
      waiting.push(buffer)
      size += buffer.length
    }
    if (!busy) next()
  }
  write.buffers = true
  /** Resolves when everything given so far is written. */
  write.drained = () => (busy ? new Promise((resolve) => idle.push(resolve)) : Promise.resolve())
  return write
}

/**
 * @param {{ db: { query: Function }, keys?: { stats: object, usable: () => boolean }, limiter?: { stats: object },
 *   metricsToken?: string, logLevel?: string, write?: (text: string) => void, settle?: () => void,
 *   models?: string[], maxModelLabels?: number }} options
 *   `settle`: called before a scrape — the answers' bookkeeping, done in batches (src/gateway.mjs), done now.
 *   `models`: the models the service lists, always labels of their own (see `modelLabel`).
 */
export function createOps({
  db,
  keys,
  limiter,
  metricsToken,
  logLevel = 'info',
  write,
  settle,
  models = [],
  maxModelLabels = 1000,
}) {
  const registry = new client.Registry()
  // The event-loop lag histogram samples every 100 ms, not prom-client's 10 ms: a timer a hundred times a second was half
  // of an idle instance's CPU; ten a second still catch a blocked loop (and the lag gauge is measured at each scrape).
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 })
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
  const latency = arrayHistogram(
    registry,
    'interlingua_request_duration_seconds',
    'API request duration to the end of the answer (streams included)',
    buckets,
  )
  const firstByte = arrayHistogram(
    registry,
    'interlingua_time_to_first_byte_seconds',
    'Time from an API request to the first byte of its answer (the status line and headers)',
    buckets,
  )
  /**
   * A request's model as a metric label. The client names the model, and every label value is a series kept until the
   * process ends: a model becomes a label when the service lists it, or when an answer for it was not a client error
   * (an unknown model is a 404) — at most `maxModelLabels` of those. Any other name is `(other)`, so a scan of made-up
   * names does not grow /metrics. Listings and token counts are labelled by their kind, `(list-models)`.
   */
  const labelled = new Set(models)
  let admitted = 0
  const modelLabel = (event) => {
    const model = event.model
    if (model === undefined) return `(${event.kind})`
    if (labelled.has(model)) return model
    if ((event.status >= 400 && event.status < 500) || admitted >= maxModelLabels) return '(other)'
    admitted++
    labelled.add(model)
    return model
  }
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
  const lines = textChunks()
  /**
   * Request lines of the batch of answers under way (src/gateway.mjs), joined: encoded into `lines` at its end
   * (`observe.settled`), one write for the batch.
   */
  let batched = ''
  /** Armed by the first line after a write (an idle instance has no timer running). */
  let logTimer
  const flushLogs = () => {
    clearTimeout(logTimer)
    logTimer = undefined
    if (batched !== '') {
      lines.append(batched)
      batched = ''
    }
    const buffers = lines.take()
    if (buffers.length === 0) return
    if (out.buffers) out(buffers)
    else out(buffers.map((buffer) => buffer.toString('utf8')).join(''))
  }
  /**
   * A time (epoch ms, now by default) as ISO text, made again only when the millisecond changed: the text up to the
   * seconds once a second (`toISOString` costs ~0.9 µs), the milliseconds added to it.
   */
  let isoAt = 0
  let isoText = ''
  let secondAt = -1
  let secondText = ''
  const isoNow = (now = Date.now()) => {
    if (now !== isoAt) {
      isoAt = now
      const ms = now % 1000
      if (now - ms !== secondAt) {
        secondAt = now - ms
        secondText = new Date(secondAt).toISOString().slice(0, 20) // 2026-11-27T15:12:03.
      }
      isoText = `${secondText}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`
    }
    return isoText
  }
  /** Writes out what is in `lines` at 1 MiB, else arms the timer (100 ms). */
  const written = () => {
    if (lines.bytes >= 1 << 20) flushLogs()
    else if (logTimer === undefined) {
      logTimer = setTimeout(flushLogs, 100)
      logTimer.unref()
    }
  }
  const append = (line) => {
    lines.append(line)
    written()
  }
  /** Logs `fields` (an object, its own `time` and `level` set here) at `level`. */
  function log(level, fields) {
    if (levels[level] < threshold) return
    fields.time = isoNow()
    fields.level = level
    append(`${JSON.stringify(fields)}\n`)
  }
  const text = JSON.stringify
  /**
   * What repeats between request lines is made once: the head (time, level, msg) once per millisecond, the part from
   * the kind to the status once per (model, kind, format, upstream, stream) — a map by model, at most 1000 (the client
   * names the model), each keeping the last shape seen — and the key and account ids once per caller (the key
   * cache's record). A line is then one short template string: ~0.6 µs with its encoding, 1.6 µs made whole.
   */
  let headAt = 0
  let head = ''
  const shapes = new Map()
  const callers = new WeakMap()
  function shapeOf(event) {
    const model = event.model
    const stream = event.stream === true
    let shape = shapes.get(model)
    if (
      shape === undefined ||
      shape.kind !== event.kind ||
      shape.format !== event.format ||
      shape.upstream !== event.upstream ||
      shape.stream !== stream
    ) {
      // Only the model and the upstream name are escaped: the kind and format are the library's identifiers.
      shape = {
        kind: event.kind,
        format: event.format,
        upstream: event.upstream,
        stream,
        text: `","kind":"${event.kind}","format":"${event.format}"${model === undefined ? '' : `,"model":${text(model)}`}${event.upstream === undefined ? '' : `,"upstream":${text(event.upstream)}`},"stream":${stream},"status":`,
      }
      if (shapes.size >= 1000) shapes.clear()
      shapes.set(model, shape)
    }
    return shape.text
  }
  /**
   * The log line of a request whose answer ended at `end` (its time): the fields in a fixed order, absent ones left
   * out, made as one string (no object for it). The request id and error codes are the library's identifiers, the key
   * and account ids the database's uuids.
   */
  function requestLine(level, event, usage, end) {
    let start
    if (level === 'info') {
      if (end !== headAt) {
        headAt = end
        head = `{"time":"${isoNow(end)}","level":"info","msg":"request","requestId":"`
      }
      start = head
    } else start = `{"time":"${isoNow(end)}","level":"${level}","msg":"request","requestId":"`
    const caller = event.caller
    let ids = ''
    if (caller) {
      ids = callers.get(caller)
      if (ids === undefined) {
        ids = `,"keyId":"${caller.id}","accountId":"${caller.accountId}"`
        callers.set(caller, ids)
      }
    }
    batched += `${start}${event.requestId}${shapeOf(event)}${event.status}${event.error === undefined ? '' : `,"error":"${event.error}"`}${event.refused === undefined ? '' : `,"refused":"${event.refused}"`},"latencyMs":${event.latencyMs}${event.firstByteMs === undefined ? '' : `,"firstByteMs":${event.firstByteMs}`}${ids}${usage?.inputTokens === undefined ? '' : `,"inputTokens":${usage.inputTokens}`}${usage?.outputTokens === undefined ? '' : `,"outputTokens":${usage.outputTokens}`}}\n`
    if (logTimer === undefined) written()
  }

  // ── the gateway's hooks ──────────────────────────────────────────────────────────────────────────────────────────
  const observe = {
    request(event) {
      if (event.stream) open++
    },
    /** The end of a batch of answers: their log lines encoded, in one piece. */
    settled() {
      if (batched === '') return
      lines.append(batched)
      batched = ''
      written()
    },
    /** A request whose answer ended at `end` (epoch ms, now by default). */
    response(event, end = Date.now()) {
      if (event.stream && !event.refused) open--
      const model = modelLabel(event)
      requests(1, event.format, model, event.status)
      latency(event.latencyMs / 1000)
      if (event.firstByteMs !== undefined) firstByte(event.firstByteMs / 1000)
      const usage = event.usage
      if (usage) {
        if (usage.inputTokens) tokens(usage.inputTokens, 'input', model)
        if (usage.outputTokens) tokens(usage.outputTokens, 'output', model)
        if (usage.cachedInputTokens) tokens(usage.cachedInputTokens, 'cached', model)
        if (usage.reasoningTokens) tokens(usage.reasoningTokens, 'reasoning', model)
      }
      // An upstream's failure: an HTTP error it caused (5xx, its 429) or an error inside a started stream — not the
      // client's own mistakes (400, 403, 404).
      const status = event.status
      if (event.error && event.upstream && !event.refused && (status >= 500 || status === 429 || status < 400))
        upstreamErrors(1, event.upstream, event.error)
      const level = status >= 500 ? 'error' : 'info'
      if (levels[level] >= threshold) requestLine(level, event, usage, end)
    },
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
      settle?.()
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
    handle,
    log,
    /** Stops the timer and writes the lines still buffered; resolves when they are out. */
    async close() {
      flushLogs()
      await out.drained?.()
    },
  }
}
