/**
 * Which databases the service suites run against: both by default (`pglite`: the embedded database in a temporary
 * directory; `postgres`: a fresh database on the PostgreSQL server test/global-setup.mjs started). Narrow it with
 * TEST_DATABASES=pglite (or =postgres) while developing. A fresh database is a copy of the run's migrated template
 * (test/global-setup.mjs), or empty with `{ empty: true }` (for what migrating an empty database does).
 *
 *   describe.each(testDatabases())('on %s', (kind) => {
 *     let database
 *     beforeAll(async () => { database = await testDatabase(kind) })   // { kind, config, cleanup }
 *     afterAll(() => database?.cleanup())
 *     // openDatabase(database.config), or env DATABASE_URL / DATA_DIR for a spawned server: database.env
 *   })
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDatabase } from './postgres.mjs'

export function testDatabases() {
  const kinds = (process.env.TEST_DATABASES ?? 'pglite,postgres').split(',').map((k) => k.trim())
  for (const kind of kinds) if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`unknown database ${kind}`)
  return kinds
}

/**
 * The kind a suite that does not depend on the database runs on: PostgreSQL when the run has it (a spawned service
 * starts on it in about a second; on PGlite the process compiles PostgreSQL's WebAssembly first, ~5–10 s).
 */
export function fastest() {
  return testDatabases().includes('postgres') ? 'postgres' : 'pglite'
}

/**
 * A fresh database of that kind, migrated (a copy of the run's template) or `empty`: `config` for openDatabase, `env`
 * for a service process, `cleanup()`.
 */
export async function testDatabase(kind, { empty = false } = {}) {
  const { inject } = await import('vitest')
  if (kind === 'postgres') {
    const admin = inject('postgresUrl')
    if (!admin) throw new Error('no PostgreSQL server: test/global-setup.mjs did not start one (TEST_DATABASES?)')
    const databaseUrl = await createDatabase(admin, undefined, empty ? undefined : inject('postgresTemplate'))
    return { kind, config: { databaseUrl }, env: { DATABASE_URL: databaseUrl }, cleanup: async () => {} }
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'interlingua-service-'))
  const template = inject(empty ? 'pgliteEmptyTemplate' : 'pgliteTemplate')
  if (template) cpSync(template, dataDir, { recursive: true })
  return {
    kind,
    config: { dataDir },
    env: { DATA_DIR: dataDir },
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  }
}
