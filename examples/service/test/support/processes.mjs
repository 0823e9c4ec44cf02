/**
 * The service as a separate process (`node server.mjs`), the way it is deployed: env PORT, DATABASE_URL or DATA_DIR,
 * SMTP_URL…; no upstream keys from the caller's environment (the embedded mock model serves every model).
 *
 *   const a = await startService({ DATABASE_URL, SMTP_URL })   // { base, pid, startMs, output(), stop() }
 *
 * `script` runs another entry point the same way (the benchmark's bare gateway); it must print `listening on http…`.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { freePort } from './postgres.mjs'

const serviceDir = fileURLToPath(new URL('../..', import.meta.url))

export async function startService(env, { timeoutMs = 60_000, script = 'server.mjs' } = {}) {
  const port = await freePort()
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/_API_KEY$|_BASE_URL$|^DATABASE_URL$|^DATA_DIR$|^SMTP_URL$/.test(name),
    ),
  )
  const started = Date.now()
  const child = spawn(process.execPath, [script], {
    cwd: serviceDir,
    env: { ...clean, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // What it printed: all of it up to 1 MiB, then the first 256 KiB and the latest (a process under load logs a line per
  // request).
  let output = ''
  const keep = (chunk) => {
    output += chunk
    if (output.length > 1 << 20) output = `${output.slice(0, 1 << 18)}\n[…]\n${output.slice(-(1 << 18))}`
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the service did not start in ${timeoutMs} ms:\n${output}`)),
        timeoutMs,
      )
      child.stdout.on('data', () => {
        if (/listening on http/.test(output)) {
          clearTimeout(timer)
          resolve()
        }
      })
      child.once('exit', (code, signal) => {
        clearTimeout(timer)
        reject(new Error(`the service exited (${code ?? signal}) before listening:\n${output}`))
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
    output: () => output,
    stop,
  }
}

/**
 * An in-process service (`createService(…)`) on a `node:http` server on 127.0.0.1, a random port — through its
 * `listener` as `server.mjs` serves it. `service()` is read per request, so the server can start before the service
 * exists (its public URL needs the port). Resolves `{ server, base }`.
 */
export async function listenService(service) {
  const { createServer } = await import('node:http')
  const server = createServer((req, res) => service().listener(req, res))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, base: `http://127.0.0.1:${server.address().port}` }
}
