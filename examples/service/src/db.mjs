/**
 * The database: embedded PostgreSQL (PGlite, data in DATA_DIR) by default, a PostgreSQL server when DATABASE_URL is
 * set — the same SQL, the same migrations (migrations/*.sql, applied in order at start, recorded in
 * `schema_migrations`; several instances starting together serialise on an advisory lock).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const migrationsDir = fileURLToPath(new URL('../migrations/', import.meta.url))

/** @returns {Promise<{ query: (sql: string, params?: unknown[]) => Promise<any[]>, close: () => Promise<void>, kind: string }>} */
export async function openDatabase({ databaseUrl, dataDir }) {
  let db
  if (databaseUrl) {
    const { default: pg } = await import('pg')
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })
    db = {
      kind: 'postgresql',
      query: async (sql, params = []) => (await pool.query(sql, params)).rows,
      close: () => pool.end(),
    }
    // Migrations on one connection holding a session lock: instances starting together apply each file once.
    const client = await pool.connect()
    try {
      await client.query('SELECT pg_advisory_lock(7261)')
      await migrate((sql, params) => client.query(sql, params).then((r) => r.rows))
      await client.query('SELECT pg_advisory_unlock(7261)')
    } finally {
      client.release()
    }
    return db
  } else {
    const { PGlite } = await import('@electric-sql/pglite')
    const client = await PGlite.create(dataDir)
    db = {
      kind: 'pglite',
      query: async (sql, params = []) => (await client.query(sql, params)).rows,
      close: () => client.close(),
    }
    await migrate(async (sql, params) => {
      if (params) return (await client.query(sql, params)).rows
      await client.exec(sql)
      return []
    })
  }
  return db
}

/** Applies migrations/*.sql in name order, each once, each in a transaction. `run(sql)` without params may be a script. */
async function migrate(run) {
  await run(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  )
  const files = readdirSync(migrationsDir)
    .filter((file) => /^\d+_[a-z0-9_]+\.sql$/.test(file))
    .sort()
  for (const file of files) {
    const done = await run('SELECT 1 FROM schema_migrations WHERE name = $1', [file])
    if (done.length > 0) continue
    const sql = readFileSync(migrationsDir + file, 'utf8')
    await run(`BEGIN;\n${sql}\nINSERT INTO schema_migrations (name) VALUES ('${file}');\nCOMMIT;`)
  }
}
