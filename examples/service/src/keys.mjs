/**
 * API keys in memory: each instance caches key records by the key's SHA-256, so a request with a known key costs no
 * database round trip. The database tells every instance when a cached record goes stale: triggers
 * (migrations/0002_key_notify.sql) send `key:<id>` on the channel `interlingua_keys` when a key is revoked, deleted or
 * its expiry, allow-list or limits change, and `account:<id>` when an account is suspended, reinstated or deleted.
 *
 * The bound — a key revoked on any instance is refused by every instance within 1 s — rests on three things:
 * - Heartbeat (PostgreSQL server): every `heartbeatMs` (200 ms) the instance sends itself a ping on the same channel.
 *   PostgreSQL delivers notifications in commit order, so once a ping sent at time t is heard, every change committed
 *   before t has been applied. The cache is used only while the last ping heard was sent less than `staleMs` (800 ms)
 *   ago; otherwise every request reads its key from the database (correct, slower) until the pings flow again.
 *   The pings run while keys are being checked: from the start, and until `idleMs` (10 s) after the last check — an
 *   idle instance sends none (they were most of its idle CPU). The first key check after an idle spell reads the
 *   database and starts them again; the cache is in use as soon as the first ping is heard (a round trip later).
 * - A lost listening connection drops the whole cache (and bypasses it) until it is listening again. One that stops
 *   delivering without an error (a stalled peer, a network that drops packets silently) is found by the heartbeat: a
 *   ping not heard within `reopenMs` (3 s) has the instance give the connection up and open another — until then the
 *   cache is bypassed, as above, after `staleMs`.
 * - A lookup that started before an invalidation is not cached (an epoch counter), and entries live at most `ttlMs`
 *   (30 s) as a last safety net.
 * On PGlite (one process) the notifications come from PGlite's own listen, in process; the instance that revokes also
 * drops the key at once (`forget`).
 */
import { randomUUID } from 'node:crypto'
import { sha256 } from './security.mjs'

export const keysChannel = 'interlingua_keys'

/**
 * @typedef {{ id: string, accountId: string, models?: string[], expiresAt?: number, rpm?: number, tpm?: number,
 *   caller: { id: string, accountId: string, models?: string[] } }} KeyRecord
 */

