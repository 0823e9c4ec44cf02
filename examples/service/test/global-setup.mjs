/**
 * Vitest global setup: one PostgreSQL server for the whole run (unless TEST_DATABASES leaves it out), and a migrated
 * template of each database kind, made once, so a suite's fresh database is a copy: a PostgreSQL database
 * (`CREATE DATABASE … TEMPLATE`) and a PGlite data directory (~2 s to copy instead of ~20 s for PGlite's initdb on a
 * busy machine; kept between runs, see `pgliteTemplates`). Test files get them with `inject(…)` through
 * test/support/databases.mjs; suites that need an empty database (migrations, adoption, racing instances) ask for one.
 * The server is stopped and removed afterwards, also when tests fail. Missing server binaries fail the run here, with
 * how to install them.
 */
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openDatabase } from '../src/db.mjs'
import { testDatabases } from './support/databases.mjs'
import { createDatabase, startPostgres } from './support/postgres.mjs'

const serviceDir = fileURLToPath(new URL('..', import.meta.url))
const migrationsDir = join(serviceDir, 'migrations')

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

/**
 * PGlite's initdb once: an empty cluster (for `{ empty: true }`) and a migrated copy of it — kept between runs in
 * node_modules/.cache (keyed by PGlite's version and the migrations' contents; made in a scratch directory and renamed
 * into place, so concurrent runs never see half of one). Nobody writes to a template: suites get copies.
 */
async function pgliteTemplates() {
  const started = Date.now()
  const { PGlite } = await import('@electric-sql/pglite')
  const manifest = join(serviceDir, 'node_modules', '@electric-sql', 'pglite', 'package.json')
  const { version } = JSON.parse(readFileSync(manifest, 'utf8'))
  const hash = createHash('sha256').update(version)
  for (const file of readdirSync(migrationsDir, { recursive: true }).sort()) {
    const path = join(migrationsDir, file)
    if (statSync(path).isFile()) hash.update(file).update(readFileSync(path))
  }
  const cache = join(serviceDir, 'node_modules', '.cache', 'service-tests')
  const empty = join(cache, `pglite-${version}-empty`)
  const dataDir = join(cache, `pglite-${hash.digest('hex').slice(0, 16)}`)
  const made = []
  const make = async (target, fill) => {
    if (existsSync(target)) return
    mkdirSync(cache, { recursive: true })
    const scratch = mkdtempSync(join(cache, 'scratch-'))
    try {
      await fill(scratch)
      renameSync(scratch, target)
      made.push(target === empty ? 'empty' : 'migrated')
    } catch (error) {
      rmSync(scratch, { recursive: true, force: true })
      if (!existsSync(target)) throw error // else another run made it meanwhile
    }
  }
  await make(empty, async (dir) => (await PGlite.create(dir)).close())
  await make(dataDir, async (dir) => {
    cpSync(empty, dir, { recursive: true })
    await migrated({ dataDir: dir })
  })
  // Older templates (other migrations, another PGlite) are not needed again.
  for (const entry of readdirSync(cache))
    if (entry.startsWith('pglite-') && ![empty, dataDir].includes(join(cache, entry)))
      rmSync(join(cache, entry), { recursive: true, force: true })
  console.log(
    `[test] PGlite templates ${made.length ? `made (${made.join(', ')})` : 'from the cache'} (${Date.now() - started} ms)`,
  )
  return { empty, dataDir }
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
  }
}
