import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FormatId } from '../../src/formats/format.js'

export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures')
export const formatIds: FormatId[] = ['chat-completions', 'messages', 'content-generation', 'responses']

/** Scenario names that have a file `<scenario><suffix>` in the format's fixture folder. */
export function scenarios(format: FormatId, suffix: string): string[] {
  const dir = join(fixturesDir, format)
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((name) => name.endsWith(suffix) && !name.slice(0, -suffix.length).includes('.'))
    .map((name) => name.slice(0, -suffix.length))
    .sort()
}

export function readJson(format: FormatId, file: string): unknown {
  return JSON.parse(readFileSync(join(fixturesDir, format, file), 'utf8'))
}

export function readBytes(format: FormatId, file: string): Uint8Array {
  return new Uint8Array(readFileSync(join(fixturesDir, format, file)))
}

export function fixtureExists(format: FormatId, file: string): boolean {
  return existsSync(join(fixturesDir, format, file))
}
