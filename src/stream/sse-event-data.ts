/**
 * The `data:` payload of one SSE event given as text (its `data:` lines joined with `\n`, one leading space dropped
 * from each), or undefined when it has none. For code that looks into whole events it forwarded as bytes, without
 * running a parser over the stream.
 */
export function eventData(event: string): string | undefined {
  let data: string | undefined
  for (const line of event.split(/\r\n|\r|\n/)) {
    if (!line.startsWith('data:')) continue
    const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5)
    data = data === undefined ? value : `${data}\n${value}`
  }
  return data
}
