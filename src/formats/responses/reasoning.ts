/**
 * Policy 3 for Responses clients: another provider's reasoning record travels in a `reasoning` item's
 * `encrypted_content` — the one field the AI SDK, the Agents SDK and Codex all send back unchanged
 * (responses-api.md §9.1) — as a versioned, self-describing envelope: `il1:` + base64url(JSON).
 *
 * - `{ v: 1, k: 'reasoning', text, pd }`: an Anthropic thinking block (text + `signature`) or Gemini thought text
 *   with its `thoughtSignature`; `pd` is the part's provider data minus the `responses` namespace.
 * - `{ v: 1, k: 'redacted', data, pd? }`: Anthropic `redacted_thinking`.
 * - `{ v: 1, k: 'attach', call?, pd }`: provider data that belongs to a function call (`call` = its `call_id`; Gemini
 *   wants its `thoughtSignature` back on the `functionCall` part) or, without `call`, to the next text part.
 *
 * Anything else in `encrypted_content` (OpenAI's own `gAAAA…` tokens) is not ours: it is kept under
 * `providerData.responses.encryptedContent` and only ever sent back to a Responses upstream.
 */
import type * as ir from '../../ir/index.js'

const PREFIX = 'il1:'

export type Envelope =
  | { v: 1; k: 'reasoning'; text: string; pd: ir.ProviderData }
  | { v: 1; k: 'redacted'; data: string; pd?: ir.ProviderData }
  | { v: 1; k: 'attach'; call?: string; pd: ir.ProviderData }

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text)
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(text: string): string {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
}

export function sealEnvelope(envelope: Envelope): string {
  return PREFIX + toBase64Url(JSON.stringify(envelope))
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Our envelope, or `undefined` for anything else (a foreign blob, a damaged envelope). Never throws. */
export function openEnvelope(value: unknown): Envelope | undefined {
  if (typeof value !== 'string' || !value.startsWith(PREFIX)) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(fromBase64Url(value.slice(PREFIX.length)))
  } catch {
    return undefined
  }
  if (!isRecord(parsed) || parsed.v !== 1) return undefined
  const pd = isRecord(parsed.pd) ? (parsed.pd as ir.ProviderData) : undefined
  if (parsed.k === 'reasoning' && typeof parsed.text === 'string' && pd)
    return { v: 1, k: 'reasoning', text: parsed.text, pd }
  if (parsed.k === 'redacted' && typeof parsed.data === 'string') {
    return pd ? { v: 1, k: 'redacted', data: parsed.data, pd } : { v: 1, k: 'redacted', data: parsed.data }
  }
  if (parsed.k === 'attach' && pd) {
    return typeof parsed.call === 'string' ? { v: 1, k: 'attach', call: parsed.call, pd } : { v: 1, k: 'attach', pd }
  }
  return undefined
}

/** Provider data of every format but `responses` (what an envelope carries), or undefined when there is none. */
export function foreignData(providerData: ir.ProviderData | undefined): ir.ProviderData | undefined {
  if (!providerData) return undefined
  let out: ir.ProviderData | undefined
  for (const key of Object.keys(providerData) as ir.FormatId[]) {
    if (key === 'responses') continue
    out ??= {}
    out[key] = providerData[key]
  }
  return out
}

/** Merges provider data namespaces (later keys win), as the IR stream grammar does. */
export function mergeData(
  base: ir.ProviderData | undefined,
  extra: ir.ProviderData | undefined,
): ir.ProviderData | undefined {
  if (!extra) return base
  const merged: ir.ProviderData = { ...base }
  for (const key of Object.keys(extra) as ir.FormatId[]) merged[key] = { ...merged[key], ...extra[key] }
  return merged
}

/** Provider data worth carrying for a tool-call or text part: only Gemini's `thoughtSignature` needs to come back. */
export function attachableData(providerData: ir.ProviderData | undefined): ir.ProviderData | undefined {
  const signature = providerData?.['content-generation']?.thoughtSignature
  return typeof signature === 'string' ? { 'content-generation': { thoughtSignature: signature } } : undefined
}
