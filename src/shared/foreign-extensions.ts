import { InterlinguaError } from '../errors.js'
import type { WireFormatId } from '../ir/format-id.js'
import type { Warning } from '../ir/warning.js'

/**
 * Extension keys starting with `@` are not wire fields: they are notes a decoder leaves for its own encoder.
 * - `@requires`: `{ path, message }[]`, features only the source format can serve (e.g. a Responses hosted tool,
 *   `previous_response_id`). Every other format's encoder refuses the request with a 400 naming the first path.
 * - any other `@` key: data the source's own encoder needs for a lossless round trip and that loses nothing when
 *   another format is the target (never reported).
 */
export const REQUIRES_KEY = '@requires'

export interface Requirement {
  path: string
  message: string
}

/**
 * Throws `unsupported-feature` (400, naming the path) when another format's extensions list `@requires` entries:
 * features only that format's own service can serve. `own` is the target (`'mock'`: the embedded mock model).
 */
export function assertPortable(
  extensions: { [F in WireFormatId]?: Record<string, unknown> } | undefined,
  own: WireFormatId | 'mock',
): void {
  if (!extensions) return
  for (const format in extensions) {
    if (format === own) continue
    const required = extensions[format as WireFormatId]?.[REQUIRES_KEY] as Requirement[] | undefined
    const first = required?.[0]
    if (first) {
      const options = { param: first.path, issues: required }
      throw new InterlinguaError(
        'unsupported-feature',
        `${first.path}: ${first.message}`,
        own === 'mock' || own === 'converse' ? options : { ...options, format: own },
      )
    }
  }
}

/**
 * Policy 2 for `extensions`: every top-level field another format kept verbatim (it has no IR slot) is reported as a
 * `dropped` warning by an encoder of a different format. The encoder spreads its own format's extensions itself.
 * Throws `unsupported-feature` (400) for another format's `@requires` entries.
 */
export function reportForeignExtensions(
  extensions: { [F in WireFormatId]?: Record<string, unknown> } | undefined,
  own: WireFormatId,
  warnings: Warning[],
): void {
  if (!extensions) return
  assertPortable(extensions, own)
  for (const format in extensions) {
    if (format === own) continue
    const foreign = extensions[format as WireFormatId] as Record<string, unknown>
    for (const key in foreign) {
      if (key.startsWith('@')) continue
      warnings.push({ type: 'dropped', path: key, message: `${format} field ${key} has no ${own} equivalent` })
    }
  }
}

/**
 * Policy 2 for a tool's provider data: the fields another format kept on a tool (Anthropic `defer_loading`,
 * `cache_control`, …) cannot reach this format's tool; each is reported (except `@` notes), and a deferred tool is
 * said to be sent as an ordinary, always-loaded function.
 */
export function reportForeignToolData(
  providerData: { [F in WireFormatId]?: Record<string, unknown> } | undefined,
  own: WireFormatId,
  path: string,
  warnings: Warning[],
): void {
  if (!providerData) return
  for (const format in providerData) {
    if (format === own) continue
    for (const key in providerData[format as WireFormatId]) {
      // `@` keys are notes a decoder left for its own encoder (a flattened namespace's names), never wire fields.
      if (key.startsWith('@')) continue
      const message =
        key === 'defer_loading'
          ? `${format} deferred loading has no ${own} equivalent: the tool is sent as an ordinary function`
          : `${format} field ${key} has no ${own} equivalent`
      warnings.push({ type: 'dropped', path: `${path}.${key}`, message })
    }
  }
}
