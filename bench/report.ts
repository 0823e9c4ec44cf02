/** The one table the bench prints, and bench/results.md. */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { benchDir } from './lib.js'

export interface Row {
  section: string
  name: string
  /** The figure: a ratio against the same-run baseline (lower is better unless `higherIsBetter`). */
  ratio?: number
  /** Target for `ratio` (met when ratio ≤ target, or ≥ target when higherIsBetter). */
  target?: number
  higherIsBetter?: boolean
  /** Absolute numbers for context. */
  detail: string
  /** A verdict on an absolute figure (overrides the ratio check), e.g. "added p99 < 2 ms". */
  check?: { met: boolean; text: string }
}

export function verdict(row: Row): string {
  if (row.check) return `${row.check.met ? 'met' : 'MISSED'} (${row.check.text})`
  if (row.ratio === undefined || row.target === undefined) return ''
  const met = row.higherIsBetter ? row.ratio >= row.target : row.ratio <= row.target
  return met
    ? `met (${row.higherIsBetter ? '≥' : '≤'}${row.target})`
    : `MISSED (${row.higherIsBetter ? '≥' : '≤'}${row.target})`
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|')
}

export function table(rows: readonly Row[]): string {
  const lines = ['| section | case | ratio | target | absolute (context) |', '|---|---|---:|---|---|']
  for (const row of rows) {
    const ratio = row.ratio === undefined ? '—' : `${row.ratio.toFixed(2)}×`
    lines.push(`| ${row.section} | ${cell(row.name)} | ${ratio} | ${verdict(row)} | ${cell(row.detail)} |`)
  }
  return lines.join('\n')
}

export function machine(): string[] {
  let cpu = cpus()[0]?.model ?? 'unknown'
  try {
    const match = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))
    if (match?.[1]) cpu = match[1].trim()
  } catch {}
  let kernel = ''
  try {
    kernel = execFileSync('uname', ['-sr'], { encoding: 'utf8' }).trim()
  } catch {}
  return [
    `- date: ${new Date().toISOString()}`,
    `- node: ${process.version}`,
    `- CPU: ${cpu}, ${cpus().length} cores${kernel ? `, ${kernel}` : ''}`,
    `- memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
  ]
}

/**
 * Sections written by hand (analysis of several runs, before/after tables) start at this marker line and are kept
 * when the bench rewrites the file: a run replaces its own table, never the notes about earlier runs.
 */
export const HAND_WRITTEN_MARKER = '<!-- hand-written below: kept by `npm run bench` -->'

function handWritten(file: string): string {
  let previous: string
  try {
    previous = readFileSync(file, 'utf8')
  } catch {
    return ''
  }
  const at = previous.indexOf(HAND_WRITTEN_MARKER)
  return at === -1 ? '' : `\n${previous.slice(at)}`
}

export function writeResults(rows: readonly Row[], notes: readonly string[], seconds: number): string {
  const missed = rows.filter((row) => verdict(row).startsWith('MISSED'))
  const text = [
    '# interlingua benchmark results',
    '',
    'Written by `npm run bench` (bench/run.ts). Every figure is a ratio against a baseline measured in the same run;',
    'absolute numbers are for context only (this machine is shared and noisy).',
    '',
    '## Machine',
    '',
    ...machine(),
    `- bench wall time: ${seconds.toFixed(0)} s`,
    '',
    '## Results',
    '',
    table(rows),
    '',
    '## Targets missed',
    '',
    ...(missed.length === 0
      ? ['None.']
      : missed.map((row) => `- ${row.section} / ${row.name}: ${row.ratio?.toFixed(2)}× (${verdict(row)})`)),
    '',
    ...(notes.length > 0 ? ['## Notes', '', ...notes.map((note) => `- ${note}`), ''] : []),
  ].join('\n')
  const file = join(benchDir, 'results.md')
  writeFileSync(file, text + handWritten(file))
  return file
}
