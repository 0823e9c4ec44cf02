// The service depends on the library in this repository (`"interlingua": "file:../.."`), which resolves to its built
// `dist/`. On a fresh clone that is not built yet, and in a working copy it may be older than the sources: install the
// library's tools if needed and build it (about a minute) when an entry point is missing or a source file is newer.
import { execSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const entries = Object.values(exports)
  .map((entry) => entry?.import?.default)
  .filter((file) => typeof file === 'string' && file.startsWith('./dist/'))
  .map((file) => join(root, file))

function newest(dir) {
  let time = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    time = Math.max(time, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return time
}

const missing = entries.filter((file) => !existsSync(file))
const stale = missing.length === 0 && newest(join(root, 'src')) > Math.min(...entries.map((f) => statSync(f).mtimeMs))
if (missing.length > 0 || stale) {
  console.log(`[service] building the interlingua library (${missing.length ? 'not built yet' : 'sources changed'})…`)
  if (!existsSync(`${root}node_modules/.bin/tsup`))
    execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' })
  execSync('npx tsup', { cwd: root, stdio: 'inherit' })
}
