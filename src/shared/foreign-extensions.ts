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

/**
 * Policy 2 for a tool's provider data: the fields another format kept on a tool (Anthropic `defer_loading`,
 * `cache_control`, …) cannot reach this format's tool; each is reported, and a deferred tool is said to be sent as an
 * ordinary, always-loaded function.
 */
export function reportForeignToolData(
  providerData: { [F in FormatId]?: Record<string, unknown> } | undefined,
  own: FormatId,
  path: string,
  warnings: Warning[],
): void {
  if (!providerData) return
  for (const format in providerData) {
    if (format === own) continue
    for (const key in providerData[format as FormatId]) {
      const message =
        key === 'defer_loading'
          ? `${format} deferred loading has no ${own} equivalent: the tool is sent as an ordinary function`
          : `${format} field ${key} has no ${own} equivalent`
      warnings.push({ type: 'dropped', path: `${path}.${key}`, message })
    }
  }
}
