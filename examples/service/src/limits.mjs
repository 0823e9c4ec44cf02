/**
 * Per-key rate limits without a row updated per request: requests a minute and tokens a minute, counted by each
 * instance in memory and reconciled through the database in leased blocks. A minute is a fixed UTC window; its row in
 * `key_windows` holds what all instances have taken of the key's allowance. An instance that runs out leases a block
 * (⌈limit / 20⌉ requests, at most 10 000; ⌈limit / 20⌉ tokens, at most 1 000 000) with one statement that grants at
 * most what is left of the limit; it serves from the block in memory and gives back what it has not used when the
 * lease expires (`leaseMs`, 5 s) — one write a block, not one a request.
 *
 * Tolerance (stated in the README): the requests a key is served in a window never exceed its limit, across every
 * instance. Tokens are known only when an answer ends: each answer's tokens are taken from the block afterwards, a
 * deficit is charged on the next lease, and a key whose window is used up is refused — so a window can go over its
 * token limit by the tokens of the answers that were in flight when it ran out. A key may be refused early while other
 * instances hold unused blocks: by at most (instances − 1) blocks (5 % of the limit each), for at most the lease time;
 * a refused key asks the database again at most once a second. If the database cannot be reached, the request is let
 * through and the error logged (availability first; the cached key check still applies).
 */

const windowMs = 60_000
const retryMs = 1_000

/** @param {{ query: Function }} db */
export function createLimiter(db, { defaultRpm, defaultTpm, leaseMs = 5_000 } = {}) {
  /** key id → { window, requests, tokens, leasedAt, blockedUntil, pending } */
  const states = new Map()
  const stats = { leases: 0, returns: 0, refused: 0 }

  function stateOf(keyId, window) {
    let state = states.get(keyId)
    if (!state || state.window !== window) {
      // A new window: what was left of the last one lapses with it (its row is deleted by the clean-up).
      state = { window, requests: 0, tokens: 0, leasedAt: 0, blockedUntil: 0, pending: undefined }
      states.set(keyId, state)
    }
    return state
  }
  const secondsLeft = (window) => Math.max(1, Math.ceil((window + windowMs - Date.now()) / 1000))

  async function lease(keyId, state, rpm, tpm) {
    const wantRequests = rpm && state.requests <= 0 ? Math.min(Math.ceil(rpm / 20), 10_000) : 0
    const wantTokens = tpm && state.tokens <= 0 ? Math.min(Math.ceil(tpm / 20), 1_000_000) - state.tokens : 0
    stats.leases++
    try {
      const [row] = await db.query(
        `INSERT INTO key_windows AS w (key_id, window_start, requests, tokens, granted_requests, granted_tokens)
         VALUES ($1, $2, least($3::int, $4::int), least($5::bigint, $6::bigint), least($3::int, $4::int), least($5::bigint, $6::bigint))
         ON CONFLICT (key_id, window_start) DO UPDATE SET
           requests = w.requests + greatest(0, least($3::int, $4::int - w.requests)),
           tokens = w.tokens + greatest(0, least($5::bigint, $6::bigint - w.tokens)),
           granted_requests = greatest(0, least($3::int, $4::int - w.requests)),
           granted_tokens = greatest(0, least($5::bigint, $6::bigint - w.tokens))
         RETURNING granted_requests, granted_tokens`,
        [keyId, new Date(state.window), wantRequests, rpm ?? 0, wantTokens, tpm ?? 0],
      )
      state.requests += Number(row.granted_requests)
      state.tokens += Number(row.granted_tokens)
    } catch (error) {
      console.error('[service] rate-limit lease failed; the request is let through:', error.message)
      state.requests += wantRequests
      state.tokens += wantTokens
    }
    state.leasedAt = Date.now()
  }

  /**
   * Counts one request of this key: 0 when it may go ahead, else the seconds until its window ends (a 429's
   * retry-after). Synchronous while the instance holds allowances; a promise when it has to lease.
   * @param {{ id: string, rpm?: number, tpm?: number }} record
   */
  function take(record) {
    const rpm = record.rpm ?? defaultRpm
    const tpm = record.tpm ?? defaultTpm
    if (!rpm && !tpm) return 0
    const now = Date.now()
    const window = now - (now % windowMs)
    const state = stateOf(record.id, window)
    if ((!rpm || state.requests > 0) && (!tpm || state.tokens > 0)) {
      if (rpm) state.requests--
      return 0
    }
    if (state.pending) return state.pending.then(() => take(record))
    if (state.blockedUntil > now) {
      stats.refused++
      return secondsLeft(window)
    }
    state.pending = lease(record.id, state, rpm, tpm).finally(() => {
      state.pending = undefined
    })
    return state.pending.then(() => {
      if ((!rpm || state.requests > 0) && (!tpm || state.tokens > 0)) {
        if (rpm) state.requests--
        return 0
      }
      state.blockedUntil = Date.now() + retryMs
      stats.refused++
      return secondsLeft(window)
    })
  }

  /** The tokens an answer of this key used, taken from its block (a deficit is charged on the next lease). */
  function spend(record, tokens) {
    if (!(tokens > 0) || !(record.tpm ?? defaultTpm)) return
    const now = Date.now()
    stateOf(record.id, now - (now % windowMs)).tokens -= tokens
  }

  /** Gives back the unused part of blocks leased more than `leaseMs` ago (one statement for all keys). */
  async function giveBack() {
    const now = Date.now()
    const rows = []
    for (const [keyId, state] of states) {
      if (state.window + windowMs <= now) {
        states.delete(keyId)
        continue
      }
      if (state.pending || now - state.leasedAt < leaseMs) continue
      const requests = Math.max(0, state.requests)
      const tokens = Math.max(0, state.tokens)
      if (!requests && !tokens) continue
      rows.push([keyId, new Date(state.window), requests, tokens])
      state.requests -= requests
      state.tokens -= tokens
    }
    if (!rows.length) return
    stats.returns += rows.length
    await db
      .query(
        `UPDATE key_windows w SET requests = greatest(0, w.requests - r.requests), tokens = greatest(0, w.tokens - r.tokens)
         FROM unnest($1::uuid[], $2::timestamptz[], $3::int[], $4::bigint[]) AS r(key_id, window_start, requests, tokens)
         WHERE w.key_id = r.key_id AND w.window_start = r.window_start`,
        [0, 1, 2, 3].map((i) => rows.map((row) => row[i])),
      )
      .catch((error) => console.error('[service] unused rate-limit allowances not returned:', error.message))
  }
  const timer = setInterval(giveBack, 1_000)
  timer.unref()

  return {
    take,
    spend,
    stats,
    giveBack,
    /** Stops the timer and gives every unused allowance back. */
    async close() {
      clearInterval(timer)
      for (const state of states.values()) state.leasedAt = 0
      await giveBack()
    },
  }
}

