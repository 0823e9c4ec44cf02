/** Section 5: RSS per open stream through the gateway, and the bundle size (min + gzip). */
import { request } from 'node:http'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { startInterlingua, startUpstream, target, withChild } from './gateway.js'
import { benchDir, rootDir } from './lib.js'
import { probe, type Target } from './load.js'
import { type Child, freePort, startNode } from './processes.js'
import type { Row } from './report.js'

export const streamCount = 1000

/** Opens `count` streaming requests and resolves once each has received its first bytes. */
export function openStreams(t: Target, count: number): Promise<{ close: () => void; opened: number }> {
  const requests: Array<ReturnType<typeof request>> = []
  return new Promise((resolve) => {
    let opened = 0
    let settled = false
    const finish = () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({
        opened,
        close: () => {
          for (const req of requests) req.destroy()
        },
      })
    }
    const timer = setTimeout(finish, 20_000)
    for (let i = 0; i < count; i++) {
      const req = request(
        t.url,
        { method: 'POST', agent: false, headers: { ...t.headers, 'content-length': Buffer.byteLength(t.body) } },
        (res) => {
          res.once('data', () => {
            opened++
            if (opened === count) finish()
          })
          res.on('data', () => {})
        },
      )
      req.on('error', () => {})
      req.end(t.body)
      requests.push(req)
    }
  })
}

/** RSS added per open stream (after a warm-up) in `server`, for `count` streams of `t`. */
async function perStream(server: Child, t: Target, warm: Target, log: (line: string) => void): Promise<number> {
  await probe(warm, 1) // JIT and pools warm, then let the heap settle
  await new Promise((resolve) => setTimeout(resolve, 500))
  const idle = server.rss()
  const streams = await openStreams(t, streamCount)
  await new Promise((resolve) => setTimeout(resolve, 1000))
  const loaded = server.rss()
  streams.close()
  log(
    `  memory ${server.name}: idle ${(idle / 2 ** 20).toFixed(1)} MB, ${streams.opened} open streams ${(loaded / 2 ** 20).toFixed(1)} MB`,
  )
  if (streams.opened < streamCount)
    throw new Error(`${server.name}: only ${streams.opened}/${streamCount} streams opened`)
  return (loaded - idle) / streamCount
}

const rounds = 3

async function medianOf(count: number, measure: () => Promise<number>): Promise<number> {
  const values: number[] = []
  for (let i = 0; i < count; i++) values.push(await measure())
  values.sort((a, b) => a - b)
  return values[Math.floor(values.length / 2)] as number
}

export async function memorySection(cannedFile: string, log: (line: string) => void): Promise<Row[]> {
  return withChild(
    () => startUpstream(cannedFile, true),
    async (upstream) => {
      const bareStart = async () =>
        startNode('bare proxy', [join(benchDir, 'servers/bare-proxy.mjs')], {
          port: await freePort(),
          core: 1,
          env: { UPSTREAM: String(upstream.port) },
        })
      // RSS moves with the moment the young generation was last collected: each figure is the median of three
      // rounds, each with a fresh server.
      const bare = await medianOf(rounds, () =>
        withChild(bareStart, (server) =>
          perStream(
            server,
            target(server.port, 'messages', 'claude', 'sse'),
            target(server.port, 'messages', 'claude', 'json'),
            log,
          ),
        ),
      )
      const ours = await medianOf(rounds, () =>
        withChild(
          () => startInterlingua(upstream.port),
          (server) =>
            perStream(
              server,
              target(server.port, 'chat-completions', 'bench-msg', 'sse'),
              target(server.port, 'chat-completions', 'bench-msg', 'json'),
              log,
            ),
        ),
      )
      return [
        {
          section: '5 memory',
          name: `RSS per open stream (${streamCount} translated cc→msg streams) vs bare proxy`,
          ratio: ours / bare,
          check: { met: ours < 50 * 1024, text: '< 50 KB/stream' },
          detail: `${(ours / 1024).toFixed(1)} KB/stream vs bare proxy ${(bare / 1024).toFixed(1)} KB/stream (RSS above idle after warm-up, median of ${rounds} fresh servers)`,
        },
      ]
    },
  )
}

/**
 * min+gzip of one entry bundled with its dependencies: what a bundler ships for `import * from entry`, or for the
 * named imports `names` (`'{ a, b }'`) when given.
 */
async function bundled(entry: string, names?: string): Promise<{ gzipped: number; minified: number }> {
  const { build } = await import('esbuild')
  const result = await build({
    ...(names === undefined
      ? { entryPoints: [entry] }
      : { stdin: { contents: `export ${names} from ${JSON.stringify(entry)}`, resolveDir: rootDir } }),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    // A cloud provider's lazy chunk pulls @smithy/core, whose Node-only submodules name `node:` built-ins: a bundler
    // for Node leaves them out, and a browser bundle never reaches them.
    external: ['node:*'],
    write: false,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0]?.contents ?? new Uint8Array()
  return { gzipped: gzipSync(code, { level: 9 }).byteLength, minified: code.byteLength }
}

export async function bundleSection(): Promise<Row[]> {
  const fromSrc = process.env.BENCH_FROM_SRC === '1'
  const rows: Row[] = []
  const entries: Array<{ name: string; file: string; limit: number | undefined; names?: string }> = [
    { name: 'interlingua', file: fromSrc ? 'src/index.ts' : 'dist/index.js', limit: 50 },
    {
      name: 'interlingua/core chat-completions ⇄ messages',
      file: fromSrc ? 'src/core.ts' : 'dist/core.js',
      limit: undefined,
      names: '{ chatCompletions, convertRequest, convertResponse, convertStream, messages }',
    },
    { name: 'interlingua/gateway', file: fromSrc ? 'src/gateway.ts' : 'dist/gateway.js', limit: undefined },
  ]
  for (const { name, file, limit, names } of entries) {
    const entry = join(rootDir, file)
    if (!(await import('node:fs')).existsSync(entry)) continue
    const { gzipped, minified } = await bundled(entry, names)
    rows.push({
      section: '5 footprint',
      name: `bundle ${name} (${file}) + deps, min+gzip`,
      ratio: gzipped / (122 * 1024),
      ...(limit === undefined ? {} : { check: { met: gzipped < limit * 1024, text: `< ${limit} KB` } }),
      detail: `${(gzipped / 1024).toFixed(1)} KB gzip (${(minified / 1024).toFixed(1)} KB minified); ratio = vs Portkey's advertised 122 KB`,
    })
  }
  return rows
}
