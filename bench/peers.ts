/** Section 4: the peers (Portkey, @musistudio/llms) on the same upstream, same run, same topology. */
import { join } from 'node:path'
import { added, settings, type Timings, target, time, withChild } from './gateway.js'
import { benchDir } from './lib.js'
import { type Child, freePort, startNode } from './processes.js'
import type { Row } from './report.js'

async function startPortkey(): Promise<Child> {
  const port = await freePort()
  return startNode(
    'portkey',
    [
      '-r',
      join(benchDir, 'servers/loopback-preload.cjs'),
      join(benchDir, 'node_modules/@portkey-ai/gateway/build/start-server.js'),
      `--port=${port}`,
      '--headless',
    ],
    { port, core: 1, cwd: benchDir },
  )
}

async function startLlms(upstream: number): Promise<Child> {
  return startNode('@musistudio/llms', [join(benchDir, 'servers/llms.cjs')], {
    port: await freePort(),
    core: 1,
    cwd: benchDir,
    env: { UPSTREAM: String(upstream) },
  })
}

export async function peersSection(upstream: Child, timings: Timings, log: (line: string) => void): Promise<void> {
  await withChild(startPortkey, async (portkey) => {
    const headers = {
      'x-portkey-provider': 'anthropic',
      'x-portkey-custom-host': `http://127.0.0.1:${upstream.port}/v1`,
    }
    for (const mode of ['json', 'sse'] as const) {
      const t = target(portkey.port, 'chat-completions', 'claude-sonnet-4-5', mode, headers)
      timings.set(`portkey:cc→msg:${mode}`, await time(t, log, `portkey cc→msg ${mode}`))
    }
  })
  await withChild(
    () => startLlms(upstream.port),
    async (llms) => {
      for (const mode of ['json', 'sse'] as const) {
        const t = target(llms.port, 'messages', 'up,gpt-4o-mini', mode)
        timings.set(`llms:msg→cc:${mode}`, await time(t, log, `llms msg→cc ${mode}`))
      }
    },
  )
}

const ms = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(3)} ms`

export function peerRows(timings: Timings): Row[] {
  const rows: Row[] = []
  const peers: Array<[string, string, string]> = [
    ['portkey', 'Portkey', 'cc→msg'],
    ['llms', '@musistudio/llms', 'msg→cc'],
  ]
  for (const mode of ['json', 'sse'] as const) {
    for (const [id, name, pair] of peers) {
      const peer = timings.get(`${id}:${pair}:${mode}`)
      const ours = timings.get(`interlingua:${pair}:${mode}`)
      if (!peer || !ours) continue
      const peerP50 = added(timings, `${id}:${pair}:${mode}`, 'p50')
      const oursP50 = added(timings, `interlingua:${pair}:${mode}`, 'p50')
      const peerP99 = added(timings, `${id}:${pair}:${mode}`, 'p99')
      const oursP99 = added(timings, `interlingua:${pair}:${mode}`, 'p99')
      rows.push({
        section: '4 peers',
        name: `${pair} ${mode}: added p50 @1 conn, interlingua / ${name}`,
        ratio: peerP50 > 0.001 ? oursP50 / peerP50 : undefined,
        target: 1,
        detail: `${ms(oursP50)} vs ${ms(peerP50)}; added p99 ${ms(oursP99)} vs ${ms(peerP99)}`,
      })
      rows.push({
        section: '4 peers',
        name: `${pair} ${mode}: req/s @${settings.connections} conns, interlingua / ${name}`,
        ratio: ours.many.rps / peer.many.rps,
        target: 2,
        higherIsBetter: true,
        detail: `${ours.many.rps.toFixed(0)} vs ${peer.many.rps.toFixed(0)} req/s (p99 ${ours.many.p99} vs ${peer.many.p99} ms)`,
      })
      if (mode === 'sse') {
        const peerTtft = added(timings, `${id}:${pair}:${mode}`, 'ttft')
        const oursTtft = added(timings, `interlingua:${pair}:${mode}`, 'ttft')
        rows.push({
          section: '4 peers',
          name: `${pair} sse: added time to first text @1 conn, interlingua / ${name}`,
          ratio: peerTtft > 0.001 ? oursTtft / peerTtft : undefined,
          check: { met: oursTtft <= peerTtft, text: '≤ the peer' },
          detail: `${ms(oursTtft)} vs ${ms(peerTtft)} (first body chunk carrying text, p50)`,
        })
      }
    }
  }
  return rows
}
