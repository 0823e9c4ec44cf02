/** The `x-interlingua-warnings` response header (policy 2). */
import type * as ir from '../ir/index.js'

const maxHeaderLength = 4000

/** Escapes everything outside printable ASCII so the value is a valid header. */
function asciiSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * The `x-interlingua-warnings` header value: a JSON array of `"path: message"` strings, ASCII-only, at most
 * ~4000 characters (the rest summarised as `"… N more"`).
 */
export function warningsHeader(warnings: readonly ir.Warning[]): string | undefined {
  if (warnings.length === 0) return undefined
  const items: string[] = []
  let length = 2
  for (let i = 0; i < warnings.length; i++) {
    const warning = warnings[i] as ir.Warning
    const item = asciiSafe(JSON.stringify(`${warning.path}: ${warning.message}`.slice(0, 300)))
    if (length + item.length + 20 > maxHeaderLength) {
      items.push(JSON.stringify(`... ${warnings.length - i} more`))
      break
    }
    items.push(item)
    length += item.length + 1
  }
  return `[${items.join(',')}]`
}
