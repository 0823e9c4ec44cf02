import type { FormatId } from '../ir/format-id.js'
import type { Warning } from '../ir/warning.js'

/**
 * Policy 2 for `extensions`: every top-level field another format kept verbatim (it has no IR slot) is reported as a
 * `dropped` warning by an encoder of a different format. The encoder spreads its own format's extensions itself.
 */
export function reportForeignExtensions(
  extensions: { [F in FormatId]?: Record<string, unknown> } | undefined,
  own: FormatId,
  warnings: Warning[],
): void {
  if (!extensions) return
  for (const format in extensions) {
    if (format === own) continue
    for (const key in extensions[format as FormatId]) {
      warnings.push({ type: 'dropped', path: key, message: `${format} field ${key} has no ${own} equivalent` })
    }
  }
}
