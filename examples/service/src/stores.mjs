/**
 * The gateway's conversation state in the database, so every instance sees it: a `ResponseStore` (Responses
 * clients' `previous_response_id`, `item_reference`, `GET /v1/responses/{id}`; the library's interface in
 * src/gateway/response-store.ts) and the reasoning entries of chat clients that drop `reasoning_details` (by the
 * answer's first tool-call id; src/gateway/reasoning-store.ts). Rows carry their expiry and are read only while
 * fresh; the periodic clean-up (src/usage.mjs `startCleanup`) deletes expired ones — never a delete per request.
 * Scopes are the gateway's (`caller:<key id>`): one key never reads another's state.
 */

const fresh = 'expires_at > now()'
const expiry = `now() + $4::int * interval '1 millisecond'`

/** @param {{ query: Function }} db */
export function createResponseStore(db, { ttlMs = 3_600_000, maxBytes = 16 * 1024 * 1024 } = {}) {
  return {
    async get(scope, id) {
      const [row] = await db.query(`SELECT body FROM stored_responses WHERE scope = $1 AND id = $2 AND ${fresh}`, [
        scope,
        id,
      ])
      return row ? { id, input: row.body.input, response: row.body.response } : undefined
    },
    async put(scope, stored) {
      const body = JSON.stringify({ input: stored.input, response: stored.response })
      if (body.length > maxBytes) return
      const items = new Map()
      const output = Array.isArray(stored.response.output) ? stored.response.output : []
      for (const item of [...stored.input, ...output])
        if (typeof item?.id === 'string') items.set(item.id, { id: item.id, item })
      await db.query(
        `WITH response AS (
           INSERT INTO stored_responses (scope, id, body, expires_at) VALUES ($1, $2, $3::jsonb, ${expiry})
           ON CONFLICT (scope, id) DO UPDATE SET body = excluded.body, expires_at = excluded.expires_at)
         INSERT INTO stored_items (scope, id, item, expires_at)
         SELECT $1, i.id, i.item, ${expiry} FROM jsonb_to_recordset($5::jsonb) AS i(id text, item jsonb)
         ON CONFLICT (scope, id) DO UPDATE SET item = excluded.item, expires_at = excluded.expires_at`,
        [scope, stored.id, body, ttlMs, JSON.stringify([...items.values()])],
      )
    },
    async item(scope, itemId) {
      const [row] = await db.query(`SELECT item FROM stored_items WHERE scope = $1 AND id = $2 AND ${fresh}`, [
        scope,
        itemId,
      ])
      return row?.item
    },
  }
}

/** The reasoning entries (`get`/`put` by scope and first tool-call id; values are plain JSON). */
export function createReasoningEntries(db, { ttlMs = 3_600_000 } = {}) {
  return {
    async get(scope, id) {
      const [row] = await db.query(`SELECT details FROM stored_reasoning WHERE scope = $1 AND id = $2 AND ${fresh}`, [
        scope,
        id,
      ])
      return row?.details
    },
    async put(scope, id, details) {
      await db.query(
        `INSERT INTO stored_reasoning (scope, id, details, expires_at) VALUES ($1, $2, $3::jsonb, ${expiry})
         ON CONFLICT (scope, id) DO UPDATE SET details = excluded.details, expires_at = excluded.expires_at`,
        [scope, id, JSON.stringify(details), ttlMs],
      )
    },
  }
}
