/** `interlingua/testing` works from node:test: ./smoke.node-test.ts run by Node's own runner (through tsx). */
import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

it('node --test runs a strict upstream test and it passes', async () => {
  const file = resolve(import.meta.dirname, 'smoke.node-test.ts')
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--test', file], {
    timeout: 20_000,
  })
  expect(stdout).toMatch(/# pass 1/)
  expect(stdout).toMatch(/# fail 0/)
})
