/**
 * Vitest global setup: one PostgreSQL server for the whole run (unless TEST_DATABASES leaves it out), and a migrated
 * template of each database kind — a PGlite data directory and a PostgreSQL database — made once, so a suite's fresh
 * database is a copy (PGlite: ~2 s instead of ~20 s for its initdb; PostgreSQL: `CREATE DATABASE … TEMPLATE`); an empty
 * PGlite database is a copy of a cluster just made by initdb. Test
 * files get them with `inject(…)` through test/support/databases.mjs; suites that need an empty database (migrations,
 * adoption, racing instances) ask for one. Everything is stopped and removed afterwards, also when tests fail. Missing
 * server binaries fail the run here, with how to install them.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../src/db.mjs'
import { testDatabases } from './support/databases.mjs'
import { createDatabase, startPostgres } from './support/postgres.mjs'

/** Applies the migrations to a database, then closes it: what every copy starts from. */
async function migrated(config) {
  const db = await openDatabase(config)
  await db.close()
}

async function postgresTemplate() {
  const started = Date.now()
  const server = await startPostgres()
  const template = 'service_template'
  await migrated({ databaseUrl: await createDatabase(server.url, template) })
  console.log(`[test] PostgreSQL on 127.0.0.1:${server.port}, template migrated (${Date.now() - started} ms)`)
  return { server, template }
}

/** PGlite's initdb once: an empty cluster (for `{ empty: true }`) and a migrated copy of it. */
async function pgliteTemplates() {
  const started = Date.now()
  const empty = mkdtempSync(join(tmpdir(), 'interlingua-template-empty-'))
  const { PGlite } = await import('@electric-sql/pglite')
  await (await PGlite.create(empty)).close()
  const dataDir = mkdtempSync(join(tmpdir(), 'interlingua-template-'))
  cpSync(empty, dataDir, { recursive: true })
  await migrated({ dataDir })
  console.log(`[test] PGlite templates made (${Date.now() - started} ms)`)
  return {
    empty,
    dataDir,
    cleanup: () => {
      for (const dir of [empty, dataDir]) rmSync(dir, { recursive: true, force: true })
    },
  }
}

export default async function setup(project) {
  const kinds = testDatabases()
  const [postgres, pglite] = await Promise.all([
    kinds.includes('postgres') ? postgresTemplate() : undefined,
    kinds.includes('pglite') ? pgliteTemplates() : undefined,
  ])
  if (postgres) {
    project.provide('postgresUrl', postgres.server.url)
    project.provide('postgresTemplate', postgres.template)
  }
  if (pglite) {
    project.provide('pgliteTemplate', pglite.dataDir)
    project.provide('pgliteEmptyTemplate', pglite.empty)
  }
  return async () => {
    await postgres?.server.stop()
    pglite?.cleanup()
  }
}
