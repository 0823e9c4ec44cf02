/** A JSON number that is finite, else undefined: how usage and status fields of unchecked wire data are read. */
export function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}
