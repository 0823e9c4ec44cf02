/**
 * `interlingua/testing` through its `require` condition, from the built package: the CommonJS test in
 * ./require-entry/ run by Jest and by node:test, from a scratch folder whose node_modules/interlingua links to this
 * package (so the package's `exports` resolve it as a user's install would). Needs `npm run build` first.
 */
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const run = promisify(execFile)
let dir: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'interlingua-require-'))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(root, join(dir, 'node_modules', 'interlingua'), 'dir')
  cpSync(join(import.meta.dirname, 'require-entry', 'strict-upstream.test.cjs'), join(dir, 'strict-upstream.test.cjs'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, type: 'commonjs' }))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('Jest runs a CommonJS test that requires interlingua/testing, and it passes', async () => {
  const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js')
  const config = JSON.stringify({ testEnvironment: 'node', transform: {}, rootDir: dir, testMatch: ['**/*.test.cjs'] })
  const { stderr } = await run(process.execPath, [jest, '--config', config, '--ci', '--runInBand'], {
    cwd: dir,
    timeout: 60_000,
  })
  expect(stderr).toMatch(/Tests:\s+1 passed, 1 total/)
}, 90_000)

it('node:test runs the same file, and it passes', async () => {
  const { stdout } = await run(process.execPath, ['--test', join(dir, 'strict-upstream.test.cjs')], {
    cwd: dir,
    timeout: 30_000,
  })
  expect(stdout).toMatch(/# pass 1/)
  expect(stdout).toMatch(/# fail 0/)
})
