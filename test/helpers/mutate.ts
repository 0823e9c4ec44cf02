/** Helpers for mutation fuzzing of JSON documents (fixtures): every path in a value, and a copy with one replaced. */

export type Path = Array<string | number>

/** Every path below the root of `value` (objects and arrays walked, the root itself excluded). */
export function paths(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  if (prefix.length > 0) out.push(prefix)
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) paths(item, [...prefix, i], out)
  } else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out)
  return out
}

/** A copy of `value` with the node at `path` replaced (the rest shared). */
export function replaced(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement
  const [head, ...rest] = path
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? replaced(item, rest, replacement) : item))
  const copy = { ...(value as Record<string, unknown>) }
  copy[head as string] = replaced(copy[head as string], rest, replacement)
  return copy
}
