/**
 * Policy 3 — the reasoning envelope: how another provider's opaque reasoning data (an Anthropic thinking `signature`
 * or `redacted_thinking.data`, a Gemini `thoughtSignature` on a given part) travels through a client whose own field
 * for such data is the only thing it echoes back: a messages `thinking.signature` / `redacted_thinking.data`, a
 * content-generation part's `thoughtSignature` (and a Responses reasoning item's `encrypted_content`).
 *
 * Wire form: `il1.` + base64url(JSON `{ v: 1, p: ProviderData, r?: string }`) — versioned and self-describing: `p`
 * holds the provider data by the format that produced it (never the client's own format, which is written natively),
 * `r` the data of a redacted reasoning block. A decoder that meets an envelope restores the namespaced provider data
 * on the part; encoders only ever write their own namespace upstream, so a foreign signature is never sent to the
 * wrong provider, and the original bytes come back exactly. Anything that is not an envelope is a native value.
 */
import type { FormatId, ProviderData, WireFormatId } from '../ir/format-id.js'
import type * as ir from '../ir/index.js'
import { isRecord } from './is-record.js'

const prefix = 'il1.'

/**
 * What marks an envelope in a JSON body's text: a string value that begins with the prefix. A same-format passthrough
 * scans the client's text for it once (policy 1's exception); a body without it is forwarded untouched.
 */
export const envelopeMarker = `"${prefix}`

/** Whether `value` is (or pretends to be) an envelope: it begins with the prefix, damaged or not. */
export function isEnvelope(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(prefix)
}

export interface Envelope {
  /** Provider data by producing format. */
  providerData: ProviderData
  /** The data of a redacted reasoning block (Anthropic `redacted_thinking.data`). */
  redactedData?: string
}

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

/**
 * The opaque reasoning field of each provider, by the format that produced it: the only data that travels in an
 * envelope (a new format with its own signatures adds one line here).
 */
const signatureFields: Partial<Record<WireFormatId, string>> = {
  messages: 'signature',
  'content-generation': 'thoughtSignature',
  converse: 'signature',
}

/**
 * The envelope a part must carry towards a client of format `own`: the other providers' signatures on it (and a
 * redacted block's data), or undefined when there is nothing foreign to carry.
 */
export function envelopeFor(
  providerData: ProviderData | undefined,
  own: FormatId,
  redactedData?: string,
): string | undefined {
  const carried: ProviderData = {}
  let any = redactedData !== undefined
  for (const format in signatureFields) {
    if (format === own) continue
    const field = signatureFields[format as WireFormatId] as string
    const data = providerData?.[format as WireFormatId]
    const value = data?.[field]
    const signed = typeof value === 'string' && value !== ''
    // A redacted block of that provider (Bedrock Converse's `redactedContent`) says so: it goes back to it only.
    if (!signed && data?.redacted !== true) continue
    carried[format as WireFormatId] = signed ? { [field]: value } : { redacted: true }
    any = true
  }
  if (!any) return undefined
  return wrapEnvelope(redactedData === undefined ? { providerData: carried } : { providerData: carried, redactedData })
}

/** Whether a redacted reasoning part is another provider's than `own`'s (its namespace marks it `redacted`). */
export function foreignRedacted(providerData: ProviderData | undefined, own: FormatId): boolean {
  for (const format in providerData)
    if (format !== own && providerData[format as WireFormatId]?.redacted === true) return true
  return false
}

/**
 * The signature of a thinking block given to a messages client when the reasoning carries no signature at all (a
 * Gemini thought, whose signature rides on the call; an OpenAI summary): an envelope of nothing. A messages client
 * then always holds a non-empty signature, and the block it echoes is recognisably the gateway's — dropped, never
 * sent to Anthropic as an unsigned thinking block.
 */
export function unsignedEnvelope(): string {
  return wrapEnvelope({ providerData: {} })
}

/** Wraps provider data (and a redacted block's data) into an envelope string. */
export function wrapEnvelope(envelope: Envelope): string {
  const payload: { v: 1; p: ProviderData; r?: string } = { v: 1, p: envelope.providerData }
  if (envelope.redactedData !== undefined) payload.r = envelope.redactedData
  return prefix + toBase64Url(JSON.stringify(payload))
}

