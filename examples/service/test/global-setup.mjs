/**
 * Vitest global setup: one PostgreSQL server for the whole run (unless TEST_DATABASES leaves it out), stopped and
 * removed afterwards, also when tests fail. Test files get its admin URL with `inject('postgresUrl')` and make their
 * own database on it (test/support/databases.mjs). Missing server binaries fail the run here, with how to install them.
 */

import { testDatabases } from './support/databases.mjs'
import { startPostgres } from './support/postgres.mjs'

export default async function setup(project) {
  if (!testDatabases().includes('postgres')) return
  const started = Date.now()
  const server = await startPostgres()
  console.log(`[test] PostgreSQL on 127.0.0.1:${server.port} (${Date.now() - started} ms)`)
  project.provide('postgresUrl', server.url)
  return () => server.stop()
}
