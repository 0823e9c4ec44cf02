/**
 * `npm run test:examples`: each example under examples/ is installed (the library packed from this checkout with
 * `--install-links`, as a user would get it), started on 127.0.0.1, driven by the official SDKs, and stopped.
 * Needs `npm run build` first (CI does it).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { driveWithSdks } from './drive.js'
import { freePort, run, type Started, start } from './harness.js'

const root = join(import.meta.dirname, '..', '..')
const install = (dir: string) =>
  run('npm', ['install', '--no-audit', '--no-fund', '--install-links', '--no-package-lock'], dir)

describe.sequential('examples', () => {
  describe('express: gateway as middleware under /llm', () => {
    const dir = join(root, 'examples', 'express')
    let server: Started
    let port: number
    beforeAll(async () => {
      install(dir)
      port = await freePort()
      server = await start('node', ['server.mjs'], { cwd: dir, env: { PORT: String(port) }, ready: /listening on/ })
    }, 300_000)
    afterAll(() => server?.stop())
    it('serves all three SDKs under the prefix, streaming and not, beside its own route', async () => {
      await driveWithSdks(`http://127.0.0.1:${port}/llm`)
      const health = await fetch(`http://127.0.0.1:${port}/health`)
      if ((await health.json()).ok !== true) throw new Error('health route broken')
    })
  })

  describe('hono: routes calling gateway.fetch', () => {
    const dir = join(root, 'examples', 'hono')
    let server: Started
    let port: number
    beforeAll(async () => {
      install(dir)
      port = await freePort()
      server = await start('node', ['server.mjs'], { cwd: dir, env: { PORT: String(port) }, ready: /listening on/ })
    }, 300_000)
    afterAll(() => server?.stop())
    it('serves all three SDKs, streaming and not', () => driveWithSdks(`http://127.0.0.1:${port}`))
  })

  describe('next: app-router catch-all route handler', () => {
    const dir = join(root, 'examples', 'next')
    let server: Started
    let port: number
    beforeAll(async () => {
      install(dir)
      run(join(dir, 'node_modules', '.bin', 'next'), ['build'], dir, 300_000)
      if (!existsSync(join(dir, '.next'))) throw new Error('next build produced nothing')
      port = await freePort()
      server = await start(
        join(dir, 'node_modules', '.bin', 'next'),
        ['start', '-H', '127.0.0.1', '-p', String(port)],
        {
          cwd: dir,
          env: { NEXT_TELEMETRY_DISABLED: '1' },
          ready: /Ready|started server/i,
        },
      )
    }, 600_000)
    afterAll(() => server?.stop())
    it('serves all three SDKs after next build / next start, streaming and not', () =>
      driveWithSdks(`http://127.0.0.1:${port}`))
  })
})
