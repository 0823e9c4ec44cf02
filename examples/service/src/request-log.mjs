/**
 * The request log behind `/logs`: each API request of a key (time, key, model, client format, upstream, status,
 * latency, first byte, tokens — never the key, the prompt or the answer), collected in memory and written with the
 * usage batches (src/usage.mjs). Stored by batch, not by request: one `request_log_batches` row per key and write (every
 * second), holding that second's requests as one JSON array of compact entries (at most `perRow`; a busier key's second
 * takes several rows). A request thus costs the database no row, index entry or foreign-key check of its own — a few
 * bytes of text in a row written once a second — and the service a line of text: the entry is encoded when its answer
 * is done, outside the heap (src/text-chunks.mjs), not kept as an object until the write.
 *
 * Kept `retentionDays` (LOG_RETENTION_DAYS, 7) by the periodic clean-up, which deletes whole batches (a batch goes
 * when its last request is older: a request may stay a second longer); 0 keeps none (nothing is collected). At most
 * `maxPending` requests wait in memory (a database that does not answer for a long while): beyond, new ones are dropped
 * and counted in the log. Rows of keys deleted meanwhile are skipped; a key's or account's deletion deletes its batches
 * (foreign keys with ON DELETE CASCADE, checked once per batch).
 *
 * An entry is a JSON array, by position (`entryFields`): the request's start (epoch milliseconds), its kind, client
 * format, model (its name in the usage), upstream (or null), streamed, status, latency (ms), first byte (ms, or null),
 * input and output tokens.
 */
import { textChunks } from './text-chunks.mjs'

/** The entry's fields, by position, as SQL (`e` an entry of `json_array_elements`), named as the page reads them. */
export const entryFields = `to_timestamp((e->>0)::float8 / 1000) AS at, e->>1 AS kind, e->>2 AS format, e->>3 AS model,
  e->>4 AS upstream, (e->>5)::boolean AS stream, (e->>6)::int AS status, (e->>7)::int AS latency_ms,
  (e->>8)::int AS first_byte_ms, (e->>9)::int AS input_tokens, (e->>10)::int AS output_tokens`

/** One statement per write: a row per batch, as arrays; batches of keys deleted meanwhile are skipped. */
const insert = `INSERT INTO request_log_batches (account_id, key_id, first_at, last_at, requests, entries)
  SELECT b.account_id, b.key_id, to_timestamp(b.first_ms / 1000), to_timestamp(b.last_ms / 1000), b.requests, b.entries
  FROM unnest($1::uuid[], $2::uuid[], $3::float8[], $4::float8[], $5::int[], $6::text[])
    AS b(account_id, key_id, first_ms, last_ms, requests, entries)
  WHERE EXISTS (SELECT 1 FROM api_keys k WHERE k.id = b.key_id)`

export function createRequestLog(db, { retentionDays = 7, maxPending = 100_000, perRow = 1000 } = {}) {
  /** The batch being collected for each key (by key id). */
  let open = new Map()
  /** Batches that reached `perRow` requests, waiting for the write. */
  let sealed = []
  let count = 0
  /** Batches whose write failed (as written: text), kept for the next write. */
  let retry = []
  let retryCount = 0
  let dropped = 0
  const text = JSON.stringify
  const written = (batch) => ({
    accountId: batch.accountId,
    keyId: batch.keyId,
    first: batch.first,
    last: batch.last,
    requests: batch.requests,
    entries: `[${Buffer.concat(batch.chunks.take()).toString('utf8')}]`,
  })
  return {
    retentionDays,
    /** Adds the entry of a request answered with `model` (its name in the usage); nothing when the log is off. */
    add(caller, event, model) {
      if (retentionDays === 0) return
      if (count + retryCount >= maxPending) {
        dropped++
        return
      }
      let batch = open.get(caller.id)
      if (!batch) {
        batch = {
          accountId: caller.accountId,
          keyId: caller.id,
          first: Number.POSITIVE_INFINITY,
          last: 0,
          requests: 0,
          chunks: textChunks({ firstBytes: 1024 }),
        }
        open.set(caller.id, batch)
      }
      const usage = event.usage
      const at = Date.now() - event.latencyMs
      // The kind, format and error codes are the library's identifiers; the model and upstream are quoted as JSON.
      batch.chunks.append(
        `${batch.requests === 0 ? '' : ','}[${at},"${event.kind}","${event.format}",${text(model)},${event.upstream === undefined ? 'null' : text(event.upstream)},${event.stream === true},${event.status},${Math.round(event.latencyMs)},${event.firstByteMs == null ? 'null' : Math.round(event.firstByteMs)},${usage?.inputTokens ?? 0},${usage?.outputTokens ?? 0}]`,
      )
      if (at < batch.first) batch.first = at
      if (at > batch.last) batch.last = at
      count++
      if (++batch.requests === perRow) {
        sealed.push(batch)
        open.delete(caller.id)
      }
    },
    /** Writes the batches collected so far; a failure keeps them for the next write. */
    async write() {
      if (dropped) {
        console.error(`[service] request log: ${dropped} request(s) dropped (too many waiting to be written)`)
        dropped = 0
      }
      const batches = retry
      for (const batch of sealed) batches.push(written(batch))
      for (const batch of open.values()) batches.push(written(batch))
      const batchCount = retryCount + count
      open = new Map()
      sealed = []
      count = 0
      retry = []
      retryCount = 0
      if (batches.length === 0) return
      try {
        await db.query(
          insert,
          ['accountId', 'keyId', 'first', 'last', 'requests', 'entries'].map((field) =>
            batches.map((batch) => (typeof batch[field] === 'number' ? String(batch[field]) : batch[field])),
          ),
        )
      } catch (error) {
        if (typeof error?.code === 'string' && error.code.startsWith('23')) {
          console.error(`[service] request log: ${batchCount} request(s) dropped:`, error.message)
          return
        }
        retry = batches
        retryCount = batchCount
        console.error(`[service] request log not written yet (${batchCount} request(s) kept):`, error.message)
      }
    },
  }
}
