/**
 * The pieces the hand-written validators (formats/chat-completions/validate-messages.ts,
 * formats/messages/validate-content.ts) share: a value's kind and the wrong-type problem, worded as parseWire words a
 * schema issue ("required field is missing (expected string)", "expected string, received number").
 */
import type { Problem } from './schema.js'

/** What a JSON value is, for messages: `null`, `array` or its `typeof`. */
export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

export function typeProblem(path: Array<string | number>, expected: string, value: unknown): Problem {
  return {
    path,
    message:
      value === undefined
        ? `required field is missing (expected ${expected})`
        : `expected ${expected}, received ${describe(value)}`,
  }
}

/** `o[key]` is a string: required (0), optional (1), or optional and nullable (2). */
export function stringProblem(o: Record<string, unknown>, key: string, mode: 0 | 1 | 2): Problem | undefined {
  const value = o[key]
  if (typeof value === 'string' || (value === undefined && mode !== 0) || (value === null && mode === 2)) return
  return typeProblem([key], 'string', value)
}
