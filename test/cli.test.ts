/**
 * The CLI as a process (what `npm start` runs): it listens on 127.0.0.1, says which base address to give each SDK,
 * serves all three SDKs on the mock model with no key, requires keys when INTERLINGUA_API_KEYS is set, and shuts
 * down cleanly on SIGTERM. The Responses store is on by default; the config file's `responseStore: false` turns it off.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { driveWithSdks } from './examples/drive.js'
import { start } from './examples/harness.js'

const root = new URL('..', import.meta.url).pathname
const tsx = `${root}node_modules/.bin/tsx`

describe('interlingua CLI', () => {
  it('serves the mock model to all three SDKs with no key, prints the SDK base addresses, exits 0 on SIGTERM', async () => {
    const server = await start(tsx, ['src/node/cli.ts', '--port', '0'], {
      cwd: root,
      env: { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', GEMINI_API_KEY: '', INTERLINGUA_API_KEYS: '' },
      ready: /listening on http/,
    })
    try {
      const base = server.output().match(/http:\/\/127\.0\.0\.1:\d+/)?.[0] as string
      expect(server.output()).toContain(`${base}/v1`)
      expect(server.output()).toMatch(/any key is accepted/)
      await driveWithSdks(base)
      // The Responses store is on by default (issue 21 §3): an answer can be fetched back and continued.
      expect(server.output()).toMatch(/responses store: in memory, per process \(1000 responses, 64 MiB, 60 min/)
      const openai = new OpenAI({ apiKey: 'any', baseURL: `${base}/v1`, maxRetries: 0 })
      const first = await openai.responses.create({ model: 'any', input: 'My name is Ada.' })
      expect((await openai.responses.retrieve(first.id)).id).toBe(first.id)
      const next = await openai.responses.create({ model: 'any', input: 'Again', previous_response_id: first.id })
      expect(next.status).toBe('completed')
    } finally {
      const exit = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)))
      server.process.kill('SIGTERM')
      expect(await exit).toBe(0)
    }
  }, 60_000)

  it('requires a client key when INTERLINGUA_API_KEYS is set (and never echoes it)', async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'interlingua-cli-')), 'config.json')
    writeFileSync(config, JSON.stringify({ responseStore: false }))
    const server = await start(tsx, ['src/node/cli.ts', '--port', '0', '--config', config], {
      cwd: root,
      env: {
        INTERLINGUA_API_KEYS: 'secret-one,secret-two',
        OPENAI_API_KEY: '',
        ANTHROPIC_API_KEY: '',
        GEMINI_API_KEY: '',
      },
      ready: /listening on http/,
    })
    try {
      const base = server.output().match(/http:\/\/127\.0\.0\.1:\d+/)?.[0] as string
      expect(server.output()).not.toContain('secret-one')
      expect(server.output()).toMatch(/responses store: off/)
      const wrong = await new OpenAI({ apiKey: 'nope', baseURL: `${base}/v1`, maxRetries: 0 }).models
        .list()
        .catch((e) => e)
      expect(wrong).toBeInstanceOf(OpenAI.AuthenticationError)
      const right = await new OpenAI({
        apiKey: 'secret-two',
        baseURL: `${base}/v1`,
        maxRetries: 0,
      }).chat.completions.create({ model: 'any', messages: [{ role: 'user', content: 'hi' }] })
      expect(right.choices[0]?.finish_reason).toBe('stop')
      const stateless = new OpenAI({ apiKey: 'secret-two', baseURL: `${base}/v1`, maxRetries: 0 })
      const first = await stateless.responses.create({ model: 'any', input: 'hi' })
      const missing = await stateless.responses.retrieve(first.id).catch((e) => e)
      expect(missing).toBeInstanceOf(OpenAI.NotFoundError)
    } finally {
      await server.stop()
    }
  }, 60_000)
})
