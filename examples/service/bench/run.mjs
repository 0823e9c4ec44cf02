// The service's numbers, measured in one run on this machine (`npm run bench`; about 2 minutes):
//  - start-up: spawn of `node server.mjs` → "listening", on PGlite (first start: a new data directory; warm: the same
//    directory again) and on PostgreSQL (first start: an empty database, migrations applied; warm: migrated already);
//  - RSS of the service process: idle after start-up, and the highest seen under load;
//  - requests per second and p50 latency through the service's gateway (key records cached in memory, per-key rate
//    limit counted in leased blocks, usage counted in memory and upserted once a second) against the library's CLI
//    gateway (`interlingua`, i.e. `toNodeListener(createGateway())` on the mock model, one key in INTERLINGUA_API_KEYS)
//    — and, as a second row, the library gateway mounted on Hono like the service did before (bench/bare.mjs) — same
//    process setup, rounds interleaved; the ratio is the median of each round's target / CLI ratio, "added p50" the
//    median of each round's p50 difference (a shared machine drifts between rounds, much less within one).
// PostgreSQL is a local server started for the run (Debian's binaries, fsync on), stopped afterwards. Its CPU per
// request (the server process and its backends, from /proc; counted in the rounds of the service on PostgreSQL) is
// reported next to the service's: on a 2-core machine the two compete for the same cores.
// The servers under load write their stdout and stderr to files in the run's temporary directory, not to a pipe read by
// this process: this process also generates the load (autocannon), and reading a line per request of the service's
// log would slow the load down on the service's rows only. Where a real deployment's log collector runs is another
// process's business; the service still makes and writes every line (LOG_LEVEL is left at its default, info). The
// start-up timings still read "listening" from a pipe (no load then, and no polling delay in the figure).
// Each round runs every target once, in an order rotated by one each round (no target always follows the same one).
// Options (env): BENCH_SECONDS (per round, default 2), BENCH_ROUNDS (default 9), BENCH_CONNECTIONS (default 10),
// BENCH_FSYNC=0 (the PostgreSQL server without fsync).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { browser, createKey, signUp, startMailCatcher } from '../test/support/client.mjs'
import { startPostgres } from '../test/support/postgres.mjs'
import { startService } from '../test/support/processes.mjs'

const seconds = Number(process.env.BENCH_SECONDS ?? 2)
const rounds = Number(process.env.BENCH_ROUNDS ?? 9)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10)
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
/** CPU time (user + system) a process has used, in ms (clock ticks of 10 ms). */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

