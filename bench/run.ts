/**
 * `npm run bench`: installs the bench's own deps and builds the library when missing, runs every section, prints
 * one table and writes bench/results.md. Sections can be chosen with `BENCH_SECTIONS=conversion,streams,gateway,peers,memory`.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { conversionSection } from './conversion.js'
import { buildCanned } from './fixtures.js'
import { gatewayRows, gatewaySection, startUpstream, type Timings, withChild } from './gateway.js'
import { benchDir, loadLibrary, rootDir } from './lib.js'
import { bundleSection, memorySection } from './memory.js'
import { peerRows, peersSection } from './peers.js'
import { installCleanup, pinSelf } from './processes.js'
import { type Row, table, writeResults } from './report.js'
import { streamSection } from './streams.js'

const started = performance.now()
const log = (line: string) => console.error(line)
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`

function prepare(): void {
  if (!existsSync(join(benchDir, 'node_modules'))) {
    log('bench: installing bench dependencies (npm ci in bench/)')
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: benchDir, stdio: 'inherit' })
  }
  if (process.env.BENCH_FROM_SRC !== '1' && !existsSync(join(rootDir, 'dist/index.js'))) {
    log('bench: building the library (npm run build)')
    execFileSync('npm', ['run', 'build'], { cwd: rootDir, stdio: 'inherit' })
  }
}

async function main(): Promise<void> {
  installCleanup()
  prepare()
  const wanted = new Set((process.env.BENCH_SECTIONS ?? 'conversion,streams,gateway,peers,memory').split(','))
  const lib = await loadLibrary()
  const rows: Row[] = []
  const notes: string[] = []
  const section = async (name: string, run: () => Promise<Row[]>) => {
    if (!wanted.has(name)) return
    log(`bench: ${name} (${elapsed()})`)
    try {
      rows.push(...(await run()))
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      log(`bench: ${name} FAILED: ${message}`)
      notes.push(`Section ${name} failed: ${message.split('\n')[0]}`)
    }
  }

  await section('conversion', () => conversionSection(lib))
  await section('streams', () => streamSection(lib))

  const tmp = mkdtempSync(join(tmpdir(), 'interlingua-bench-'))
  try {
    const cannedFile = join(tmp, 'canned.json')
    if (wanted.has('gateway') || wanted.has('peers') || wanted.has('memory')) {
      writeFileSync(cannedFile, JSON.stringify(await buildCanned(lib)))
    }
    if (wanted.has('gateway') || wanted.has('peers')) {
      const pinned = pinSelf('0')
      if (!pinned) notes.push('taskset unavailable: processes were not pinned to cores')
      const timings: Timings = new Map()
      await section('gateway', () =>
        withChild(
          () => startUpstream(cannedFile),
          async (upstream) => {
            await gatewaySection(upstream, timings, log)
            if (wanted.has('peers')) await peersSection(upstream, timings, log)
            return []
          },
        ),
      )
      rows.push(...gatewayRows(timings), ...peerRows(timings))
    }
    await section('memory', async () => [...(await memorySection(cannedFile, log)), ...(await bundleSection())])
  } finally {
    pinSelf('0-1023')
    rmSync(tmp, { recursive: true, force: true })
  }

  const seconds = (performance.now() - started) / 1000
  if (wanted.has('gateway'))
    notes.push(
      'Gateway latencies at 1 connection come from a sequential keep-alive client with µs resolution (3 s after a 0.3 s warm-up); ' +
        'req/s and the latencies at 50 connections come from autocannon (4 s after a 0.5 s warm-up; its latencies have 1 ms resolution).',
      'Topology: the gateway under test alone on core 1 (taskset -c 1); the upstream and the load generator on core 0.',
      'Every server is first loaded at 50 connections for 1 s; each interlingua case is paired with the upstream alone and the bare proxy in front of the same upstream endpoint, measured just before it, and its ratios use that pair.',
    )
  const file = writeResults(rows, notes, seconds)
  console.log(table(rows))
  for (const note of notes) console.log(`\n${note}`)
  console.log(`\nwrote ${file} in ${seconds.toFixed(0)} s`)
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
