/**
 * Which databases the service suites run against: both by default (`pglite`: the embedded database in a temporary
 * directory; `postgres`: a fresh database on the PostgreSQL server test/global-setup.mjs started). Narrow it with
 * TEST_DATABASES=pglite (or =postgres) while developing.
 *
 *   describe.each(testDatabases())('on %s', (kind) => {
 *     let database
 *     beforeAll(async () => { database = await testDatabase(kind) })   // { kind, config, cleanup }
 *     afterAll(() => database?.cleanup())
 *     // openDatabase(database.config), or env DATABASE_URL / DATA_DIR for a spawned server: database.env
 *   })
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDatabase } from './postgres.mjs'

export function testDatabases() {
  const kinds = (process.env.TEST_DATABASES ?? 'pglite,postgres').split(',').map((k) => k.trim())
  for (const kind of kinds) if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`unknown database ${kind}`)
  return kinds
}

/** A fresh, empty database of that kind: `config` for openDatabase, `env` for a service process, `cleanup()`. */
export async function testDatabase(kind) {
  if (kind === 'postgres') {
    const { inject } = await import('vitest')
    const admin = inject('postgresUrl')
    if (!admin) throw new Error('no PostgreSQL server: test/global-setup.mjs did not start one (TEST_DATABASES?)')
    const databaseUrl = await createDatabase(admin)
    return { kind, config: { databaseUrl }, env: { DATABASE_URL: databaseUrl }, cleanup: async () => {} }
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'interlingua-service-'))
  return {
    kind,
    config: { dataDir },
    env: { DATA_DIR: dataDir },
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  }
}
