/**
 * The peer gateways (shared/reference/peers.md): installed at pinned versions into a scratch folder outside the repo
 * (npm with install scripts off — none needs one), each started on 127.0.0.1 as its own child process.
 * - Portkey's gateway: `start-server.js --headless`, forced onto 127.0.0.1 by a preload that patches
 *   `net.Server.prototype.listen` (it listens on every interface otherwise); routed per request with
 *   `x-portkey-provider` and `x-portkey-custom-host`.
 * - @musistudio/llms: a Fastify server configured with one provider per upstream format; the client picks it with
 *   `"model": "<provider>,<model>"`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import type { StrictFormat } from '../../src/node/testing/index.js'

export const pins = {
  '@portkey-ai/gateway': '1.15.2',
  '@musistudio/llms': '1.0.53',
} as const
/** Portkey streams fail with the @hono/node-server npm resolves today ("TypeError: immutable"). */
const overrides = { '@hono/node-server': '1.13.8' }

export function installedVersion(dir: string, name: string): string | undefined {
  const file = join(dir, 'node_modules', name, 'package.json')
  if (!existsSync(file)) return undefined
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
}

/** Installs the pinned peers into `dir` unless they are there at those versions. */
export function ensurePeers(dir: string): void {
  mkdirSync(dir, { recursive: true })
  const wanted = [...Object.entries(pins), ...Object.entries(overrides)]
  if (wanted.every(([name, version]) => installedVersion(dir, name) === version)) return
  const manifest = { name: 'interlingua-peers', private: true, dependencies: pins, overrides }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  console.log(
    `installing into ${dir}: ${Object.entries(pins)
      .map(([n, v]) => `${n}@${v}`)
      .join(' ')}`,
  )
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, stdio: 'inherit' })
  for (const [name, version] of wanted)
    if (installedVersion(dir, name) !== version)
      throw new Error(`${name} is ${installedVersion(dir, name)} in ${dir}, not ${version}`)
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

export interface Peer {
  url: string
  child: ChildProcess
  stop(): Promise<void>
}

async function waitFor(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${log()}`)
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) })
      return
    } catch {
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  throw new Error(`${url} did not answer in 30 s:\n${log()}`)
}

async function startChild(dir: string, args: string[], url: string): Promise<Peer> {
  const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-1500)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  try {
    await waitFor(url, child, () => log)
  } catch (error) {
    child.kill()
    throw error
  }
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done()
        child.once('exit', () => done())
        child.kill()
      }),
  }
}

const loopbackPreload = `// Forces every listen() onto 127.0.0.1 (Portkey binds every interface otherwise).
const net = require('node:net')
const listen = net.Server.prototype.listen
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'object' && args[0] !== null) args[0] = { ...args[0], host: '127.0.0.1' }
  else if (typeof args[0] === 'number' || typeof args[0] === 'string') {
    const cb = typeof args[args.length - 1] === 'function' ? args[args.length - 1] : undefined
    args = cb ? [args[0], '127.0.0.1', cb] : [args[0], '127.0.0.1']
  }
  return listen.apply(this, args)
}
`

export async function startPortkey(dir: string): Promise<Peer> {
  const port = await freePort()
  writeFileSync(join(dir, 'loopback.cjs'), loopbackPreload)
  const server = join(dir, 'node_modules/@portkey-ai/gateway/build/start-server.js')
  return startChild(dir, ['-r', './loopback.cjs', server, `--port=${port}`, '--headless'], `http://127.0.0.1:${port}`)
}

/** The @musistudio/llms provider of each upstream format, and the transformer it takes to speak it. */
export const musistudioProvider: Record<StrictFormat, { name: string; path: string; use?: string[] }> = {
  // streamoptions: without it the translated streams report no usage (peers.md); a user wanting usage adds it.
  'chat-completions': { name: 'openai', path: '/v1/chat/completions', use: ['streamoptions'] },
  responses: { name: 'responses', path: '/v1/responses', use: ['openai-responses'] },
  messages: { name: 'anthropic', path: '/v1/messages', use: ['Anthropic'] },
  'content-generation': { name: 'gemini', path: '/v1beta/models/', use: ['gemini'] },
}

export async function startMusistudio(
  dir: string,
  upstreams: Record<StrictFormat, string>,
  models: Record<StrictFormat, string>,
  apiKey: string,
): Promise<Peer> {
  const port = await freePort()
  const providers = Object.entries(musistudioProvider).map(([format, provider]) => ({
    name: provider.name,
    api_base_url: upstreams[format as StrictFormat] + provider.path,
    api_key: apiKey,
    models: [models[format as StrictFormat]],
    ...(provider.use ? { transformer: { use: provider.use } } : {}),
  }))
  const config = { HOST: '127.0.0.1', PORT: port, LOG: false, providers }
  // Its ESM build cannot require node built-ins ("Dynamic require of child_process"): the CommonJS one can.
  writeFileSync(
    join(dir, 'musistudio.cjs'),
    `const { default: Server } = require('@musistudio/llms')\nnew Server({ initialConfig: ${JSON.stringify(config)} }).start()\n`,
  )
  return startChild(dir, ['musistudio.cjs'], `http://127.0.0.1:${port}/health`).then((peer) => ({
    ...peer,
    url: `http://127.0.0.1:${port}`,
  }))
}
