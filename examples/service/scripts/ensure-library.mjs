// The service depends on the library in this repository (`"interlingua": "file:../.."`), which resolves to its built
// `dist/`. On a fresh clone that is not built yet: install the library's tools and build it once (about a minute).
import { execSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../..', import.meta.url))
if (!['index', 'gateway', 'node'].every((entry) => existsSync(`${root}dist/${entry}.js`))) {
  console.log('[service] building the interlingua library (first run only)…')
  if (!existsSync(`${root}node_modules/.bin/tsup`))
    execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' })
  execSync('npx tsup', { cwd: root, stdio: 'inherit' })
}