/** A per-key limit from a form field: null (empty: the default), a whole number in 1…max, or false (invalid). */
export function parseLimit(value, max) {
  const text = String(value ?? '').trim()
  if (!text) return null
  const number = Number(text)
  return Number.isSafeInteger(number) && number >= 1 && number <= max ? number : false
}

/**
 * The sign-in limits (codes per address and per IP, attempts per IP): `limited(bucket, max, windowMs)` counts a hit in
 * a fixed-window `rate_limits` row shared by every instance and answers 0 when it is within `max`, else the seconds
 * until its window ends. A statement per hit — fine for sign-in forms; the API path uses the leased blocks above.
 */
export function signInLimiter(db) {
  const countHit = `ON CONFLICT (bucket) DO UPDATE SET
         count = CASE WHEN rate_limits.window_start < now() - ($2 || ' milliseconds')::interval THEN 1 ELSE rate_limits.count + 1 END,
         window_start = CASE WHEN rate_limits.window_start < now() - ($2 || ' milliseconds')::interval THEN now() ELSE rate_limits.window_start END
       RETURNING count, window_start`
  /** 0 when the counted hit is within `max`, else the seconds until its window ends. */
  const wait = (row, max, windowMs) =>
    row.count <= max ? 0 : Math.max(1, Math.ceil((new Date(row.window_start).getTime() + windowMs - Date.now()) / 1000))
  /** A fixed one-minute (or `windowMs`) window counter in the database, shared by every instance. */
  async function limited(bucket, max, windowMs = 60_000) {
    const [row] = await db.query(
      `INSERT INTO rate_limits (bucket, window_start, count) VALUES ($1::text, now(), 1) ${countHit}`,
      [bucket, String(windowMs)],
    )
    return wait(row, max, windowMs)
  }
  return limited
}
