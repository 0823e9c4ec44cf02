/**
 * The request log behind `/logs`: one row per API request of a key (time, key, model, client format, upstream, status,
 * latency, first byte, tokens — never the prompt or the answer), collected in memory and written with the usage
 * batches (src/usage.mjs), in one multi-row insert. Kept `retentionDays` (LOG_RETENTION_DAYS, 7) by the periodic
 * clean-up; 0 keeps none (nothing is collected). At most `maxPending` rows wait in memory (a database that does not
 * answer for a long while): beyond, new ones are dropped and counted in the log.
 */
const columns = [
  ['accountId', 'uuid'],
  ['keyId', 'uuid'],
  ['at', 'timestamptz'],
  ['kind', 'text'],
  ['format', 'text'],
  ['model', 'text'],
  ['upstream', 'text'],
  ['stream', 'boolean'],
  ['status', 'int'],
  ['latencyMs', 'int'],
  ['firstByteMs', 'int'],
  ['input', 'int'],
  ['output', 'int'],
]
const names =
  'account_id, key_id, at, kind, format, model, upstream, stream, status, latency_ms, first_byte_ms, input_tokens, output_tokens'
const insert = `INSERT INTO request_log (${names})
  SELECT l.* FROM unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')}) AS l(${names})
  WHERE EXISTS (SELECT 1 FROM api_keys k WHERE k.id = l.key_id)`

export function createRequestLog(db, { retentionDays = 7, maxPending = 100_000 } = {}) {
  let rows = []
  let dropped = 0
  return {
    retentionDays,
    /** A request's row (its `firstByteMs` may be filled in afterwards, until it is written); undefined when off. */
    add(caller, event, model) {
      if (retentionDays === 0) return undefined
      if (rows.length >= maxPending) {
        dropped++
        return undefined
      }
      const usage = event.usage
      const row = {
        accountId: caller.accountId,
        keyId: caller.id,
        at: new Date(Date.now() - event.latencyMs).toISOString(),
        kind: event.kind,
        format: event.format,
        model,
        upstream: event.upstream ?? null,
        stream: event.stream === true,
        status: event.status,
        latencyMs: Math.round(event.latencyMs),
        firstByteMs: null,
        input: usage?.inputTokens ?? 0,
        output: usage?.outputTokens ?? 0,
      }
      rows.push(row)
      return row
    },
    /** Writes the rows collected so far; a failure keeps them for the next batch (a row whose key is gone is skipped). */
    async write() {
      if (dropped) {
        console.error(`[service] request log: ${dropped} row(s) dropped (too many waiting to be written)`)
        dropped = 0
      }
      if (rows.length === 0) return
      const batch = rows
      rows = []
      try {
        await db.query(
          insert,
          columns.map(([field]) =>
            batch.map((row) => (field === 'firstByteMs' && row[field] !== null ? Math.round(row[field]) : row[field])),
          ),
        )
      } catch (error) {
        if (typeof error?.code === 'string' && error.code.startsWith('23')) {
          console.error(`[service] request log: ${batch.length} row(s) dropped:`, error.message)
          return
        }
        rows = batch.concat(rows).slice(0, maxPending)
        console.error(`[service] request log not written yet (${batch.length} row(s) kept):`, error.message)
      }
    },
  }
}
