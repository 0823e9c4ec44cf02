/**
 * The service as a separate process (`node server.mjs`), the way it is deployed: env PORT, DATABASE_URL or DATA_DIR,
 * SMTP_URL…; no upstream keys from the caller's environment (the embedded mock model serves every model).
 *
 *   const a = await startService({ DATABASE_URL, SMTP_URL })   // { base, pid, startMs, output(), stop() }
 *
 * `script` runs another entry point the same way (the benchmark's bare gateway); it must print `listening on http…`.
 * `logFile` sends its stdout and stderr to that file instead of a pipe read by this process (the benchmark: a service
 * under load writes a line per request, and reading them would cost the process that generates the load); "listening"
 * is then found by reading the file's start every 20 ms until it is there, and nothing of it is read afterwards.
 */
import { spawn } from 'node:child_process'
import { closeSync, openSync, readSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { freePort } from './postgres.mjs'

const serviceDir = fileURLToPath(new URL('../..', import.meta.url))

export async function startService(env, { timeoutMs = 60_000, script = 'server.mjs', logFile } = {}) {
  const port = await freePort()
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/_API_KEY$|_BASE_URL$|^DATABASE_URL$|^DATA_DIR$|^SMTP_URL$/.test(name),
    ),
  )
  const started = Date.now()
  const fd = logFile ? openSync(logFile, 'a') : undefined
  const child = spawn(process.execPath, [script], {
    cwd: serviceDir,
    env: { ...clean, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', fd ?? 'pipe', fd ?? 'pipe'],
  })
  if (fd !== undefined) closeSync(fd)
  // What it printed: all of it up to 1 MiB, then the first 256 KiB and the latest (a process under load logs a line per
  // request). With `logFile`, the file's first 64 KiB when asked.
  let output = ''
  const keep = (chunk) => {
    output += chunk
    if (output.length > 1 << 20) output = `${output.slice(0, 1 << 18)}\n[…]\n${output.slice(-(1 << 18))}`
  }
  const readLog = () => {
    const file = openSync(logFile, 'r')
    try {
      const buffer = Buffer.alloc(1 << 16)
      return buffer.toString('utf8', 0, readSync(file, buffer, 0, buffer.length, 0))
    } finally {
      closeSync(file)
    }
  }
  if (!logFile) {
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
  }
  const printed = () => (logFile ? readLog() : output)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }
  try {
    await new Promise((resolve, reject) => {
      let poll
      const done = () => {
        clearTimeout(timer)
        clearInterval(poll)
      }
      const timer = setTimeout(() => {
        done()
        reject(new Error(`the service did not start in ${timeoutMs} ms:\n${printed()}`))
      }, timeoutMs)
      const check = () => {
        if (/listening on http/.test(printed())) {
          done()
          resolve()
        }
      }
      if (logFile) poll = setInterval(check, 20)
      else child.stdout.on('data', check)
      child.once('exit', (code, signal) => {
        done()
        reject(new Error(`the service exited (${code ?? signal}) before listening:\n${printed()}`))
      })
    })
  } catch (error) {
    await stop()
    throw error
  }
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid,
    startMs: Date.now() - started,
    output: printed,
    stop,
  }
}

/**
 * An in-process service (`createService(…)`) on a `node:http` server on 127.0.0.1, a random port — through its
 * `listener` as `server.mjs` serves it. `service()` is read per request, so the server can start before the service
 * exists (its public URL needs the port). Resolves `{ server, base, close }`: `close()` stops it, its kept-alive
 * connections included.
 */
export async function listenService(service) {
  const { createServer } = await import('node:http')
  const server = createServer((req, res) => service().listener(req, res))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const close = () =>
    new Promise((resolve) => {
      server.close(resolve)
      server.closeAllConnections()
    })
  return { server, base: `http://127.0.0.1:${server.address().port}`, close }
}