const cleanups = []
const startLoad = loadavg()[0]
const cpus = availableParallelism()
async function main() {
  const mail = await startMailCatcher()
  cleanups.push(() => mail.close())
  const postgres = await startPostgres({ fsync: process.env.BENCH_FSYNC !== '0' })
  cleanups.push(() => postgres.stop())
  const dataDir = mkdtempSync(join(tmpdir(), 'interlingua-bench-'))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  const logDir = mkdtempSync(join(tmpdir(), 'interlingua-bench-logs-'))
  cleanups.push(() => rmSync(logDir, { recursive: true, force: true }))
  const logFile = (name) => join(logDir, `${name}.log`)
  /** CPU time of the PostgreSQL server: its main process, its backends, and the backends that ended (waited for). */
  const postgresCpuMs = () => {
    const main = postgres.pid()
    let ms = 0
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue
      try {
        const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')
        if (Number(entry) === main)
          ms += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10
        else if (Number(fields[1]) === main) ms += (Number(fields[11]) + Number(fields[12])) * 10
      } catch {} // ended meanwhile
    }
    return ms
  }
  const smtp = { SMTP_URL: mail.url, MAIL_FROM: 'bench@127.0.0.1', KEY_RATE_LIMIT: '1000000000' }

  // ── start-up ────────────────────────────────────────────────────────────────────────────────────────────────────
  const startups = {}
  async function timeStart(label, env, times = 1) {
    const ms = []
    for (let i = 0; i < times; i++) {
      const service = await startService({ ...smtp, ...env })
      ms.push(service.startMs)
      await service.stop()
    }
    startups[label] = median(ms)
    console.log(`start-up ${label}: ${ms.join(', ')} ms`)
  }
  await timeStart('PGlite, first start (new data directory)', { DATA_DIR: dataDir })
  await timeStart('PGlite, warm start', { DATA_DIR: dataDir }, 3)
  const databaseUrl = await postgres.createDatabase('bench')
  await timeStart('PostgreSQL, first start (empty database)', { DATABASE_URL: databaseUrl })
  await timeStart('PostgreSQL, warm start', { DATABASE_URL: databaseUrl }, 3)

  // ── the three servers, each with a key ───────────────────────────────────────────────────────────────────────────
  const targets = []
  for (const [label, env, name] of [
    ['service on PGlite', { DATA_DIR: dataDir }, 'service-pglite'],
    ['service on PostgreSQL', { DATABASE_URL: databaseUrl }, 'service-postgresql'],
  ]) {
    const service = await startService({ ...smtp, ...env }, { logFile: logFile(name) })
    cleanups.push(() => service.stop())
    const key = await createKey(await signUp(browser(service.base), mail, `bench-${targets.length}@example.com`))
    targets.push({ label, server: service, key, postgres: 'DATABASE_URL' in env })
  }
  const bareKey = 'il-bench-bare-key-0123456789abcdefghijklmnopqrstuv'
  const hono = await startService({ BENCH_KEY: bareKey }, { script: 'bench/bare.mjs', logFile: logFile('hono') })
  cleanups.push(() => hono.stop())
  targets.unshift({ label: 'library gateway on Hono', server: hono, key: bareKey })
  const cli = await startService(
    { INTERLINGUA_API_KEYS: bareKey },
    { script: 'node_modules/interlingua/dist/node/cli.js', logFile: logFile('cli') },
  )
  cleanups.push(() => cli.stop())
  targets.unshift({ label: 'library CLI gateway', server: cli, key: bareKey })

  await sleep(1000)
  for (const t of targets) {
    t.idleRss = rssMb(t.server.pid)
    t.rps = []
    t.cpu = []
    t.p50 = []
    t.p99 = []
    t.postgresCpu = []
    t.peakRss = t.idleRss
  }

  // ── load: rounds interleaved, so drift on a shared machine hits every target alike ─────────────────────────────────
  const body = JSON.stringify({ model: 'interlingua-mock', messages: [{ role: 'user', content: 'Say hello' }] })
  async function load(t, duration) {
    const sampler = setInterval(() => {
      t.peakRss = Math.max(t.peakRss, rssMb(t.server.pid))
    }, 250)
    try {
      // Latencies from autocannon's per-response event (µs resolution; its histogram rounds to whole ms).
      const times = []
      const run = autocannon({
        url: `${t.server.base}/v1/chat/completions`,
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
        body,
        connections,
        duration,
      })
      run.on('response', (_client, status, _bytes, ms) => {
        if (status === 200) times.push(ms)
      })
      const result = await run
      times.sort((x, y) => x - y)
      const at = (q) => times[Math.min(times.length - 1, Math.floor(times.length * q))] ?? Number.NaN
      return { ...result, precise: { p50: at(0.5), p99: at(0.99) } }
    } finally {
      clearInterval(sampler)
    }
  }
  for (const t of targets) await load(t, 1) // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const t of [...targets.slice(round % targets.length), ...targets.slice(0, round % targets.length)]) {
      const cpuBefore = cpuMs(t.server.pid)
      const postgresBefore = t.postgres ? postgresCpuMs() : 0
      const result = await load(t, seconds)
      // The server process's CPU per request (its database server's, for PostgreSQL, apart): unlike req/s, a busy
      // machine changes it little.
      t.cpu.push(((cpuMs(t.server.pid) - cpuBefore) * 1000) / result.requests.total)
      if (t.postgres) t.postgresCpu.push(((postgresCpuMs() - postgresBefore) * 1000) / result.requests.total)
      if (result.non2xx || result.errors)
        throw new Error(`${t.label}: ${result.non2xx} non-2xx, ${result.errors} errors`)
      t.rps.push(result.requests.average)
      t.p50.push(result.precise.p50)
      t.p99.push(result.precise.p99)
      console.log(
        `round ${round + 1} ${t.label}: ${Math.round(result.requests.average)} req/s, ${Math.round(t.cpu.at(-1))} µs CPU/request${t.postgres ? ` (+ PostgreSQL ${Math.round(t.postgresCpu.at(-1))} µs)` : ''}, p50 ${result.precise.p50.toFixed(2)} ms, p99 ${result.precise.p99.toFixed(2)} ms`,
      )
    }
  }

  // ── report ──────────────────────────────────────────────────────────────────────────────────────────────────────
  const base = targets[0]
  console.log(`\nStart-up (spawn → listening):`)
  for (const [label, ms] of Object.entries(startups)) console.log(`  ${label.padEnd(44)} ${String(ms).padStart(6)} ms`)
  console.log(
    `\nGateway throughput, POST /v1/chat/completions (mock model, not streamed), ${connections} connections, ${rounds} rounds × ${seconds} s (req/s, p50, p99: medians; ratio: median of the per-round ratios to the CLI gateway; added p50: median of the per-round p50 differences):`,
  )
  console.log(
    `  ${'target'.padEnd(24)} ${'req/s'.padStart(7)} ${'ratio'.padStart(6)} ${'CPU µs/req'.padStart(10)} ${'ratio'.padStart(6)} ${'p50 ms'.padStart(7)} ${'+p50 ms'.padStart(8)} ${'p99 ms'.padStart(7)} ${'RSS idle'.padStart(9)} ${'RSS peak'.padStart(9)}`,
  )
  for (const t of targets) {
    const ratio = median(t.rps.map((rps, round) => rps / base.rps[round]))
    const added = median(t.p50.map((p50, round) => p50 - base.p50[round]))
    const cpuRatio = median(t.cpu.map((cpu, round) => cpu / base.cpu[round]))
    console.log(
      `  ${t.label.padEnd(24)} ${String(Math.round(median(t.rps))).padStart(7)} ${ratio.toFixed(2).padStart(6)} ${String(Math.round(median(t.cpu))).padStart(10)} ${cpuRatio.toFixed(2).padStart(6)} ${median(t.p50).toFixed(2).padStart(7)} ${added.toFixed(2).padStart(8)} ${median(t.p99).toFixed(2).padStart(7)} ${`${Math.round(t.idleRss)} MB`.padStart(9)} ${`${Math.round(t.peakRss)} MB`.padStart(9)}`,
    )
  }
  // How much the per-round ratios spread: a single round on a shared machine can be off by a tenth.
  const quartiles = (values) => {
    const sorted = [...values].sort((a, b) => a - b)
    const at = (q) => sorted[Math.round((sorted.length - 1) * q)].toFixed(2)
    return `${at(0)} · ${at(0.25)} · ${at(0.5)} · ${at(0.75)} · ${at(1)}`
  }
  console.log('  per-round req/s ratios to the CLI gateway (min · quartiles · max):')
  for (const t of targets.slice(1))
    console.log(`    ${t.label.padEnd(24)} ${quartiles(t.rps.map((rps, round) => rps / base.rps[round]))}`)
  for (const t of targets)
    if (t.postgres)
      console.log(
        `  (${t.label}: the PostgreSQL server's own CPU ${Math.round(median(t.postgresCpu))} µs per request, median of the rounds ${t.postgresCpu.map((cpu) => Math.round(cpu)).join(', ')})`,
      )
  console.log(
    `\nLoad average (1 min) at the start ${startLoad.toFixed(1)}, at the end ${loadavg()[0].toFixed(1)}, on ${cpus} cores.`,
  )
}

try {
  await main()
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup()
}
