/**
 * `npm run peers:check` — issue 24 §5: `interlingua check` against the peer gateways that run here (Portkey's gateway,
 * @musistudio/llms; shared/reference/peers.md) and against interlingua's own gateway, each in front of the same
 * upstream (scripts/peers/upstream.ts: the strict stand-ins of `interlingua/testing`), route by route (the client's
 * format → the upstream's format). Writes the comparison into docs/conformance.md between `<!-- peers:start -->` and
 * `<!-- peers:end -->` (after the generated check list, which `npm run docs:conformance` owns).
 *
 * A developer tool, not part of CI: it installs the peers from the npm registry (pinned, install scripts off) into a
 * scratch folder outside the repo (`--dir`, default $TMPDIR/interlingua-peers, reused when the versions match).
 *
 *   npm run peers:check                      # run, print the summary, rewrite the section of docs/conformance.md
 *   npm run peers:check -- --no-write --json /tmp/peers.json
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { StrictFormat } from '../src/node/testing/index.js'
import { type Running, serve } from '../test/sdk/servers.js'
import { checkRoutes, ourGateway } from './peers/ours.js'
import { ensurePeers, installedVersion, type Peer, pins, startMusistudio, startPortkey } from './peers/peers.js'
import { type GatewayId, routeName } from './peers/routes.js'
import { type RouteRun, spliceSection, summaryLine, writeSection } from './peers/table.js'
import { startUpstream, type Upstream, upstreamFormats, upstreamModel } from './peers/upstream.js'

const repo = resolve(import.meta.dirname, '..')
const argv = process.argv.slice(2)
const flag = (name: string) => {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : undefined
}
const dir = resolve(flag('--dir') ?? join(tmpdir(), 'interlingua-peers'))
const write = !argv.includes('--no-write')
const jsonOut = flag('--json')
const key = 'sk-interlingua-peers-check'

ensurePeers(dir)
const started = Date.now()
const versions = {
  interlingua: `this repository, src/ as of commit ${gitHead()}`,
  portkey: `@portkey-ai/gateway ${installedVersion(dir, '@portkey-ai/gateway')} (@hono/node-server ${installedVersion(dir, '@hono/node-server')})`,
  musistudio: `@musistudio/llms ${installedVersion(dir, '@musistudio/llms')}`,
}

const upstreams: Upstream[] = []
const running: { stop(): Promise<void> }[] = []
const runs: RouteRun[] = []
try {
  for (const format of upstreamFormats) upstreams.push(await startUpstream(format, key))
  const urls = Object.fromEntries(upstreams.map((u) => [u.format, u.url])) as Record<StrictFormat, string>
  const ours: Running = await serve(ourGateway(urls, key).fetch)
  running.push({ stop: ours.close })
  const portkey: Peer = await startPortkey(dir)
  running.push(portkey)
  const musistudio: Peer = await startMusistudio(dir, urls, upstreamModel, key)
  running.push(musistudio)
  const endpoints: Record<GatewayId, string> = {
    interlingua: ours.url,
    portkey: portkey.url,
    musistudio: musistudio.url,
  }
  runs.push(
    ...(await checkRoutes(endpoints, urls, key, (run) =>
      process.stderr.write(`${run.gateway.padEnd(12)} ${routeName(run.route).padEnd(42)} ${summaryLine(run)}\n`),
    )),
  )
} finally {
  for (const r of running.reverse()) await r.stop()
  for (const u of upstreams) await u.close()
}

const seconds = (Date.now() - started) / 1000
const date = new Date(started).toISOString().slice(0, 10)
console.log(
  `\n${runs.length} runs in ${seconds.toFixed(1)} s (${date}); versions: ${Object.values(versions).join(', ')}`,
)
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ date, seconds, versions, pins, runs }, null, 2))
if (write) {
  const file = join(repo, 'docs/conformance.md')
  writeFileSync(file, spliceSection(readFileSync(file, 'utf8'), writeSection({ date, seconds, versions, runs })))
  console.log(`wrote the peers section of ${file}`)
}

function gitHead(): string {
  try {
    return execFileSync('git', ['log', '-1', '--format=%h', '--', 'src'], { cwd: repo, encoding: 'utf8' }).trim()
  } catch {
    return 'unknown commit'
  }
}
