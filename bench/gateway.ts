/**
 * Sections 3 and 4: gateway overhead on loopback and the peers, same run, same upstream. The gateway under test runs
 * alone on core 1; the upstream and the load generator (this process) share core 0.
 */
import { join } from 'node:path'
import { httpRequest } from './fixtures.js'
import { benchDir, type FormatId, rootDir } from './lib.js'
import { cannon, type LoadResult, probe, type Target } from './load.js'
import { type Child, freePort, startNode } from './processes.js'
import type { Row } from './report.js'

export interface Timing {
  one: LoadResult
  many: LoadResult
}
export type Mode = 'json' | 'sse'

/**
 * `warmupSeconds`: every server (direct, bare proxy, interlingua, peers) is loaded at `connections` for this long before
 * its case is measured, so that a JIT-compiled gateway is compared warm with the bare proxy's few lines (the first
 * case measured after a server starts used to be warm-up-bound).
 */
export const settings = { probeSeconds: 3, cannonSeconds: 4, connections: 50, warmupSeconds: 1 }

function pathOf(client: FormatId, model: string, mode: Mode): string {
  if (client === 'content-generation')
    return `/v1beta/models/${model}:${mode === 'sse' ? 'streamGenerateContent?alt=sse' : 'generateContent'}`
  return { 'chat-completions': '/v1/chat/completions', messages: '/v1/messages', responses: '/v1/responses' }[client]
}

export function target(
  port: number,
  client: FormatId,
  model: string,
  mode: Mode,
  headers: Record<string, string> = {},
): Target {
  const auth: Record<string, string> =
    client === 'messages'
      ? { 'x-api-key': 'sk-bench-client', 'anthropic-version': '2023-06-01' }
      : { authorization: 'Bearer sk-bench-client' }
  return {
    url: `http://127.0.0.1:${port}${pathOf(client, model, mode)}`,
    headers: { 'content-type': 'application/json', ...auth, ...headers },
    body: httpRequest(client, model, mode === 'sse'),
  }
}

export async function time(t: Target, log: (line: string) => void, label: string): Promise<Timing> {
  await cannon(t, settings.connections, settings.warmupSeconds)
  const one = await probe(t, settings.probeSeconds)
  const many = await cannon(t, settings.connections, settings.cannonSeconds)
  log(
    `  ${label}: 1 conn p50 ${one.p50.toFixed(3)} ms p99 ${one.p99.toFixed(3)} ms ${one.rps.toFixed(0)} req/s; ` +
      `${settings.connections} conns ${many.rps.toFixed(0)} req/s p99 ${many.p99} ms (errors ${one.errors + many.errors})`,
  )
  if (one.requests === 0 || many.requests === 0) throw new Error(`${label}: no successful request`)
  return { one, many }
}

/** All timings of the run, keyed `<who>:<pair>:<mode>` (e.g. `direct:msg:json`, `interlingua:cc→msg:sse`). */
export type Timings = Map<string, Timing>

export async function withChild<T>(start: () => Promise<Child>, body: (child: Child) => Promise<T>): Promise<T> {
  const child = await start()
  try {
    return await body(child)
  } finally {
    await child.stop()
  }
}

export function startUpstream(cannedFile: string, hold = false): Promise<Child> {
  return freePort().then((port) =>
    startNode('upstream', [join(benchDir, 'servers/upstream.mjs')], {
      port,
      core: 0,
      env: { CANNED: cannedFile, HOLD: hold ? '1' : '0' },
    }),
  )
}

export async function startInterlingua(upstream: number): Promise<Child> {
  const fromSrc = process.env.BENCH_FROM_SRC === '1'
  const args = fromSrc
    ? ['--import', 'tsx', join(benchDir, 'servers/gateway.mjs')]
    : [join(benchDir, 'servers/gateway.mjs')]
  return startNode('interlingua', args, {
    port: await freePort(),
    core: 1,
    cwd: rootDir,
    env: { UPSTREAM: String(upstream), LIB_DIR: join(rootDir, fromSrc ? 'src' : 'dist'), EXT: fromSrc ? '.ts' : '.js' },
  })
}

