/**
 * What `bench:cpu` and `bench:latency` share: the pairs, and the servers they compare — the bare proxy (the floor), the
 * gateway from `dist/`, and the gateway from other builds — each alone on core 1, in front of one upstream.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildCanned } from './fixtures.js'
import { type Mode, startUpstream, target, withChild } from './gateway.js'
import { benchDir, type FormatId, loadLibrary, rootDir } from './lib.js'
import type { Target } from './load.js'
import { type Child, freePort, installCleanup, pinSelf, startNode } from './processes.js'

/** Pair, client format and model, and the request the upstream's own client sends (what the bare proxy forwards). */
export const comparedPairs: Array<[string, FormatId, string, [FormatId, string]]> = [
  ['cc→cc', 'chat-completions', 'bench-cc', ['chat-completions', 'gpt-4o-mini']],
  ['cc→msg', 'chat-completions', 'bench-msg', ['messages', 'claude']],
  ['msg→cc', 'messages', 'bench-cc', ['chat-completions', 'gpt-4o-mini']],
  ['cc→gen', 'chat-completions', 'bench-gen', ['content-generation', 'gemini']],
  ['gen→msg', 'content-generation', 'bench-msg', ['messages', 'claude']],
]

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

/**
 * Starts `bare`, `gateway` (dist/), with BENCH_HOOKS=1 `gateway+hooks` (the same with a service's hooks), and
 * `before…` (one per directory of `beforeDirs`, comma-separated; with BENCH_HOOKS=1 `before…+hooks` as well).
 */
export async function startCompared(upstream: Child, beforeDirs: string | undefined): Promise<Array<[string, Child]>> {
  const env = { UPSTREAM: String(upstream.port), EXT: '.js' }
  const servers: Array<[string, Child]> = []
  // Only `gateway+hooks` gets the hooks, whatever this process's environment says.
  const start = async (name: string, script: string, libDir?: string, extra = { BENCH_HOOKS: '0' }) => {
    const child = await startNode(name, [join(benchDir, 'servers', script)], {
      port: await freePort(),
      core: 1,
      cwd: rootDir,
      env: { ...(libDir ? { ...env, LIB_DIR: libDir } : env), ...extra },
    })
    servers.push([name, child])
  }
  try {
    await start('bare', 'bare-proxy.mjs')
    await start('gateway', 'gateway.mjs', join(rootDir, 'dist'))
    // BENCH_HOOKS=1: the same gateway with a service's hooks (authenticate → caller, onRequest, onResponse with usage).
    if (process.env.BENCH_HOOKS === '1')
      await start('gateway+hooks', 'gateway.mjs', join(rootDir, 'dist'), { BENCH_HOOKS: '1' })
    const befores = beforeDirs?.split(',') ?? []
    for (const [i, dir] of befores.entries()) {
      const name = `before${befores.length > 1 ? i + 1 : ''}`
      await start(name, 'gateway.mjs', dir)
      if (process.env.BENCH_HOOKS === '1') await start(`${name}+hooks`, 'gateway.mjs', dir, { BENCH_HOOKS: '1' })
    }
  } catch (error) {
    await stopAll(servers)
    throw error
  }
  return servers
}

export async function stopAll(servers: Array<[string, Child]>): Promise<void> {
  for (const [, child] of servers) await child.stop()
}

/** The request for `name`'s server: the upstream format's own for the bare proxy, the pair's client's for a gateway. */
export function targetFor(name: string, child: Child, pair: (typeof comparedPairs)[number], mode: Mode): Target {
  const [, client, model, [upClient, upModel]] = pair
  return name === 'bare' ? target(child.port, upClient, upModel, mode) : target(child.port, client, model, mode)
}

/** One table line: the first value as is, the others with their ratio to it. */
export function ratioLine(label: string, values: number[], digits: number): string {
  const first = values[0] as number
  return [
    label,
    ...values.map((value, i) =>
      i === 0 ? value.toFixed(digits) : `${value.toFixed(digits)} (${(value / first).toFixed(2)}×)`,
    ),
  ].join('\t')
}

/**
 * Runs `body` with the instant upstream (core 0, with the load generator: this process) and the compared servers, and
 * exits when it is done.
 */
export function runCompared(
  beforeDirs: string | undefined,
  body: (upstream: Child, servers: Array<[string, Child]>) => Promise<void>,
): void {
  const main = async () => {
    installCleanup()
    pinSelf('0')
    const tmp = mkdtempSync(join(tmpdir(), 'interlingua-compared-'))
    const cannedFile = join(tmp, 'canned.json')
    writeFileSync(cannedFile, JSON.stringify(await buildCanned(await loadLibrary())))
    await withChild(
      () => startUpstream(cannedFile),
      async (upstream) => {
        const servers = await startCompared(upstream, beforeDirs)
        try {
          await body(upstream, servers)
        } finally {
          await stopAll(servers)
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
}
