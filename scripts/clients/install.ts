/**
 * Installs the clients' npm packages into a folder of their own (`npm install --prefix`), at versions resolved on
 * the registry at run time (`latest`) unless pinned, and says which versions it got.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** `npm view <name>@<spec> version`: the exact version a spec resolves to today. */
export function resolveVersion(name: string, spec = 'latest'): string {
  const out = execFileSync('npm', ['view', `${name}@${spec}`, 'version', '--json'], { encoding: 'utf8' }).trim()
  const parsed = JSON.parse(out) as string | string[]
  return Array.isArray(parsed) ? (parsed[parsed.length - 1] as string) : parsed
}

/** Installs `packages` (name → exact version) into `dir`; skips what is already there at that version. */
export function installInto(dir: string, packages: Record<string, string>): void {
  mkdirSync(dir, { recursive: true })
  const manifest = join(dir, 'package.json')
  if (!existsSync(manifest)) writeFileSync(manifest, JSON.stringify({ name: 'clients', private: true, type: 'module' }))
  const missing = Object.entries(packages).filter(([name, version]) => installedVersion(dir, name) !== version)
  if (missing.length === 0) return
  const specs = missing.map(([name, version]) => `${name}@${version}`)
  console.log(`installing into ${dir}: ${specs.join(' ')}`)
  execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--save-exact', ...specs], {
    stdio: ['ignore', 'inherit', 'inherit'],
  })
}

export function installedVersion(dir: string, name: string): string | undefined {
  const file = join(dir, 'node_modules', name, 'package.json')
  if (!existsSync(file)) return undefined
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
}

/** The flags both tools take: `--dir` (keep and reuse the install folder), `--only a,b`, `--pin name@version`. */
export function flags(argv: readonly string[]): { dir?: string; only?: string[]; pins: Map<string, string> } {
  const out: { dir?: string; only?: string[]; pins: Map<string, string> } = { pins: new Map() }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const value = argv[i + 1]
    if (arg === '--dir' && value) out.dir = resolve(value)
    else if (arg === '--only' && value) out.only = value.split(',')
    else if (arg === '--pin' && value) {
      const at = value.lastIndexOf('@')
      out.pins.set(value.slice(0, at), value.slice(at + 1))
    } else continue
    i++
  }
  return out
}