/** Direct, bare proxy and interlingua timings (section 3); peers add theirs to the same map (section 4). */
export async function gatewaySection(upstream: Child, timings: Timings, log: (line: string) => void): Promise<void> {
  for (const mode of ['json', 'sse'] as const) {
    timings.set(
      `direct:cc:${mode}`,
      await time(target(upstream.port, 'chat-completions', 'gpt-4o-mini', mode), log, `direct cc ${mode}`),
    )
    timings.set(
      `direct:msg:${mode}`,
      await time(target(upstream.port, 'messages', 'claude', mode), log, `direct msg ${mode}`),
    )
    timings.set(
      `direct:gen:${mode}`,
      await time(target(upstream.port, 'content-generation', 'gemini', mode), log, `direct gen ${mode}`),
    )
  }
  const bareStart = async () =>
    startNode('bare proxy', [join(benchDir, 'servers/bare-proxy.mjs')], {
      port: await freePort(),
      core: 1,
      env: { UPSTREAM: String(upstream.port) },
    })
  // Paired measurements: the machine is shared, so for every case the upstream alone, the bare proxy in front of the
  // same upstream endpoint, and interlingua are measured back to back (both servers stay up, idle in turn); each
  // ratio compares figures taken within seconds of each other.
  await withChild(bareStart, (bare) =>
    withChild(
      () => startInterlingua(upstream.port),
      async (gateway) => {
        for (const mode of ['json', 'sse'] as const) {
          const cases: Array<[string, FormatId, string]> = [
            ['cc→cc', 'chat-completions', 'bench-cc'],
            ['cc→msg', 'chat-completions', 'bench-msg'],
            ['msg→cc', 'messages', 'bench-cc'],
            ['cc→gen', 'chat-completions', 'bench-gen'],
            ['gen→msg', 'content-generation', 'bench-msg'],
          ]
          for (const [pair, client, model] of cases) {
            const [upClient, upModel] = upstreamRequestOf[upstreamOf[pair] as 'cc' | 'msg' | 'gen']
            const direct = await probe(target(upstream.port, upClient, upModel, mode), settings.probeSeconds)
            timings.set(`direct:${pair}:${mode}`, { one: direct, many: direct })
            timings.set(
              `bare:${pair}:${mode}`,
              await time(target(bare.port, upClient, upModel, mode), log, `bare proxy (for ${pair}) ${mode}`),
            )
            timings.set(
              `interlingua:${pair}:${mode}`,
              await time(target(gateway.port, client, model, mode), log, `interlingua ${pair} ${mode}`),
            )
          }
        }
      },
    ),
  )
}

/** The request a client of the upstream's own format sends (the bare proxy forwards it unchanged in shape). */
const upstreamRequestOf: Record<'cc' | 'msg' | 'gen', [FormatId, string]> = {
  cc: ['chat-completions', 'gpt-4o-mini'],
  msg: ['messages', 'claude'],
  gen: ['content-generation', 'gemini'],
}

const upstreamOf: Record<string, 'cc' | 'msg' | 'gen'> = {
  'cc→cc': 'cc',
  'cc→msg': 'msg',
  'msg→cc': 'cc',
  'cc→gen': 'gen',
  'gen→msg': 'msg',
}

/** Added latency (ms) of `<who>:<pair>:<mode>` over direct-to-upstream, at one connection. */
export function added(timings: Timings, key: string, stat: 'p50' | 'p99' | 'ttft'): number {
  const [, pair = '', mode = ''] = key.split(':')
  const run = timings.get(key)
  // The paired direct run of this case when there is one (section 3), else the section's first direct runs.
  const direct = timings.get(`direct:${pair}:${mode}`) ?? timings.get(`direct:${upstreamOf[pair]}:${mode}`)
  if (!run || !direct) return Number.NaN
  return (run.one[stat] ?? Number.NaN) - (direct.one[stat] ?? Number.NaN)
}