export function createKeyCache(
  db,
  { ttlMs = 30_000, heartbeatMs = 200, staleMs = 800, idleMs = 10_000, reopenMs = 3_000, maxEntries = 100_000 } = {},
) {
  /** hash → { record: KeyRecord | null (no such valid key), expires } */
  const entries = new Map()
  /**
   * Presented key → its SHA-256 (hex): a hash costs ~3 µs, a request with a key seen before none. Only what clients
   * sent (in memory like the request itself; never logged or stored), at most `maxEntries`, dropped all at once
   * beyond — a flood of made-up keys costs them their hash again, nothing else.
   */
  const hashes = new Map()
  /** key id → hash, account id → hashes: what a notification names. */
  const byKey = new Map()
  const byAccount = new Map()
  let epoch = 0
  let subscribed = false
  const server = db.kind !== 'pglite'
  const instance = randomUUID()
  const sent = new Map()
  let seq = 0
  let heardSentAt = 0
  /** When a key was last checked (the start counts as one), and whether the heartbeat is running. */
  let checkedAt = Date.now()
  let beating = false
  let heartbeat
  let closed = false
  const stats = { hits: 0, misses: 0, invalidations: 0, resubscriptions: 0 }

  function dropAll() {
    entries.clear()
    byKey.clear()
    byAccount.clear()
    epoch++
  }
  function drop(hash) {
    const entry = entries.get(hash)
    entries.delete(hash)
    if (entry?.record) {
      byKey.delete(entry.record.id)
      byAccount.get(entry.record.accountId)?.delete(hash)
    }
  }
  function forgetKey(id) {
    epoch++
    stats.invalidations++
    const hash = byKey.get(id)
    if (hash) drop(hash)
  }
  function forgetAccount(id) {
    epoch++
    stats.invalidations++
    for (const hash of byAccount.get(id) ?? []) drop(hash)
    byAccount.delete(id)
    // A suspended account's keys are cached as "no such key": reinstating it must not wait for the TTL.
    for (const [hash, entry] of entries) if (entry.record === null) entries.delete(hash)
  }
  function onNotify(payload) {
    if (payload.startsWith('ping:')) {
      const [, from, number] = payload.split(':')
      if (from !== instance) return
      const at = sent.get(Number(number))
      if (at !== undefined) heardSentAt = Math.max(heardSentAt, at)
      for (const n of sent.keys()) if (n <= Number(number)) sent.delete(n)
      return
    }
    if (payload.startsWith('key:')) forgetKey(payload.slice(4))
    else if (payload.startsWith('account:')) forgetAccount(payload.slice(8))
    else dropAll()
  }
  const listening = db.listen(keysChannel, {
    onNotify,
    onSubscribed() {
      subscribed = true
      if (Date.now() - checkedAt < idleMs) wake()
    },
    onLost() {
      subscribed = false
      stats.resubscriptions++
      // Pings sent before the loss are never heard on the next connection (it hears what commits after its LISTEN).
      sent.clear()
      dropAll()
    },
  })
  /** A ping now and the next in `heartbeatMs` — unless not listening (`onSubscribed` wakes it) or idle. */
  function beat() {
    const now = Date.now()
    if (closed || !subscribed || now - checkedAt >= idleMs) {
      beating = false
      return
    }
    // The oldest ping not heard yet (pings are heard in order): `reopenMs` old, the connection is given up.
    const oldest = sent.values().next().value
    if (oldest !== undefined && now - oldest > reopenMs) {
      console.error(`[service] no notification heard for ${now - oldest} ms: opening another listening connection`)
      beating = false
      listening.reopen() // onLost, then onSubscribed wakes the heartbeat again
      return
    }
    seq += 1
    sent.set(seq, now)
    if (sent.size > 100) sent.delete(sent.keys().next().value)
    db.query('SELECT pg_notify($1, $2)', [keysChannel, `ping:${instance}:${seq}`]).catch(() => {})
    heartbeat = setTimeout(beat, heartbeatMs)
    heartbeat.unref()
  }
  function wake() {
    if (!server || beating) return
    beating = true
    clearTimeout(heartbeat)
    beat()
  }

  /** Whether cached records may be used at `now` (see the module doc). */
  const usable = (now = Date.now()) => subscribed && (!server || now - heardSentAt < staleMs)

  const valid = (record) =>
    record && (record.expiresAt === undefined || record.expiresAt > Date.now()) ? record : undefined

  async function load(hash) {
    const started = epoch
    stats.misses++
    const [row] = await db.query(
      `SELECT k.id, k.account_id, k.models, k.expires_at, k.rpm_limit, k.tpm_limit
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND a.suspended_at IS NULL`,
      [hash],
    )
    const record = row ? toRecord(row) : null
    if (epoch === started && usable()) {
      if (entries.size >= maxEntries) dropAll()
      entries.set(hash, { record, expires: Date.now() + ttlMs })
      if (record) {
        byKey.set(record.id, hash)
        const hashes = byAccount.get(record.accountId) ?? new Set()
        byAccount.set(record.accountId, hashes.add(hash))
      }
    }
    return valid(record)
  }

  return {
    stats,
    /**
     * Whether the cache is in use: listening, and on a server — while keys are being checked — the heartbeat heard
     * lately. An idle instance's is (its next check reads the database once and starts the heartbeat again).
     */
    usable: () => subscribed && (!server || !beating || Date.now() - heardSentAt < staleMs),
    /** The valid record of a presented key (not revoked, not expired, its account not suspended), or undefined. */
    lookup(presented) {
      let hash = hashes.get(presented)
      if (hash === undefined) {
        hash = sha256(presented)
        if (hashes.size >= maxEntries) hashes.clear()
        hashes.set(presented, hash)
      }
      const now = Date.now()
      checkedAt = now
      if (!beating) wake()
      if (usable(now)) {
        const entry = entries.get(hash)
        if (entry && entry.expires > now) {
          stats.hits++
          return valid(entry.record)
        }
      }
      return load(hash)
    },
    /** Drops a key at once on this instance (the others hear it from the database). */
    forgetKey,
    forgetAccount,
    async close() {
      closed = true
      clearTimeout(heartbeat)
      await listening.stop()
    },
  }
}

function toRecord(row) {
  const models = row.models?.length ? row.models : undefined
  return {
    id: row.id,
    accountId: row.account_id,
    models,
    expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : undefined,
    rpm: row.rpm_limit ?? undefined,
    tpm: row.tpm_limit ?? undefined,
    // What the gateway's hooks see (never the key); the limits for the token count after each answer.
    caller: {
      id: row.id,
      accountId: row.account_id,
      ...(models ? { models } : {}),
      ...(row.tpm_limit ? { tpm: row.tpm_limit } : {}),
    },
  }
}
