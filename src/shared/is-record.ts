/** A JSON object: not null, not an array (one definition for every codec, instead of a copy in each file). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
