/**
 * The generated migrations (src/schema.mjs → migrations/) make exactly the schema the hand-written 0001_init.sql made —
 * same tables, columns, types, defaults, constraints (with their names) and indexes — on PGlite and on PostgreSQL, and
 * a database made by the hand-written migration is adopted at start, its data kept.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../src/db.mjs'
import { testDatabase, testDatabases } from './support/databases.mjs'

const handWritten = readFileSync(new URL('fixtures/0001_init.sql', import.meta.url), 'utf8')
const migrations = JSON.parse(readFileSync(new URL('../migrations/meta/_journal.json', import.meta.url), 'utf8'))
  .entries.length

/** The public schema as the catalog describes it (the old bookkeeping table left out). */
async function describeSchema(query) {
  const columns = await query(`
    SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
      pg_get_expr(d.adbin, d.adrelid) AS default
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'schema_migrations' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY 1, a.attnum`)
  const constraints = await query(`
    SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS definition
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> 'schema_migrations'
    ORDER BY 1, 2`)
  const indexes = await query(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = 'public' AND tablename <> 'schema_migrations' ORDER BY 1`,
  )
  return { columns, constraints, indexes }
}

/** A raw connection (no migrations run): `query`, `exec` (a script), `close`. */
async function rawConnection(config) {
  if (config.databaseUrl) {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: config.databaseUrl })
    await client.connect()
    return {
      query: async (sql, params) => (await client.query(sql, params)).rows,
      exec: (sql) => client.query(sql),
      close: () => client.end(),
    }
  }
  const { PGlite } = await import('@electric-sql/pglite')
  const client = await PGlite.create(config.dataDir)
  return {
    query: async (sql, params) => (await client.query(sql, params)).rows,
    exec: (sql) => client.exec(sql),
    close: () => client.close(),
  }
}

it('migrations/ is up to date with src/schema.mjs (otherwise: npm run db:generate)', async () => {
  const { generateDrizzleJson, generateMigration } = await import('drizzle-kit/api')
  const schema = await import('../src/schema.mjs')
  const journal = JSON.parse(readFileSync(new URL('../migrations/meta/_journal.json', import.meta.url), 'utf8'))
  const last = journal.entries.at(-1)
  const snapshot = new URL(`../migrations/meta/${String(last.idx).padStart(4, '0')}_snapshot.json`, import.meta.url)
  const previous = JSON.parse(readFileSync(snapshot, 'utf8'))
  expect(await generateMigration(previous, generateDrizzleJson(schema, previous.id))).toEqual([])
  // …and the comparison does see a change.
  const { settings: _, ...withoutSettings } = schema
  expect(await generateMigration(previous, generateDrizzleJson(withoutSettings, previous.id))).toEqual([
    'DROP TABLE "settings" CASCADE;',
  ])
})

describe.each(testDatabases())('on %s', (kind) => {
  let database, before, adopted
  beforeAll(async () => {
    database = await testDatabase(kind, { empty: true })
  })
  afterAll(() => database?.cleanup())

  it('a database made by the hand-written migration is adopted: recorded as migrated, its data kept', async () => {
    const raw = await rawConnection(database.config)
    // What the hand-written migrator did: the script in a transaction, recorded in schema_migrations.
    await raw.exec(
      `CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
       BEGIN;\n${handWritten}\nINSERT INTO schema_migrations (name) VALUES ('0001_init.sql');\nCOMMIT;`,
    )
    await raw.query(`INSERT INTO accounts (email, email_key) VALUES ('old@example.com', 'old@example.com')`)
    before = await describeSchema(raw.query)
    await raw.close()

    const db = await openDatabase(database.config)
    try {
      // The first generated migration recorded as applied (not run), the later ones run.
      expect(await db.query('SELECT hash FROM drizzle.__drizzle_migrations')).toHaveLength(migrations)
      expect(await db.query(`SELECT to_regclass('public.schema_migrations') AS t`)).toEqual([{ t: null }])
      expect(await db.query('SELECT email FROM accounts')).toEqual([{ email: 'old@example.com' }])
      adopted = await describeSchema(db.query)
      // Everything the hand-written migration made is still there, as it was (the later migrations only add).
      expect(adopted.columns).toEqual(expect.arrayContaining(before.columns))
      expect(adopted.constraints).toEqual(expect.arrayContaining(before.constraints))
      expect(adopted.indexes).toEqual(expect.arrayContaining(before.indexes))
      // Start from nothing for the next test.
      await db.query('DROP SCHEMA public CASCADE')
      await db.query('CREATE SCHEMA public')
      await db.query('DROP SCHEMA drizzle CASCADE')
    } finally {
      await db.close()
    }
  })

  it('the generated migrations make the same tables, columns, constraints and indexes; a restart runs none again', async () => {
    expect(before.columns.length).toBeGreaterThan(30)
    const db = await openDatabase(database.config)
    try {
      expect(await describeSchema(db.query)).toEqual(adopted)
    } finally {
      await db.close()
    }
    const again = await openDatabase(database.config)
    try {
      expect(await again.query('SELECT hash FROM drizzle.__drizzle_migrations')).toHaveLength(migrations)
    } finally {
      await again.close()
    }
  })
})
