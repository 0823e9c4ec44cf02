/**
 * The request log behind `/logs`: one row per API request of a key (time, key, model, client format, upstream, status,
 * latency, first byte, tokens — never the prompt or the answer), collected in memory and written with the usage
 * batches (src/usage.mjs), in one multi-row insert. Kept `retentionDays` (LOG_RETENTION_DAYS, 7) by the periodic
 * clean-up; 0 keeps none (nothing is collected). At most `maxPending` rows wait in memory (a database that does not
 * answer for a long while): beyond, new ones are dropped and counted in the log. A row is encoded as JSON text when its
 * answer is done, outside the heap (src/text-chunks.mjs), not kept as an object for the second until the write.
 */
import { textChunks } from './text-chunks.mjs'

/**
 * One statement per batch: the rows as one JSON parameter (cheaper to send than thirteen arrays), the time as epoch
 * milliseconds; rows of keys deleted meanwhile are skipped.
 */
const insert = `INSERT INTO request_log (account_id, key_id, at, kind, format, model, upstream, stream, status, latency_ms,
    first_byte_ms, input_tokens, output_tokens)
  SELECT l.account_id, l.key_id, to_timestamp(l.at / 1000.0), l.kind, l.format, l.model, l.upstream, l.stream, l.status,
    l.latency_ms, round(l.first_byte_ms)::int, l.input_tokens, l.output_tokens
  FROM json_to_recordset($1::json) AS l(account_id uuid, key_id uuid, at double precision, kind text, format text,
    model text, upstream text, stream boolean, status int, latency_ms int, first_byte_ms double precision,
    input_tokens int, output_tokens int)
  WHERE EXISTS (SELECT 1 FROM api_keys k WHERE k.id = l.key_id)`

export function createRequestLog(db, { retentionDays = 7, maxPending = 100_000 } = {}) {
  /** The rows collected since the last write, as the JSON array's elements (comma-separated) outside the heap. */
  const rows = textChunks()
  let count = 0
  /** A batch whose write failed: its text, kept for the next write. */
  let retry
  let retryCount = 0
  let dropped = 0
  const text = JSON.stringify
  return {
    retentionDays,
    /** Adds the row of a request answered with `model` (its name in the usage); nothing when the log is off. */
    add(caller, event, model) {
      if (retentionDays === 0) return
      if (count + retryCount >= maxPending) {
        dropped++
        return
      }
      const usage = event.usage
      // The ids are the database's uuids; the kind, format and error codes the library's identifiers.
      rows.append(
        `${count === 0 ? '' : ','}{"account_id":"${caller.accountId}","key_id":"${caller.id}","at":${Date.now() - event.latencyMs},"kind":"${event.kind}","format":"${event.format}","model":${text(model)},"upstream":${event.upstream === undefined ? 'null' : text(event.upstream)},"stream":${event.stream === true},"status":${event.status},"latency_ms":${Math.round(event.latencyMs)},"first_byte_ms":${event.firstByteMs ?? 'null'},"input_tokens":${usage?.inputTokens ?? 0},"output_tokens":${usage?.outputTokens ?? 0}}`,
      )
      count++
    },
    /** Writes the rows collected so far; a failure keeps them for the next batch (a row whose key is gone is skipped). */
    async write() {
      if (dropped) {
        console.error(`[service] request log: ${dropped} row(s) dropped (too many waiting to be written)`)
        dropped = 0
      }
      const fresh = count > 0 ? Buffer.concat(rows.take()).toString('utf8') : ''
      const freshCount = count
      count = 0
      const batch = retry && fresh ? `${retry},${fresh}` : (retry ?? fresh)
      const batchCount = retryCount + freshCount
      retry = undefined
      retryCount = 0
      if (batchCount === 0) return
      try {
        await db.query(insert, [`[${batch}]`])
      } catch (error) {
        if (typeof error?.code === 'string' && error.code.startsWith('23')) {
          console.error(`[service] request log: ${batchCount} row(s) dropped:`, error.message)
          return
        }
        retry = batch
        retryCount = batchCount
        console.error(`[service] request log not written yet (${batchCount} row(s) kept):`, error.message)
      }
    },
  }
}
