/**
 * Hosted tools (IR `Request.hostedTools`) in the encoders: each format maps a web search to its own equivalent or
 * leaves it out with a `dropped` warning (policy 2: a client that always sends one, like Codex, is never refused;
 * with `strict` the warning is a 400). Warnings name `tools`, the field every format lists them in.
 */

import type { FormatId } from '../ir/format-id.js'
import type * as ir from '../ir/index.js'
import { reportForeignToolData } from './foreign-extensions.js'
import { isRecord } from './is-record.js'

/** A hosted tool the target cannot run: left out, with the reason. */
export function dropHostedTool(warnings: ir.Warning[], reason: string): void {
  warnings.push({ type: 'dropped', path: 'tools', message: `web search tool left out: ${reason}` })
}

type WebSearchField = 'maxUses' | 'allowedDomains' | 'blockedDomains' | 'userLocation' | 'searchContextSize'

const fieldNames: Record<WebSearchField, string> = {
  maxUses: 'use limit',
  allowedDomains: 'allowed domains',
  blockedDomains: 'blocked domains',
  userLocation: 'user location',
  searchContextSize: 'search context size',
}

/**
 * Reports the web search's settings that `own`'s equivalent has no field for (`supported` lists those it has), and
 * the provider data another format kept on it (`@` notes excepted).
 */
export function reportWebSearchFields(
  tool: ir.WebSearchTool,
  own: FormatId,
  supported: ReadonlyArray<WebSearchField>,
  warnings: ir.Warning[],
): void {
  for (const field of Object.keys(fieldNames) as WebSearchField[]) {
    if (tool[field] === undefined || supported.includes(field)) continue
    warnings.push({
      type: 'dropped',
      path: `tools.webSearch.${field}`,
      message: `${own} web search has no ${fieldNames[field]}`,
    })
  }
  reportForeignToolData(tool.providerData, own, 'tools.webSearch', warnings)
}

/** A `user_location` object (Responses and Anthropic share the shape) → the IR location; undefined when it has none. */
export function userLocationOf(value: unknown): ir.WebSearchTool['userLocation'] | undefined {
  if (!isRecord(value)) return undefined
  const out: NonNullable<ir.WebSearchTool['userLocation']> = {}
  for (const key of ['city', 'region', 'country', 'timezone'] as const)
    if (typeof value[key] === 'string') out[key] = value[key] as string
  return Object.keys(out).length > 0 ? out : undefined
}

/** A `search_context_size` value (Responses `web_search`, chat-completions `web_search_options`). */
export function isContextSize(value: unknown): value is 'low' | 'medium' | 'high' {
  return value === 'low' || value === 'medium' || value === 'high'
}
