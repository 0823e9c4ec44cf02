/**
 * The recorded fixtures: `test/fixtures/clients/<client>/<version>/<scenario>.<n>.json`, one request each — the
 * generation requests numbered in the order the client sent them (`.1` is turn 1, `.2` the turn with the tool result),
 * anything else the client asked on the way (token counts, model listings) as `<scenario>.other-<n>.json`.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { RecordedRequest } from './recorder.js'

export interface ClientFixture extends RecordedRequest {
  client: string
  version: string
  scenario: string
}

/** Replaces every occurrence of each key in the JSON value's strings by its value (a temp dir by a stable path). */
export function replaceStrings(value: unknown, replacements: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') {
    let out = value
    for (const [from, to] of replacements) if (from) out = out.split(from).join(to)
    return out
  }
  if (Array.isArray(value)) return value.map((item) => replaceStrings(item, replacements))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceStrings(item, replacements)]))
  return value
}

/** Writes one scenario's requests; returns the file names. */
export function writeScenario(
  root: string,
  client: string,
  version: string,
  scenario: string,
  requests: readonly RecordedRequest[],
  replacements: ReadonlyMap<string, string>,
): string[] {
  const dir = join(root, client, version)
  mkdirSync(dir, { recursive: true })
  for (const file of readdirSync(dir)) if (file.startsWith(`${scenario}.`)) rmSync(join(dir, file))
  const names: string[] = []
  let turn = 0
  let other = 0
  for (const request of requests) {
    const name = request.format ? `${scenario}.${++turn}.json` : `${scenario}.other-${++other}.json`
    const fixture: ClientFixture = { client, version, scenario, ...request }
    writeFileSync(join(dir, name), `${JSON.stringify(replaceStrings(fixture, replacements), null, 2)}\n`)
    names.push(name)
  }
  return names
}
