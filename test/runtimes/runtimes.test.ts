/**
 * The built library's gateway (mock model) served unchanged from Bun, Deno and Cloudflare's workerd (through
 * miniflare), each driven by the official SDKs, streaming included. The runtimes come from this folder's own
 * package.json (installed here, not by the root `npm ci`). Needs `npm run build` first.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { driveWithSdks } from '../examples/drive.js'
import { run, type Started, start } from '../examples/harness.js'

const dir = import.meta.dirname
const bundle = join(dir, '.bundle', 'gateway.mjs')

beforeAll(async () => {
  run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock'], dir)
  const esbuildPath = 'esbuild'
  const esbuild = (await import(esbuildPath)) as { build: (options: Record<string, unknown>) => Promise<unknown> }
  await esbuild.build({
    entryPoints: [join(dir, 'worker-entry.mjs')],
    outfile: bundle,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser', 'import'],
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  })
}, 300_000)

describe.sequential('other runtimes', () => {
  describe('Bun', () => {
    let server: Started
    beforeAll(async () => {
      server = await start(join(dir, 'node_modules', '.bin', 'bun'), ['serve-bun.mjs'], {
        cwd: dir,
        ready: /listening on/,
      })
    })
    afterAll(() => server?.stop())
    it('serves all three SDKs, streaming and not', () =>
      driveWithSdks(server.output().match(/http:\/\/127\.0\.0\.1:\d+/)?.[0] as string))
  })

  describe('Deno', () => {
    let server: Started
    beforeAll(async () => {
      server = await start(
        join(dir, 'node_modules', '.bin', 'deno'),
        ['run', '--allow-net=127.0.0.1', '--allow-read', 'serve-deno.mjs'],
        {
          cwd: dir,
          env: { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
          ready: /listening on/,
        },
      )
    })
    afterAll(() => server?.stop())
    it('serves all three SDKs, streaming and not', () =>
      driveWithSdks(server.output().match(/http:\/\/127\.0\.0\.1:\d+/)?.[0] as string))
  })

  describe('workerd (miniflare)', () => {
    let miniflare: { ready: Promise<URL>; dispose: () => Promise<void> }
    let base: string
    beforeAll(async () => {
      const specifier = join(dir, 'node_modules', 'miniflare', 'dist', 'src', 'index.js')
      const { Miniflare } = (await import(specifier)) as {
        Miniflare: new (options: Record<string, unknown>) => typeof miniflare
      }
      miniflare = new Miniflare({
        modules: true,
        scriptPath: bundle,
        host: '127.0.0.1',
        port: 0,
        compatibilityDate: '2025-09-01',
      })
      base = (await miniflare.ready).origin
    }, 120_000)
    afterAll(() => miniflare?.dispose())
    it('serves all three SDKs, streaming and not', () => driveWithSdks(base))
  })
})
