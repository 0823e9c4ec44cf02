/**
 * `prefix[i]` JSON paths, made once per index. Decoders name the path of every item of a conversation for the
 * errors and warnings that almost never come; a template with a number is a number-to-string conversion and a new
 * string per item (about 35 ns: 9 µs for the 250 items of a long agent conversation). Strings are immutable, so the
 * paths of the first `limit` indices are kept and handed out again; larger indices are built each time.
 */
export function indexedPath(prefix: string, limit = 1024): (index: number) => string {
  const cache: string[] = []
  return (index) => {
    if (index >= limit) return `${prefix}[${index}]`
    let path = cache[index]
    if (path === undefined) {
      path = `${prefix}[${index}]`
      cache[index] = path
    }
    return path
  }
}