/** The envelope in `value`, or undefined when `value` is a native signature (or a damaged envelope). Never throws. */
export function unwrapEnvelope(value: unknown): Envelope | undefined {
  if (typeof value !== 'string' || !value.startsWith(prefix)) return undefined
  let payload: unknown
  try {
    payload = JSON.parse(fromBase64Url(value.slice(prefix.length)))
  } catch {
    return undefined
  }
  if (!isRecord(payload) || payload.v !== 1 || !isRecord(payload.p)) return undefined
  const providerData: ProviderData = {}
  for (const key in payload.p) {
    const data = payload.p[key]
    if (isRecord(data)) providerData[key as WireFormatId] = data
  }
  const envelope: Envelope = { providerData }
  if (typeof payload.r === 'string') envelope.redactedData = payload.r
  return envelope
}

/** Merges provider data namespace by namespace (the later value of a field wins). */
function mergeData(into: ProviderData | undefined, from: ProviderData): ProviderData {
  const out: ProviderData = { ...into }
  for (const key in from) out[key as WireFormatId] = { ...out[key as WireFormatId], ...from[key as WireFormatId] }
  return out
}

/**
 * Restores the envelopes a client of format `own` sent back in an assistant turn (decoders call it on every
 * assistant message of a request). A reasoning part whose signature field holds an envelope gets the envelope's
 * provider data instead (and becomes the redacted reasoning it was, when it carries redacted data); reasoning parts
 * split by a stream before it are joined back into it (the signature covers the whole text); a messages
 * `redacted_thinking` envelope carries the data of the part that follows it and is removed, unless it holds another
 * provider's redacted block (`redactedData`), which it becomes again; a Gemini part of any kind
 * carries its own envelope. Parts without envelopes are returned untouched. Pure: returns a new array when anything
 * changed.
 */
export function restoreEnvelopes(parts: ir.AssistantPart[], own: FormatId): ir.AssistantPart[] {
  const field = signatureFields[own]
  if (!field) return parts
  let out: ir.AssistantPart[] | undefined
  let pending: ProviderData | undefined
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as ir.AssistantPart
    const ownData = part.providerData?.[own]
    const carried = part.type === 'redacted-reasoning' && own === 'messages' ? part.data : ownData?.[field]
    const envelope = unwrapEnvelope(carried)
    if (!envelope && !pending) {
      out?.push(part)
      continue
    }
    out ??= parts.slice(0, i)
    if (!envelope) {
      if (part.type === 'reasoning' || part.type === 'redacted-reasoning') out.push(part)
      else {
        out.push({ ...part, providerData: mergeData(part.providerData, pending as ProviderData) } as ir.AssistantPart)
        pending = undefined
      }
      continue
    }
    if (part.type === 'redacted-reasoning' && own === 'messages' && envelope.redactedData === undefined) {
      pending = mergeData(pending, envelope.providerData)
      continue
    }
    const rest: Record<string, unknown> = { ...ownData }
    delete rest[field]
    let providerData = envelope.providerData
    if (Object.keys(rest).length > 0) providerData = { ...providerData, [own]: rest }
    if (pending) {
      providerData = mergeData(pending, providerData)
      pending = undefined
    }
    if (envelope.redactedData !== undefined) {
      out.push({ type: 'redacted-reasoning', data: envelope.redactedData, providerData })
      continue
    }
    if (part.type === 'reasoning') {
      // A stream splits one signed thought into several parts, the envelope on the last: join them back.
      let text = part.text
      while (out.length > 0) {
        const previous = out[out.length - 1] as ir.AssistantPart
        if (previous.type !== 'reasoning' || previous.providerData !== undefined) break
        text = previous.text + text
        out.pop()
      }
      out.push({ type: 'reasoning', text, providerData })
      continue
    }
    out.push({ ...part, providerData } as ir.AssistantPart)
  }
  return out ?? parts
}
