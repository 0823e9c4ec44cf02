/**
 * Passthrough forwards the client's bytes (policy 1): only the top-level `model` value is replaced, in the text, so
 * the body is not re-serialised (numbers, key order and whitespace stay as the client wrote them).
 */

function skipString(text: string, at: number): number {
  // `at` is the opening quote; returns the index after the closing quote (the text is valid JSON). Jumps from quote
  // to quote: a quote preceded by an odd number of backslashes is escaped.
  let from = at + 1
  for (;;) {
    const quote = text.indexOf('"', from)
    if (quote < 0) return -1
    let backslashes = 0
    while (text.charCodeAt(quote - 1 - backslashes) === 92 /* \ */) backslashes++
    if (backslashes % 2 === 0) return quote + 1
    from = quote + 1
  }
}

function skipWhitespace(text: string, at: number): number {
  let i = at
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break
  }
  return i
}

/**
 * The JSON text of an object (already parsed successfully) with its top-level `"model"` string value replaced by
 * `model`; the text itself when it has no `model` key; `undefined` when it cannot be spliced safely (the key spelled
 * with escapes, given twice, or not a string) — the caller then serialises the parsed value.
 */
export function spliceModel(text: string, model: string, hasModel: boolean): string | undefined {
  let depth = 0
  let span: [number, number] | undefined
  let i = skipWhitespace(text, 0)
  if (text.charCodeAt(i) !== 123 /* { */) return undefined
  let seen = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 34 /* " */) {
      const end = skipString(text, i)
      if (end < 0) return undefined
      if (depth === 1 && end - i === 7 && text.startsWith('"model"', i)) {
        const colon = skipWhitespace(text, end)
        if (text.charCodeAt(colon) === 58 /* : */) {
          const start = skipWhitespace(text, colon + 1)
          if (text.charCodeAt(start) !== 34) return undefined
          const valueEnd = skipString(text, start)
          if (valueEnd < 0) return undefined
          seen++
          span = [start, valueEnd]
          i = valueEnd
          continue
        }
      }
      i = end
      continue
    }
    if (c === 123 || c === 91 /* { [ */) depth++
    else if (c === 125 || c === 93 /* } ] */) depth--
    i++
  }
  if (seen === 0) return hasModel ? undefined : text
  if (seen > 1 || !span) return undefined
  return `${text.slice(0, span[0])}${JSON.stringify(model)}${text.slice(span[1])}`
}

/**
 * The JSON text of a non-empty object with `"key":valueText` added as its last member, without re-serialising it
 * (the caller knows `key` is absent); `undefined` when the text does not end with the object's `}`.
 */
export function appendMember(text: string, key: string, valueText: string): string | undefined {
  let end = text.length - 1
  while (end >= 0 && ' \n\r\t'.includes(text.charAt(end))) end--
  if (text.charCodeAt(end) !== 125 /* } */) return undefined
  return `${text.slice(0, end)},${JSON.stringify(key)}:${valueText}${text.slice(end)}`
}
