/**
 * Usage, counted in memory and written in batches (see `createUsage`), and the periodic clean-up of expired rows.
 */

/**
 * @param {{ query: Function }} db
 * @param {{ usageFlushMs?: number }} options
 */
const kindNames = {
  'list-models': 'model list',
  'get-model': 'model details',
  'count-tokens': 'token count',
  'get-response': 'stored response',
}

export function createUsage(db, { usageFlushMs = 1000, requestLog } = {}) {
  /**
   * Usage is counted in memory per (account, key, model, UTC day) and written in one multi-row upsert every
   * `usageFlushMs` (default 1 s), before this instance renders a usage page, and at `close()`. A failed write keeps
   * its counts for the next flush (added to what came in meanwhile) and is logged without them; a row the database
   * refuses for good (an integrity error, e.g. its key row gone) is dropped and logged (model, day, requests). Other
   * instances' usage shows up to `usageFlushMs` late; a process killed without `close()` loses at most that much.
   */
  let pending = new Map()
  /** The rows of `pending` for the current day by key id, then model: found without making the joined id. */
  let today = new Map()
  let day = ''
  let dayEnds = 0
  /**
   * One request's usage, added to its key's pending counts for the day (errors counted, tokens summed), and its entry
   * in the request log.
   */
  function record(caller, event, now = Date.now()) {
    const usage = event.usage
    if (now >= dayEnds) {
      day = new Date(now).toISOString().slice(0, 10)
      dayEnds = now - (now % 86_400_000) + 86_400_000
      today = new Map()
    }
    // Listings and token counts are not a model's answers: named by what they were, not `unknown`.
    const model = event.kind === 'generate' ? (event.model ?? 'unknown') : `(${kindNames[event.kind] ?? event.kind})`
    let models = today.get(caller.id)
    if (!models) {
      models = new Map()
      today.set(caller.id, models)
    }
    let row = models.get(model)
    if (!row) {
      const id = `${caller.id}\n${model}\n${day}`
      row = pending.get(id) // counts kept back after a failed write
      if (!row) {
        row = {
          accountId: caller.accountId,
          keyId: caller.id,
          model,
          day,
          requests: 0,
          errors: 0,
          input: 0,
          output: 0,
          cached: 0,
          reasoning: 0,
        }
        pending.set(id, row)
      }
      models.set(model, row)
    }
    row.requests += 1
    if (event.status >= 400 || event.error) row.errors += 1
    if (usage) {
      row.input += usage.inputTokens ?? 0
      row.output += usage.outputTokens ?? 0
      row.cached += usage.cachedInputTokens ?? 0
      row.reasoning += usage.reasoningTokens ?? 0
    }
    requestLog?.add(caller, event, model, now)
  }
  const upsertUsage = (rows) =>
    db.query(
      `WITH written AS (INSERT INTO usage_daily (account_id, key_id, model, day, requests, errors, input_tokens, output_tokens, cached_tokens, reasoning_tokens)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::date[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[])
       ON CONFLICT (key_id, model, day) DO UPDATE SET requests = usage_daily.requests + excluded.requests, errors = usage_daily.errors + excluded.errors,
         input_tokens = usage_daily.input_tokens + excluded.input_tokens, output_tokens = usage_daily.output_tokens + excluded.output_tokens,
         cached_tokens = usage_daily.cached_tokens + excluded.cached_tokens, reasoning_tokens = usage_daily.reasoning_tokens + excluded.reasoning_tokens
         RETURNING key_id)
       UPDATE api_keys SET last_used_at = now() WHERE id IN (SELECT key_id FROM written)`,
      ['accountId', 'keyId', 'model', 'day', 'requests', 'errors', 'input', 'output', 'cached', 'reasoning'].map(
        (field) => rows.map((row) => (typeof row[field] === 'number' ? String(row[field]) : row[field])),
      ),
    )
  /** Puts counts that could not be written back into `pending`, added to any that came in meanwhile. */
  function keep(rows) {
    for (const row of rows) {
      const id = `${row.keyId}\n${row.model}\n${row.day}`
      const now = pending.get(id)
      if (!now) pending.set(id, row)
      else
        for (const field of ['requests', 'errors', 'input', 'output', 'cached', 'reasoning']) now[field] += row[field]
    }
  }
  const integrity = (error) => typeof error?.code === 'string' && error.code.startsWith('23')
  async function writeUsage() {
    if (pending.size === 0) return
    const rows = [...pending.values()]
    pending = new Map()
    today = new Map()
    try {
      await upsertUsage(rows)
    } catch (error) {
      if (!integrity(error)) {
        keep(rows)
        console.error(`[service] usage not written yet (${rows.length} row(s) kept for the next flush):`, error.message)
        return
      }
      // One row the database refuses for good must not hold back the others: write them one by one.
      for (const row of rows)
        await upsertUsage([row]).catch((rowError) => {
          if (!integrity(rowError)) return keep([row])
          console.error(
            `[service] usage dropped for model ${JSON.stringify(row.model)} on ${row.day} (${row.requests} request(s) of one key):`,
            rowError.message,
          )
        })
    }
  }
  let flushing = Promise.resolve()
  /** Writes every pending count (after any write under way); resolves when done, never rejects. */
  const flushUsage = () => {
    flushing = flushing
      .then(writeUsage)
      .then(() => requestLog?.write())
      .catch((error) => console.error('[service] usage flush failed:', error.message))
    return flushing
  }
  const timer = setInterval(flushUsage, usageFlushMs)
  timer.unref()
  return {
    record,
    /** The end of a batch of answers (src/gateway.mjs): their request-log entries encoded. */
    settled: () => requestLog?.settled(),
    /** Writes the pending usage counts now (after any write under way); never rejects. */
    flush: flushUsage,
    /** Stops the timer and writes what is pending. */
    async close() {
      clearInterval(timer)
      await flushUsage()
    },
  }
}

/**
 * Deletes what has expired — request-log batches whose last request is older than `retentionDays`, rate-limit
 * windows older than two minutes, stored responses, items and reasoning past their expiry — every `everyMs` (a
 * minute), in the background: never per request. Every instance runs it; the
 * deletes are idempotent.
 */
export function startCleanup(db, { everyMs = 60_000, retentionDays = 7 } = {}) {
  const statements = [
    `DELETE FROM request_log_batches WHERE last_at < now() - interval '${Math.max(0, Math.floor(retentionDays))} days'`,
    `DELETE FROM key_windows WHERE window_start < now() - interval '2 minutes'`,
    'DELETE FROM stored_responses WHERE expires_at < now()',
    'DELETE FROM stored_items WHERE expires_at < now()',
    'DELETE FROM stored_reasoning WHERE expires_at < now()',
  ]
  const run = async () => {
    for (const sql of statements)
      await db.query(sql).catch((error) => console.error('[service] clean-up failed:', error.message))
  }
  const timer = setInterval(run, everyMs)
  timer.unref()
  return { run, stop: () => clearInterval(timer) }
}
