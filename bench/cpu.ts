/**
 * `npm run bench:cpu`: CPU time per request of the gateway and of the bare proxy (the floor), for every pair and mode,
 * under the same fixed-concurrency load — far less noisy than req/s on a shared machine. Each server runs alone on
 * core 1 (the upstream and the load generator share core 0); its CPU time is read from `/proc/<pid>/stat` before and
 * after each load run, and the servers are measured in turn, `CPU_REPEATS` times (default 3): the table has medians,
 * with req/s at that concurrency. `CPU_BEFORE_DIR` adds the gateway of other builds (comma-separated; e.g. a copy of
 * `dist/` before a change, inside the repository so its dependencies resolve), so a before/after comparison is taken
 * in the same run. `CPU_CONNECTIONS` (default 50), `CPU_SECONDS` (default 3), `CPU_CASES` (comma-separated
 * `pair:mode`, default all).
 */
import { comparedPairs, median, ratioLine, runCompared, targetFor } from './compared.js'
import type { Mode } from './gateway.js'
import { cannon } from './load.js'

const connections = Number(process.env.CPU_CONNECTIONS ?? 50)
const seconds = Number(process.env.CPU_SECONDS ?? 3)
const repeats = Number(process.env.CPU_REPEATS ?? 3)
const only = process.env.CPU_CASES?.split(',')

runCompared(process.env.CPU_BEFORE_DIR, async (_upstream, servers) => {
  const results = new Map<string, { cpu: number[]; rps: number[] }>()
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (const mode of ['json', 'sse'] as Mode[]) {
      for (const pair of comparedPairs) {
        if (only && !only.includes(`${pair[0]}:${mode}`)) continue
        for (const [name, child] of servers) {
          const result = await cannon(targetFor(name, child, pair, mode), connections, seconds, child.process.pid)
          if (result.errors > 0) console.error(`${name} ${pair[0]} ${mode}: ${result.errors} errors`)
          const key = `${name}\u0000${pair[0]}:${mode}`
          const entry = results.get(key) ?? { cpu: [], rps: [] }
          entry.cpu.push(result.cpu as number)
          entry.rps.push(result.rps)
          results.set(key, entry)
        }
      }
    }
    console.error(`repeat ${repeat + 1}/${repeats} done`)
  }
  const names = servers.map(([name]) => name)
  const rows = (stat: 'cpu' | 'rps') => {
    for (const mode of ['json', 'sse']) {
      for (const [pair] of comparedPairs) {
        const id = `${pair}:${mode}`
        if (only && !only.includes(id)) continue
        const values = names.map((name) => median(results.get(`${name}\u0000${id}`)?.[stat] ?? [Number.NaN]))
        console.log(ratioLine(id, values, 0))
      }
    }
  }
  console.log(['case', ...names.map((name) => `${name} µs/req`)].join('\t'))
  rows('cpu')
  console.log(['case', ...names.map((name) => `${name} req/s @${connections}`)].join('\t'))
  rows('rps')
})
