/**
 * `npm run bench:cpu`: CPU time per request of the gateway and of the bare proxy (the floor), for every pair and mode,
 * under the same fixed-concurrency load — far less noisy than req/s on a shared machine. Each server runs alone on
 * core 1 (the upstream and the load generator share core 0); its CPU time is read from `/proc/<pid>/stat` before and
 * after each load run, and the servers are measured in turn, `CPU_REPEATS` times (default 3): the table has medians.
 * `CPU_BEFORE_DIR` adds a third server, the gateway from another build (e.g. a copy of `dist/` before a change), so a
 * before/after comparison is taken in the same run (comma-separated: one server per build). `CPU_CONNECTIONS` (default 50), `CPU_SECONDS` (default 3),
 * `CPU_CASES` (comma-separated `pair:mode`, default all).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildCanned } from './fixtures.js'
import { type Mode, startUpstream, target, withChild } from './gateway.js'
import { benchDir, type FormatId, loadLibrary, rootDir } from './lib.js'
import { cannon } from './load.js'
import { type Child, freePort, installCleanup, pinSelf, startNode } from './processes.js'

const ticksPerSecond = 100

/** utime + stime of a process, in µs. */
function cpuMicros(child: Child): number {
  const stat = readFileSync(`/proc/${child.process.pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticksPerSecond
}

const pairs: Array<[string, FormatId, string, [FormatId, string]]> = [
  ['cc→cc', 'chat-completions', 'bench-cc', ['chat-completions', 'gpt-4o-mini']],
  ['cc→msg', 'chat-completions', 'bench-msg', ['messages', 'claude']],
  ['msg→cc', 'messages', 'bench-cc', ['chat-completions', 'gpt-4o-mini']],
  ['cc→gen', 'chat-completions', 'bench-gen', ['content-generation', 'gemini']],
  ['gen→msg', 'content-generation', 'bench-msg', ['messages', 'claude']],
]

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

async function main(): Promise<void> {
  installCleanup()
  pinSelf('0')
  const connections = Number(process.env.CPU_CONNECTIONS ?? 50)
  const seconds = Number(process.env.CPU_SECONDS ?? 3)
  const repeats = Number(process.env.CPU_REPEATS ?? 3)
  const only = process.env.CPU_CASES?.split(',')
  const tmp = mkdtempSync(join(tmpdir(), 'interlingua-cpu-'))
  const cannedFile = join(tmp, 'canned.json')
  writeFileSync(cannedFile, JSON.stringify(await buildCanned(await loadLibrary())))
  await withChild(
    () => startUpstream(cannedFile),
    async (upstream) => {
      const env = { UPSTREAM: String(upstream.port), EXT: '.js' }
      const servers: Array<[string, Child]> = []
      const start = async (name: string, script: string, libDir?: string) => {
        const child = await startNode(name, [join(benchDir, 'servers', script)], {
          port: await freePort(),
          core: 1,
          cwd: rootDir,
          env: libDir ? { ...env, LIB_DIR: libDir } : env,
        })
        servers.push([name, child])
      }
      try {
        await start('bare', 'bare-proxy.mjs')
        await start('gateway', 'gateway.mjs', join(rootDir, 'dist'))
        const befores = process.env.CPU_BEFORE_DIR?.split(',') ?? []
        for (const [i, dir] of befores.entries())
          await start(`before${befores.length > 1 ? i + 1 : ''}`, 'gateway.mjs', dir)
        const results = new Map<string, { cpu: number[]; rps: number[] }>()
        for (let repeat = 0; repeat < repeats; repeat++) {
          for (const mode of ['json', 'sse'] as Mode[]) {
            for (const [pair, client, model, [upClient, upModel]] of pairs) {
              if (only && !only.includes(`${pair}:${mode}`)) continue
              for (const [name, child] of servers) {
                const t =
                  name === 'bare'
                    ? target(child.port, upClient, upModel, mode)
                    : target(child.port, client, model, mode)
                const before = cpuMicros(child)
                const result = await cannon(t, connections, seconds)
                const used = cpuMicros(child) - before
                // cannon runs a 0.5 s warm-up before the measured run: its requests are counted approximately.
                const requests = result.requests * ((seconds + 0.5) / seconds)
                if (result.errors > 0) console.error(`${name} ${pair} ${mode}: ${result.errors} errors`)
                const key = `${name}\u0000${pair}:${mode}`
                const entry = results.get(key) ?? { cpu: [], rps: [] }
                entry.cpu.push(used / requests)
                entry.rps.push(result.rps)
                results.set(key, entry)
              }
            }
          }
          console.error(`repeat ${repeat + 1}/${repeats} done`)
        }
        const names = servers.map(([name]) => name)
        const head = ['case', ...names.map((name) => `${name} µs/req`), ...names.map((name) => `${name} req/s`)]
        console.log(head.join('\t'))
        for (const mode of ['json', 'sse']) {
          for (const [pair] of pairs) {
            const id = `${pair}:${mode}`
            if (only && !only.includes(id)) continue
            const cpu = names.map((name) => median(results.get(`${name}\u0000${id}`)?.cpu ?? [Number.NaN]))
            const rps = names.map((name) => median(results.get(`${name}\u0000${id}`)?.rps ?? [Number.NaN]))
            const bare = cpu[0] as number
            const bareRps = rps[0] as number
            console.log(
              [
                id,
                ...cpu.map((value, i) =>
                  i === 0 ? value.toFixed(0) : `${value.toFixed(0)} (${(value / bare).toFixed(2)}×)`,
                ),
                ...rps.map((value, i) =>
                  i === 0 ? value.toFixed(0) : `${value.toFixed(0)} (${(value / bareRps).toFixed(2)}×)`,
                ),
              ].join('\t'),
            )
          }
        }
      } finally {
        for (const [, child] of servers) await child.stop()
      }
    },
  )
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
