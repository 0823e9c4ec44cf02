/** Section 1: convertRequest / convertResponse cost versus JSON.parse + JSON.stringify of the same body. */
import { buildBodies } from './fixtures.js'
import { measure } from './harness.js'
import { type FormatId, formatIds, type Library, shortName } from './lib.js'
import type { Row } from './report.js'

export async function conversionSection(lib: Library): Promise<Row[]> {
  const bodies = buildBodies(lib)
  const rows: Row[] = []
  for (const kind of ['request', 'response'] as const) {
    for (const size of ['small', 'large'] as const) {
      for (const from of formatIds) {
        const text = bodies[kind][size][from]
        for (const to of formatIds) {
          const convert =
            kind === 'request'
              ? () => JSON.stringify(lib.convertRequest(JSON.parse(text), { from, to, model: 'bench-model' }))
              : () => JSON.stringify(lib.convertResponse(JSON.parse(text), { from, to }))
          convert() // fail fast (and outside the timing) if this pair throws
          const t = await measure({ baseline: () => JSON.stringify(JSON.parse(text)), convert })
          rows.push(conversionRow(kind, size, from, to, text.length, t.baseline as number, t.convert as number))
        }
      }
    }
  }
  return rows
}

function conversionRow(
  kind: 'request' | 'response',
  size: 'small' | 'large',
  from: FormatId,
  to: FormatId,
  bytes: number,
  baseline: number,
  convert: number,
): Row {
  const ratio = convert / baseline
  return {
    section: '1 conversion',
    name: `${kind} ${size} ${shortName[from]}→${shortName[to]} (${(bytes / 1024).toFixed(1)} KB)`,
    ratio,
    target: size === 'large' ? 1.5 : undefined,
    detail: `${(convert * 1000).toFixed(1)} µs vs ${(baseline * 1000).toFixed(1)} µs parse+stringify`,
  }
}
