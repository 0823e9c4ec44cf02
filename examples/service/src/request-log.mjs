/**
 * The request log behind `/logs`: each API request of a key (time, key, model, client format, upstream, status,
 * latency, first byte, tokens — never the key, the prompt or the answer), collected in memory and written with the
 * usage batches (src/usage.mjs). Stored by batch, not by request: one `request_log_batches` row per key and write (every
 * second), holding that second's requests as one JSON array of compact entries (at most `perRow`; a busier key's second
 * takes several rows). A request thus costs the database no row, index entry or foreign-key check of its own — a few
 * bytes of text in a row written once a second — and the service a line of text: the entries of a batch of answers
 * (src/gateway.mjs, 5 ms) are joined per key and encoded at its end, outside the heap (src/text-chunks.mjs), not kept as
 * objects until the write.
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

/**
 * The statement writing `rows` batches (up to 1000 a statement): one VALUES row of parameters per batch, so each
 * batch's entries go to the database as a parameter of their own, as they are (an array parameter would have every
 * quote in them escaped by the client and parsed back by the server). Batches of keys deleted meanwhile are skipped.
 */
const insert = (rows) => `INSERT INTO request_log_batches (account_id, key_id, first_at, last_at, requests, entries)
  SELECT b.account_id, b.key_id, to_timestamp(b.first_ms / 1000), to_timestamp(b.last_ms / 1000), b.requests, b.entries
  FROM (VALUES ${Array.from({ length: rows }, (_, i) => `($${6 * i + 1}::uuid, $${6 * i + 2}::uuid, $${6 * i + 3}::float8, $${6 * i + 4}::float8, $${6 * i + 5}::int, $${6 * i + 6}::text)`).join(', ')})
    AS b(account_id, key_id, first_ms, last_ms, requests, entries)
  WHERE EXISTS (SELECT 1 FROM api_keys k WHERE k.id = b.key_id)`
const rowsPerStatement = 1000
const arrayStart = Buffer.from('[')
const arrayEnd = Buffer.from(']')

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
  /** A name quoted as JSON, kept for the next entry that names it again (most do). */
  const lastQuoted = () => {
    let name
    let quoted = ''
    return (next) => {
      if (next !== name) {
        name = next
        quoted = text(next)
      }
      return quoted
    }
  }
  const quotedModel = lastQuoted()
  const quotedUpstream = lastQuoted()
  /**
   * The entries of a batch of answers (src/gateway.mjs) are joined per key and encoded at its end (`settled`, or the
   * next write): one encoding a key and batch.
   */
  let touched = []
  function settled() {
    for (const batch of touched) {
      batch.chunks.append(batch.pending)
      batch.pending = ''
    }
    touched = []
  }
  /**
   * A batch as written: its entries as one JSON array — to a PostgreSQL server as bytes (a binary parameter: UTF-8 is
   * text's binary form), never made a string: a second's entries are megabytes under load, and a string that big
   * goes straight to V8's old generation (its collections came every ~0.4 s). PGlite takes the text.
   */
  const asText = (batch) => {
    const entries = Buffer.concat([arrayStart, ...batch.chunks.take(), arrayEnd])
    return {
      accountId: batch.accountId,
      keyId: batch.keyId,
      first: batch.first,
      last: batch.last,
      requests: batch.requests,
      entries: db.kind === 'postgresql' ? entries : entries.toString('utf8'),
    }
  }
  return {
    retentionDays,
    /**
     * Adds the entry of a request answered with `model` (its name in the usage) whose answer ended at `end` (epoch ms);
     * nothing when the log is off.
     */
    add(caller, event, model, end = Date.now()) {
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
          pending: '',
        }
        open.set(caller.id, batch)
      }
      if (batch.pending === '') touched.push(batch)
      const usage = event.usage
      const at = end - event.latencyMs
      // The kind, format and error codes are the library's identifiers; the model and upstream are quoted as JSON.
      batch.pending += `${batch.requests === 0 ? '' : ','}[${at},"${event.kind}","${event.format}",${quotedModel(model)},${event.upstream === undefined ? 'null' : quotedUpstream(event.upstream)},${event.stream === true},${event.status},${Math.round(event.latencyMs)},${event.firstByteMs == null ? 'null' : Math.round(event.firstByteMs)},${usage?.inputTokens ?? 0},${usage?.outputTokens ?? 0}]`
      if (at < batch.first) batch.first = at
      if (at > batch.last) batch.last = at
      count++
      if (++batch.requests === perRow) {
        sealed.push(batch)
        open.delete(caller.id)
      }
    },
    settled,
    /** Writes the batches collected so far; a failure keeps them for the next write. */
    async write() {
      settled()
      if (dropped) {
        console.error(`[service] request log: ${dropped} request(s) dropped (too many waiting to be written)`)
        dropped = 0
      }
      const batches = retry
      for (const batch of sealed) batches.push(asText(batch))
      for (const batch of open.values()) batches.push(asText(batch))
      open = new Map()
      sealed = []
      count = 0
      retry = []
      retryCount = 0
      if (batches.length === 0) return
      let start = 0
      try {
        for (; start < batches.length; start += rowsPerStatement) {
          const part = batches.slice(start, start + rowsPerStatement)
          await db.query(
            insert(part.length),
            part.flatMap((batch) => [
              batch.accountId,
              batch.keyId,
              String(batch.first),
              String(batch.last),
              String(batch.requests),
              batch.entries,
            ]),
          )
        }
      } catch (error) {
        // The statements written stay written; the rest is kept (or dropped, refused for good).
        const rest = batches.slice(start)
        const requests = rest.reduce((sum, batch) => sum + batch.requests, 0)
        if (typeof error?.code === 'string' && error.code.startsWith('23')) {
          console.error(`[service] request log: ${requests} request(s) dropped:`, error.message)
          return
        }
        retry = rest
        retryCount = requests
        console.error(`[service] request log not written yet (${requests} request(s) kept):`, error.message)
      }
    },
  }
}
