/**
 * Pieces of the patterns with which the stream decoders read their hottest event (a text delta in the API's own
 * compact form) without `JSON.parse`. A pattern built from them matches only data that is exactly that JSON object
 * and whose strings need no unescaping, so what it captures is the very value `JSON.parse` would return; anything
 * else (escapes, other spacing or key order, extra keys) takes the decoder's general path.
 */

/** The characters of a JSON string that needs no unescaping: code units from U+0020 up, other than `"` and `\`. */
export const plainString = '[ !#-[\\]-\\uffff]*'

/** A non-negative JSON integer (no leading zero, at most 16 digits, so `Number` gives what `JSON.parse` gives). */
export const plainCount = '(?:0|[1-9]\\d{0,15})'
