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
 * - A lost listening connection drops the whole cache (and bypasses it) until it is listening again.
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

export function createKeyCache(db, { ttlMs = 30_000, heartbeatMs = 200, staleMs = 800, maxEntries = 100_000 } = {}) {
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
  const stopListening = db.listen(keysChannel, {
    onNotify,
    onSubscribed() {
      subscribed = true
    },
    onLost() {
      subscribed = false
      stats.resubscriptions++
      dropAll()
    },
  })
  let heartbeat
  if (server) {
    heartbeat = setInterval(() => {
      if (!subscribed) return
      seq += 1
      sent.set(seq, Date.now())
      if (sent.size > 100) sent.delete(sent.keys().next().value)
      db.query('SELECT pg_notify($1, $2)', [keysChannel, `ping:${instance}:${seq}`]).catch(() => {})
    }, heartbeatMs)
    heartbeat.unref()
  }

  /** Whether cached records may be used now (see the module doc). */
  const usable = () => subscribed && (!server || Date.now() - heardSentAt < staleMs)

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
    /** Whether the cache is in use (listening, and on a server the heartbeat heard lately). */
    usable,
    /** The valid record of a presented key (not revoked, not expired, its account not suspended), or undefined. */
    lookup(presented) {
      let hash = hashes.get(presented)
      if (hash === undefined) {
        hash = sha256(presented)
        if (hashes.size >= maxEntries) hashes.clear()
        hashes.set(presented, hash)
      }
      if (usable()) {
        const entry = entries.get(hash)
        if (entry && entry.expires > Date.now()) {
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
      clearInterval(heartbeat)
      await stopListening()
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
