/**
 * The service's schema, the source of the generated migrations (`npm run db:generate` → migrations/). Queries stay
 * plain SQL (src/app.mjs); this file only describes the tables. Constraint names are PostgreSQL's own defaults
 * (`<table>_pkey`, `<table>_<column>_key`, `<table>_<column>_fkey`), so the generated schema is the one the
 * hand-written 0001_init.sql made. Runs on PGlite (PostgreSQL 18, embedded) and on PostgreSQL 15+ alike.
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  bigserial,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'

const timestamptz = (name) => timestamp(name, { withTimezone: true })

export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  email: text('email').notNull(),
  emailKey: text('email_key').notNull().unique('accounts_email_key_key'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  /** Set by an operator (`UPDATE accounts SET suspended_at = now() …`): its keys are refused on every instance. */
  suspendedAt: timestamptz('suspended_at'),
})

/** One pending sign-in code per normalised address: a new code replaces the old one. */
export const loginCodes = pgTable('login_codes', {
  emailKey: text('email_key').primaryKey(),
  email: text('email').notNull(),
  codeHash: text('code_hash').notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
})

export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    accountId: uuid('account_id').notNull(),
    csrf: text('csrf').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ name: 'sessions_account_id_fkey', columns: [t.accountId], foreignColumns: [accounts.id] }).onDelete(
      'cascade',
    ),
  ],
)

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    accountId: uuid('account_id').notNull(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique('api_keys_key_hash_key'),
    models: text('models').array(),
    expiresAt: timestamptz('expires_at'),
    revokedAt: timestamptz('revoked_at'),
    lastUsedAt: timestamptz('last_used_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** Requests a minute; null: the instance default (KEY_RATE_LIMIT). */
    rpmLimit: integer('rpm_limit'),
    /** Tokens (input + output) a minute; null: the instance default (KEY_TOKEN_LIMIT, none unless set). */
    tpmLimit: integer('tpm_limit'),
  },
  (t) => [
    foreignKey({ name: 'api_keys_account_id_fkey', columns: [t.accountId], foreignColumns: [accounts.id] }).onDelete(
      'cascade',
    ),
    index('api_keys_account').on(t.accountId),
  ],
)

/** Usage as daily aggregates: one row per key, model and day, upserted in batches (src/app.mjs), so pages stay fast at any volume. */
export const usageDaily = pgTable(
  'usage_daily',
  {
    accountId: uuid('account_id').notNull(),
    keyId: uuid('key_id').notNull(),
    model: text('model').notNull(),
    day: date('day').notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull().default(0),
    errors: bigint('errors', { mode: 'number' }).notNull().default(0),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
    cachedTokens: bigint('cached_tokens', { mode: 'number' }).notNull().default(0),
    reasoningTokens: bigint('reasoning_tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'usage_daily_pkey', columns: [t.keyId, t.model, t.day] }),
    foreignKey({ name: 'usage_daily_account_id_fkey', columns: [t.accountId], foreignColumns: [accounts.id] }).onDelete(
      'cascade',
    ),
    foreignKey({ name: 'usage_daily_key_id_fkey', columns: [t.keyId], foreignColumns: [apiKeys.id] }).onDelete(
      'cascade',
    ),
    index('usage_daily_account_day').on(t.accountId, t.day),
  ],
)

/** Fixed-window rate limits shared by every instance (they all use this database). */
export const rateLimits = pgTable('rate_limits', {
  bucket: text('bucket').primaryKey(),
  windowStart: timestamptz('window_start').notNull(),
  count: integer('count').notNull(),
})

/** Instance-wide settings (the HMAC secret for sign-in codes is made once and shared by every instance). */
export const settings = pgTable('settings', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
})

/**
 * Per-key rate-limit windows (one row per key and UTC minute), touched only when an instance leases a block of
 * allowances or returns the unused part of one (src/limits.mjs) — not per request. Old windows are deleted by the
 * periodic clean-up.
 */
export const keyWindows = pgTable(
  'key_windows',
  {
    keyId: uuid('key_id').notNull(),
    windowStart: timestamptz('window_start').notNull(),
    requests: integer('requests').notNull().default(0),
    tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
    /** The requests and tokens the last lease of this row granted (read back by that lease's RETURNING). */
    grantedRequests: integer('granted_requests').notNull().default(0),
    grantedTokens: bigint('granted_tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'key_windows_pkey', columns: [t.keyId, t.windowStart] }),
    foreignKey({ name: 'key_windows_key_id_fkey', columns: [t.keyId], foreignColumns: [apiKeys.id] }).onDelete(
      'cascade',
    ),
    index('key_windows_window_start').on(t.windowStart),
  ],
)

/** A table of the gateway's conversation state (src/stores.mjs): by scope and id, JSON, read only before its expiry. */
const stateTable = (name, value) =>
  pgTable(
    name,
    {
      scope: text('scope').notNull(),
      id: text('id').notNull(),
      [value]: jsonb(value).notNull(),
      expiresAt: timestamptz('expires_at').notNull(),
    },
    (t) => [
      primaryKey({ name: `${name}_pkey`, columns: [t.scope, t.id] }),
      index(`${name}_expires_at`).on(t.expiresAt),
    ],
  )

/** The gateway's Responses store, shared by every instance: one row per stored response. */
export const storedResponses = stateTable('stored_responses', 'body')
/** The input and output items of stored responses, by item id (`item_reference`). */
export const storedItems = stateTable('stored_items', 'item')
/** The gateway's reasoning entries (chat clients that drop `reasoning_details`): by scope and first tool-call id. */
export const storedReasoning = stateTable('stored_reasoning', 'details')

/**
 * The request log (`/logs`), by batch (src/request-log.mjs): one row per key and write of the usage batches (every
 * second; a busy key's second in rows of at most 1000 requests), its requests as a JSON array of compact entries in
 * `entries` — never the prompt or the answer. Per request, the database stores a few bytes of text: no row, index entry
 * or foreign-key check. Batches are deleted whole by the periodic clean-up once their last request is older than
 * LOG_RETENTION_DAYS (7).
 */
export const requestLogBatches = pgTable(
  'request_log_batches',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: uuid('account_id').notNull(),
    keyId: uuid('key_id').notNull(),
    /** The batch's earliest and latest request (their start). */
    firstAt: timestamptz('first_at').notNull(),
    lastAt: timestamptz('last_at').notNull(),
    /** How many requests `entries` holds. */
    requests: integer('requests').notNull(),
    /** The JSON array of the requests' entries (written by the service as text: no parsing on the way in). */
    entries: text('entries').notNull(),
  },
  (t) => [
    foreignKey({
      name: 'request_log_batches_account_id_fkey',
      columns: [t.accountId],
      foreignColumns: [accounts.id],
    }).onDelete('cascade'),
    foreignKey({ name: 'request_log_batches_key_id_fkey', columns: [t.keyId], foreignColumns: [apiKeys.id] }).onDelete(
      'cascade',
    ),
    index('request_log_batches_account_last_at').on(t.accountId, t.lastAt),
    index('request_log_batches_last_at').on(t.lastAt),
    // Deleting an account deletes its keys, and each key's batches through this foreign key: without an index on
    // key_id, every key would scan the whole table (every account's batches).
    index('request_log_batches_key_id').on(t.keyId),
  ],
)
