/**
 * `JSON.stringify` for the small, plain objects decoders turn into text — a Gemini `functionResponse.response`, a
 * tool call's `args` / `input` — with the same output byte for byte. Each `JSON.stringify` call has a fixed cost
 * (a runtime call, a string builder whose chunks are joined afterwards) that is most of the work for a value of a
 * few hundred bytes, and a request holds one such value per tool call and result. Plain JSON data (what `JSON.parse`
 * gives: plain objects and arrays, strings, finite numbers, booleans, null) is written here by concatenation; a
 * string is quoted as it is unless it holds a character JSON escapes. Anything else — a `toJSON`, a class instance,
 * `undefined`, a non-finite number, a bigint, a cycle, very deep nesting — hands the whole value to `JSON.stringify`,
 * so the result (or the exception) is exactly its own.
 */

/**
 * Characters `JSON.stringify` writes escaped are `"`, `\`, control characters and surrogates (lone ones). The first
 * two are found by `indexOf` (a memchr); the rest by one whole-string match, not a search for a bad character:
 * irregexp then runs the class in a tight loop instead of restarting the match at every position (together about
 * half the time of a search with one class on kilobyte texts).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes
const noControlOrSurrogate = /^[^\u0000-\u001f\ud800-\udfff]*$/

/** Nesting beyond this goes to `JSON.stringify` (which also reports cycles). */
const maxDepth = 32

/** Marks a value the fast path does not write. */
const bail: unique symbol = Symbol('bail')

function quote(text: string): string {
  return text.indexOf('"') === -1 && text.indexOf('\\') === -1 && noControlOrSurrogate.test(text)
    ? `"${text}"`
    : JSON.stringify(text)
}

function write(value: unknown, depth: number): string | typeof bail {
  switch (typeof value) {
    case 'string':
      return quote(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'number':
      return Number.isFinite(value) ? String(value) : bail
    case 'object': {
      if (value === null) return 'null'
      if (depth === 0) return bail
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return bail
        let out = '['
        for (let i = 0; i < value.length; i++) {
          const item = write(value[i], depth - 1)
          if (item === bail) return bail
          out += i === 0 ? item : `,${item}`
        }
        return `${out}]`
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return bail
      let out = '{'
      for (const key in value) {
        if (!Object.hasOwn(value, key)) return bail
        const item = write((value as Record<string, unknown>)[key], depth - 1)
        if (item === bail) return bail
        out += out.length === 1 ? `${quote(key)}:${item}` : `,${quote(key)}:${item}`
      }
      return `${out}}`
    }
    default:
      // undefined, functions, symbols (skipped or written as null by JSON.stringify), bigints (it throws)
      return bail
  }
}

/** `JSON.stringify(value)`, byte for byte, faster for small plain JSON data. */
export function jsonText(value: unknown): string {
  const text = write(value, maxDepth)
  return text === bail ? JSON.stringify(value) : text
}