const ms = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(3)} ms`
const ratioOf = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0.001 ? a / b : undefined)

export function gatewayRows(timings: Timings): Row[] {
  const rows: Row[] = []
  for (const mode of ['json', 'sse'] as const) {
    const bare = `bare:cc→cc:${mode}`
    const bareP50 = added(timings, bare, 'p50')
    const bareP99 = added(timings, bare, 'p99')
    const directCc = timings.get(`direct:cc:${mode}`)
    const bareRun = timings.get(bare)
    if (directCc && bareRun) {
      rows.push({
        section: '3 gateway',
        name: `bare node:http proxy (baseline), ${mode}`,
        ratio: bareRun.many.rps / directCc.many.rps,
        higherIsBetter: true,
        detail:
          `added p50 ${ms(bareP50)}, p99 ${ms(bareP99)} @1 conn; ${bareRun.many.rps.toFixed(0)} req/s @${settings.connections} ` +
          `(direct ${directCc.many.rps.toFixed(0)}; direct p50 ${directCc.one.p50.toFixed(3)} ms); ratio = req/s vs direct`,
      })
    }
    for (const pair of ['cc→cc', 'cc→msg', 'msg→cc', 'cc→gen', 'gen→msg']) {
      const key = `interlingua:${pair}:${mode}`
      const run = timings.get(key)
      if (!run) continue
      // The bare proxy measured right before this case, in front of the same upstream endpoint.
      const pairedBare = timings.has(`bare:${pair}:${mode}`) ? `bare:${pair}:${mode}` : bare
      const bareP50 = added(timings, pairedBare, 'p50')
      const bareP99 = added(timings, pairedBare, 'p99')
      const bareRun = timings.get(pairedBare)
      const p50 = added(timings, key, 'p50')
      const p99 = added(timings, key, 'p99')
      const label = pair === 'cc→cc' ? 'passthrough cc' : pair
      const passthrough = pair === 'cc→cc'
      // The targets: JSON at 1 connection, added p50 ≤ 1.35× the floor's and added p99 < 2 ms; passthrough
      // (either mode) within 1.2× of the floor. For translated SSE the issue asks for time to first text, req/s and a
      // bounded p99 (no second-long tails); its 1-connection p50/p99 are reported for context, without a target.
      const p50Target = passthrough ? 1.2 : mode === 'json' ? 1.35 : undefined
      rows.push({
        section: '3 gateway',
        name: `interlingua ${label} ${mode}: added p50 @1 conn vs bare proxy`,
        ratio: ratioOf(p50, bareP50),
        ...(p50Target === undefined ? {} : { target: p50Target }),
        detail: `${ms(p50)} vs bare ${ms(bareP50)}`,
      })
      rows.push({
        section: '3 gateway',
        name: `interlingua ${label} ${mode}: added p99 @1 conn`,
        ratio: ratioOf(p99, bareP99),
        ...(mode === 'json' ? { check: { met: p99 < 2, text: '< 2 ms' } } : {}),
        detail: `${ms(p99)} vs bare ${ms(bareP99)} (ratio = vs bare)`,
      })
      if (mode === 'sse' && bareRun) {
        rows.push({
          section: '3 gateway',
          name: `interlingua ${label} sse: p99 @${settings.connections} conns (bounded: no second-long tails)`,
          ratio: run.many.p99 / Math.max(bareRun.many.p99, 1),
          check: { met: run.many.p99 < 100, text: '< 100 ms' },
          detail: `${run.many.p99} ms vs bare ${bareRun.many.p99} ms (ratio = vs bare)`,
        })
      }
      if (bareRun) {
        const ratio = run.many.rps / bareRun.many.rps
        const floor = pair === 'cc→cc' ? 1 / 1.2 : 0.5
        rows.push({
          section: '3 gateway',
          name: `interlingua ${label} ${mode}: req/s @${settings.connections} conns vs bare proxy`,
          ratio,
          higherIsBetter: true,
          check: { met: ratio >= floor, text: `≥ ${floor.toFixed(2)}` },
          detail: `${run.many.rps.toFixed(0)} vs bare ${bareRun.many.rps.toFixed(0)} req/s; p50/p99 ${run.many.p50}/${run.many.p99} ms; 1 conn ${run.one.rps.toFixed(0)} req/s`,
        })
      }
      if (mode === 'sse') {
        const ttft = added(timings, key, 'ttft')
        const bareTtft = added(timings, pairedBare, 'ttft')
        rows.push({
          section: '3 gateway',
          name: `interlingua ${label} sse: added time to first text @1 conn vs bare proxy`,
          ratio: ratioOf(ttft, bareTtft),
          check: { met: ttft - bareTtft <= 0.3, text: '≤ bare + 0.3 ms' },
          detail: `${ms(ttft)} vs bare ${ms(bareTtft)} (first body chunk carrying text, p50)`,
        })
      }
    }
  }
  return rows
}
