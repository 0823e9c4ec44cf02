/**
 * A value's kind and the wrong-type problem, worded once: parseWire's schema issues (shared/validate.ts) and the
 * hand-written validators (chat-completions/validate-messages.ts, messages/validate-content.ts,
 * content-generation/validate-parts.ts) say "required field is missing (expected string)" and "expected string,
 * received number" alike.
 */
import type { Problem } from './schema.js'

/** What a JSON value is, for messages: `null`, `array` or its `typeof`. */
export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/** The wrong-type sentence: `value` is what was found (`undefined`: the field is missing). */
export function typeMessage(expected: string, value: unknown): string {
  return value === undefined
    ? `required field is missing (expected ${expected})`
    : `expected ${expected}, received ${describe(value)}`
}

export function typeProblem(path: Array<string | number>, expected: string, value: unknown): Problem {
  return { path, message: typeMessage(expected, value) }
}

/** `o[key]` is a string: required (0), optional (1), or optional and nullable (2). */
export function stringProblem(o: Record<string, unknown>, key: string, mode: 0 | 1 | 2): Problem | undefined {
  const value = o[key]
  if (typeof value === 'string' || (value === undefined && mode !== 0) || (value === null && mode === 2)) return
  return typeProblem([key], 'string', value)
}
