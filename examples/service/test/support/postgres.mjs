/**
 * A throwaway PostgreSQL server for tests and benchmarks: Debian's binaries (/usr/lib/postgresql/<version>/bin),
 * a temporary directory holding the data and the unix socket, listening on 127.0.0.1 on a free port, run as the
 * `postgres` user when we are root (PostgreSQL refuses to run as root). `stop()` stops it and removes the directory;
 * it also runs when the process exits, so a failed run leaves no server behind.
 *
 *   const pg = await startPostgres()          // ~2 s: initdb + start
 *   const url = await pg.createDatabase()     // a fresh database per suite: postgres://postgres@127.0.0.1:<port>/<name>
 *   await pg.stop()
 *
 * Vitest: test/global-setup.mjs starts one for the whole run and provides its admin URL (`inject('postgresUrl')`);
 * use `createDatabase(inject('postgresUrl'))` from a test file.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The newest installed PostgreSQL's bin directory, or a clear error saying how to install one. */
export function postgresBin() {
  const root = process.env.POSTGRES_ROOT ?? '/usr/lib/postgresql' // where Debian puts <version>/bin
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : []
  if (versions.length === 0)
    throw new Error(
      `PostgreSQL server binaries not found (no ${root}/*/bin/initdb): install them with \`apt-get install -y postgresql\``,
    )
  return join(root, versions[0], 'bin')
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/**
 * Starts a server; resolves to `{ url, port, createDatabase(name?), pid(), stop() }`. `fsync: false` (the default, for tests)
 * runs it without fsync; the benchmark keeps fsync on, as a real server has it.
 */
export async function startPostgres({ fsync = false } = {}) {
  const bin = postgresBin()
  const root = process.getuid?.() === 0
  const user = root ? 'postgres' : undefined
  const dir = mkdtempSync(join(tmpdir(), 'interlingua-pg-'))
  const data = join(dir, 'data')
  const log = join(dir, 'server.log')
  const as = (tool, args) => {
    const command = user ? 'runuser' : join(bin, tool)
    const argv = user ? ['-u', user, '--', join(bin, tool), ...args] : args
    const result = spawnSync(command, argv, { encoding: 'utf8', cwd: dir })
    if (result.status !== 0)
      throw new Error(
        `${tool} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout}${existsSync(log) ? `\n${readFileSync(log, 'utf8').slice(-2000)}` : ''}`,
      )
    return result.stdout
  }
  let started = false
  const stop = () => {
    if (started) {
      started = false
      try {
        as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } catch (error) {
        console.error(`[postgres] stop: ${error.message}`)
      }
    }
    rmSync(dir, { recursive: true, force: true })
    process.off('exit', stop)
  }
  process.on('exit', stop)
  try {
    if (user) {
      const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }))
      const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }))
      chownSync(dir, uid, gid)
    }
    chmodSync(dir, 0o700)
    // trust on 127.0.0.1 and the private socket directory only; a test server, thrown away afterwards.
    as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync'])
    let port
    for (let attempt = 0; ; attempt++) {
      port = await freePort()
      try {
        started = true
        as('pg_ctl', [
          '-D',
          data,
          '-l',
          log,
          '-w',
          '-t',
          '60',
          '-o',
          `-h 127.0.0.1 -p ${port} -k ${dir}${fsync ? '' : ' -F'} -c max_connections=200`,
          'start',
        ])
        break
      } catch (error) {
        started = false
        if (attempt >= 2) throw error // the port was taken meanwhile: try another
      }
    }
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`
    let databases = 0
    return {
      url,
      port,
      /** A new empty database on this server; its URL. */
      createDatabase: (name = `test_${process.pid}_${++databases}`) => createDatabase(url, name),
      /** The server's main process id (postmaster.pid's first line): its backends are its children. */
      pid: () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
      stop: async () => stop(),
    }
  } catch (error) {
    stop()
    throw error
  }
}

/**
 * Creates a database on the server at `adminUrl` (a URL of an existing database), empty or as a copy of `template` (a
 * database nobody is connected to); resolves to the new one's URL.
 */
export async function createDatabase(
  adminUrl,
  name = `test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`,
  template = undefined,
) {
  for (const plain of [name, template ?? name])
    if (!/^[a-z_][a-z0-9_]*$/.test(plain)) throw new Error(`not a plain database name: ${plain}`)
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`)
  } finally {
    await client.end()
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}
