/**
 * A nesting limit for decoded JSON: decoders, schema converters and the mock model recurse over tool schemas,
 * `response_format` schemas, tool inputs and function-call arguments, so a 10,000-level body would overflow the stack
 * (a 500). Checked once before any decoder runs — the walk itself stops at the limit, so it cannot overflow — and
 * answered with a native 400 naming the first path that is too deep.
 */
import { formatPath, invalidRequest } from '../errors.js'
import type { FormatId } from '../ir/format-id.js'

/** The deepest nesting of objects and arrays a request body may have. */
export const maxJsonDepth = 128

/** The path (innermost key first) of the first container deeper than `left` allows, or undefined. */
function tooDeep(value: object, left: number): PropertyKey[] | undefined {
  if (left === 0) return []
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      if (typeof item !== 'object' || item === null) continue
      const path = tooDeep(item, left - 1)
      if (path) return path.concat(i)
    }
    return undefined
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key]
    if (typeof item !== 'object' || item === null) continue
    const path = tooDeep(item, left - 1)
    if (path) return path.concat(key)
  }
  return undefined
}

/** Throws `invalid-request` naming the path of the first object or array nested deeper than `limit` levels. */
export function assertJsonDepth(value: unknown, format?: FormatId, limit = maxJsonDepth): void {
  if (typeof value !== 'object' || value === null) return
  const path = tooDeep(value, limit)
  if (path) invalidRequest(formatPath(path.reverse()), `nested deeper than ${limit} levels`, format)
}
