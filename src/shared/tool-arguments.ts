/**
 * Tool-call arguments travel as JSON text in the IR. These convert to and from the object form that
 * messages (`input`) and content-generation (`args`) use, never throwing (policy 4).
 */

/** Parses arguments JSON into an object. Invalid JSON or a non-object yields `undefined` (caller warns). */
export function parseArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {}
  try {
    const value: unknown = JSON.parse(text)
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/** Serialises an arguments object; `"{}"` for none. */
export function stringifyArguments(value: unknown): string {
  if (value === undefined || value === null) return '{}'
  return JSON.stringify(value)
}
