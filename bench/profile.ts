/**
 * `npm run bench:profile`: the gateway under load with `node --cpu-prof`, and where its CPU time goes. Starts the
 * bench's instant upstream (core 0) and the gateway as the bench serves it (core 1, `toNodeListener(gateway)`), drives
 * `PROFILE_CASE` (default: chat-completions client → messages upstream, SSE) with `PROFILE_CONNECTIONS` (default 50) for
 * `PROFILE_SECONDS` (default 5), stops the gateway
 * so the profile is written, and prints CPU µs per request and the top functions by self time. `PROFILE_LIB_DIR`
 * profiles another build (e.g. an older commit's `dist/`) for a before/after comparison; `PROFILE_SERVER=bare` profiles
 * the bare proxy (the floor) on the same case; `PROFILE_INTERVAL` is the sampling interval in µs (default 1000).
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { buildCanned } from './fixtures.js'
import { type Mode, startUpstream, target, withChild } from './gateway.js'
import { benchDir, type FormatId, loadLibrary, rootDir } from './lib.js'
import { cannon } from './load.js'
import { freePort, installCleanup, pinSelf, startNode } from './processes.js'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

const cases: Record<string, [FormatId, string, Mode]> = {
  'cc→msg:sse': ['chat-completions', 'bench-msg', 'sse'],
  'msg→cc:json': ['messages', 'bench-cc', 'json'],
  'cc→cc:json': ['chat-completions', 'bench-cc', 'json'],
  'msg→cc:sse': ['messages', 'bench-cc', 'sse'],
  'cc→cc:sse': ['chat-completions', 'bench-cc', 'sse'],
  'cc→msg:json': ['chat-completions', 'bench-msg', 'json'],
  'cc→gen:json': ['chat-completions', 'bench-gen', 'json'],
  'cc→gen:sse': ['chat-completions', 'bench-gen', 'sse'],
  'gen→msg:json': ['content-generation', 'bench-msg', 'json'],
  'gen→msg:sse': ['content-generation', 'bench-msg', 'sse'],
}

async function main(): Promise<void> {
  installCleanup()
  pinSelf('0')
  const name = process.env.PROFILE_CASE ?? 'cc→msg:sse'
  const chosen = cases[name]
  if (!chosen) throw new Error(`PROFILE_CASE: one of ${Object.keys(cases).join(', ')}`)
  const [client, model, mode] = chosen
  const tmp = mkdtempSync(join(tmpdir(), 'interlingua-profile-'))
  const cannedFile = join(tmp, 'canned.json')
  writeFileSync(cannedFile, JSON.stringify(await buildCanned(await loadLibrary())))
  const libDir = process.env.PROFILE_LIB_DIR ?? join(rootDir, 'dist')
  // PROFILE_SERVER=bare: the bench's bare node:http proxy instead (the floor), for the same case.
  const bare = process.env.PROFILE_SERVER === 'bare'
  let requests = 0
  await withChild(
    () => startUpstream(cannedFile),
    async (upstream) => {
      const port = await freePort()
      const gateway = await startNode(
        'interlingua (profiled)',
        [
          '--cpu-prof',
          '--cpu-prof-dir',
          tmp,
          '--cpu-prof-interval',
          process.env.PROFILE_INTERVAL ?? '1000',
          join(benchDir, `servers/${bare ? 'bare-proxy' : 'gateway'}.mjs`),
        ],
        { port, core: 1, cwd: rootDir, env: { UPSTREAM: String(upstream.port), LIB_DIR: libDir, EXT: '.js' } },
      )
      try {
        const connections = Number(process.env.PROFILE_CONNECTIONS ?? 50)
        const result = await cannon(
          target(port, client, model, mode),
          connections,
          Number(process.env.PROFILE_SECONDS ?? 5),
        )
        requests = result.requests + 0
        console.error(`${name}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms, ${result.errors} errors`)
      } finally {
        await gateway.stop()
      }
    },
  )
  const file = readdirSync(tmp).find((entry) => entry.endsWith('.cpuprofile'))
  if (!file) throw new Error('no .cpuprofile written (the gateway did not exit cleanly)')
  const profile = JSON.parse(readFileSync(join(tmp, file), 'utf8')) as CpuProfile
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<string, number>()
  let busy = 0
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i] as number)
    const delta = profile.timeDeltas[i] ?? 0
    if (!node) continue
    const { functionName, url, lineNumber } = node.callFrame
    if (functionName === '(idle)' || functionName === '(program)') continue
    busy += delta
    const where = url ? `${basename(url)}:${lineNumber + 1}` : ''
    const key = `${functionName || '(anonymous)'} ${where}`.trim()
    self.set(key, (self.get(key) ?? 0) + delta)
  }
  // The autocannon warm-up (0.5 s) is in the profile too: CPU per request counts its requests as well (estimate).
  console.log(`profile: ${join(tmp, file)}`)
  console.log(`busy CPU ${(busy / 1000).toFixed(0)} ms over ~${requests} measured requests (+ warm-up)`)
  console.log(`CPU per request ≈ ${(busy / Math.max(1, requests * 1.1)).toFixed(0)} µs`)
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_TOP ?? 25))
  for (const [key, micros] of top) console.log(`${((100 * micros) / busy).toFixed(1).padStart(5)}%  ${key}`)
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
