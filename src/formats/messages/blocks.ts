/**
 * Content blocks ⇄ IR parts, shared by the request and response codecs. Block keys the IR has no field for
 * (cache_control, citations, caller, context, …) ride verbatim in `providerData.messages` and are spread back
 * by the encoder, so a same-format round trip is exact.
 */
import { invalidRequest } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import { envelopeFor, foreignRedacted } from '../../shared/reasoning-envelope.js'
import { argumentsObject, toolCallFromObject } from '../../shared/tool-arguments.js'
import { toMessagesToolId } from '../../shared/tool-ids.js'
import type { WireBlock, WireSource } from './schema.js'
import { webCitations } from './web-search.js'

export type Json = Record<string, unknown>

/** Keys of `value` not in `known`, or undefined when there are none. */
export function extrasOf(value: Json, known: ReadonlySet<string>): Json | undefined {
  let out: Json | undefined
  for (const key in value) {
    if (known.has(key)) continue
    if (out === undefined) out = {}
    out[key] = value[key]
  }
  return out
}

/** `{ messages: data }`, or undefined when there is no data. */
export function ownData(data: Json | undefined): ir.ProviderData | undefined {
  return data === undefined ? undefined : { messages: data }
}

/** Sets `providerData` on a part only when there is some (keeps IR objects small). */
export function withData<T extends { providerData?: ir.ProviderData }>(part: T, data: Json | undefined): T {
  if (data !== undefined) part.providerData = { messages: data }
  return part
}

const textKeys = new Set(['type', 'text'])
const mediaKeys = new Set(['type', 'source'])
const documentKeys = new Set(['type', 'source', 'title'])
export const toolUseKeys = new Set(['type', 'id', 'name', 'input'])
const thinkingKeys = new Set(['type', 'thinking'])
export const redactedKeys = new Set(['type', 'data'])

export function decodeText(block: WireBlock): ir.TextPart {
  const part: ir.TextPart = { type: 'text', text: block.text as string }
  const citations = webCitations(block.citations)
  if (citations) part.citations = citations
  return withData(part, extrasOf(block, textKeys))
}

function required(value: unknown, path: string): void {
  if (value === undefined || value === null)
    invalidRequest(path, 'required field is missing (expected string)', 'messages')
}

/** The checks `decodeImage` / `decodeDocument` make on a block's source (`path` names the source). */
export function checkSource(source: WireSource, path: string): void {
  switch (source.type) {
    case 'base64':
      required(source.media_type, `${path}.media_type`)
      required(source.data, `${path}.data`)
      return
    case 'url':
      required(source.url, `${path}.url`)
      return
    case 'file':
      required(source.file_id, `${path}.file_id`)
      return
    case 'text':
      required(source.data, `${path}.data`)
  }
}

/** Wire source → IR media source. Document `content` sources keep the raw source in provider data. */
function decodeSource(source: WireSource, path: string, data: { rawSource?: unknown }): ir.MediaSource {
  checkSource(source, path)
  switch (source.type) {
    case 'base64':
      return { type: 'base64', mediaType: source.media_type as string, data: source.data as string }
    case 'url':
      return { type: 'url', url: source.url as string }
    case 'file':
      return { type: 'file', fileId: source.file_id as string }
    case 'text':
      return { type: 'text', text: source.data as string, mediaType: source.media_type ?? 'text/plain' }
    default: {
      // `content` sources (and future ones): the text stands in for other formats; the raw source comes back here.
      data.rawSource = source
      const content = source.content
      const text =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? content.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('\n')
            : ''
      return { type: 'text', text, mediaType: 'text/plain' }
    }
  }
}

export function decodeImage(block: WireBlock, path: string): ir.ImagePart {
  const extra: { rawSource?: unknown } = {}
  const part: ir.ImagePart = {
    type: 'image',
    source: decodeSource(block.source as WireSource, `${path}.source`, extra),
  }
  let data = extrasOf(block, mediaKeys)
  if (extra.rawSource !== undefined) data = { ...data, source: extra.rawSource }
  return withData(part, data)
}

export function decodeDocument(block: WireBlock, path: string): ir.DocumentPart {
  const extra: { rawSource?: unknown } = {}
  const part: ir.DocumentPart = {
    type: 'document',
    source: decodeSource(block.source as WireSource, `${path}.source`, extra),
  }
  if (typeof block.title === 'string') part.title = block.title
  let data = extrasOf(block, documentKeys)
  if (block.title === null) data = { ...data, title: null }
  if (extra.rawSource !== undefined) data = { ...data, source: extra.rawSource }
  return withData(part, data)
}

export function decodeToolUse(block: WireBlock): ir.ToolCallPart {
  const part = toolCallFromObject(block.id as string, block.name as string, block.input)
  return withData(part, extrasOf(block, toolUseKeys))
}

export function decodeThinking(block: WireBlock): ir.ReasoningPart {
  return withData<ir.ReasoningPart>(
    { type: 'reasoning', text: block.thinking as string },
    extrasOf(block, thinkingKeys),
  )
}

export function decodeRedacted(block: WireBlock): ir.RedactedReasoningPart {
  return withData<ir.RedactedReasoningPart>(
    { type: 'redacted-reasoning', data: block.data as string },
    extrasOf(block, redactedKeys),
  )
}

/** An assistant content block as an IR part; undefined for a block type that has none (the caller reports it). */
export function decodeAssistantBlock(block: WireBlock): ir.AssistantPart | undefined {
  switch (block.type) {
    case 'text':
      return decodeText(block)
    case 'tool_use':
      return decodeToolUse(block)
    case 'thinking':
      return decodeThinking(block)
    case 'redacted_thinking':
      return decodeRedacted(block)
  }
  return undefined
}

// ─── encode ────────────────────────────────────────────────────────────────────────────────────────────────

/** The part's own provider data (messages namespace), minus the internal markers this codec adds. */
export function ownExtras(part: { providerData?: ir.ProviderData }): Json | undefined {
  return part.providerData?.messages
}

function spread(block: Json, extras: Json | undefined, skip?: string): Json {
  if (extras) for (const key in extras) if (key !== skip && key !== 'contentArray') block[key] = extras[key]
  return block
}

export function encodeText(part: ir.TextPart): Json {
  return spread({ type: 'text', text: part.text }, ownExtras(part))
}

const imageTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp'])

/** A pushed warning and `undefined` when the media cannot be sent to messages. */
export function encodeImage(part: ir.ImagePart, path: string, warnings: ir.Warning[]): Json | undefined {
  const extras = ownExtras(part)
  if (extras?.source !== undefined) return spread({ type: 'image', source: extras.source }, extras, 'source')
  const source = part.source
  let wire: Json
  if (source.type === 'base64') {
    const mediaType = source.mediaType.toLowerCase() === 'image/jpg' ? 'image/jpeg' : source.mediaType.toLowerCase()
    if (!imageTypes.has(mediaType)) {
      warnings.push({
        type: 'dropped',
        path,
        message: `image media type ${source.mediaType} is not accepted by messages`,
      })
      return undefined
    }
    wire = { type: 'base64', media_type: mediaType, data: source.data }
  } else if (source.type === 'url') wire = { type: 'url', url: source.url }
  else if (source.type === 'file') wire = { type: 'file', file_id: source.fileId }
  else {
    warnings.push({ type: 'dropped', path, message: 'a text source cannot be sent as a messages image' })
    return undefined
  }
  if (part.detail !== undefined && part.detail !== 'auto') {
    warnings.push({ type: 'dropped', path: `${path}.detail`, message: 'messages has no image detail setting' })
  }
  return spread({ type: 'image', source: wire }, extras)
}

function decodeBase64Text(data: string): string | undefined {
  try {
    const binary = atob(data)
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}

export function encodeDocument(part: ir.DocumentPart, path: string, warnings: ir.Warning[]): Json | undefined {
  const extras = ownExtras(part)
  let wire: unknown = extras?.source
  if (wire === undefined) {
    const source = part.source
    if (source.type === 'url') wire = { type: 'url', url: source.url }
    else if (source.type === 'file') wire = { type: 'file', file_id: source.fileId }
    else if (source.type === 'text') wire = { type: 'text', media_type: 'text/plain', data: source.text }
    else if (source.mediaType === 'application/pdf')
      wire = { type: 'base64', media_type: 'application/pdf', data: source.data }
    else if (source.mediaType.startsWith('text/') || source.mediaType === 'application/json') {
      const text = decodeBase64Text(source.data)
      if (text !== undefined) {
        wire = { type: 'text', media_type: 'text/plain', data: text }
        warnings.push({ type: 'changed', path, message: `${source.mediaType} document sent as a plain-text document` })
      }
    }
    if (wire === undefined) {
      const type = source.type === 'base64' ? source.mediaType : source.type
      warnings.push({ type: 'dropped', path, message: `a ${type} document cannot be sent to messages` })
      return undefined
    }
  }
  const block: Json = { type: 'document', source: wire }
  const title = part.title ?? part.filename
  if (title !== undefined) block.title = title
  return spread(block, extras, 'source')
}

/** `pathOf` gives the part's IR path, asked only when a warning needs it. */
export function encodeToolUse(part: ir.ToolCallPart, pathOf: () => string, warnings: ir.Warning[]): Json {
  let input = argumentsObject(part)
  if (input === undefined) {
    input = {}
    warnings.push({
      type: 'changed',
      path: `${pathOf()}.arguments`,
      message: 'tool-call arguments are not a JSON object; sent {}',
    })
  }
  return spread({ type: 'tool_use', id: toMessagesToolId(part.id), name: part.name, input }, ownExtras(part))
}

export function encodeThinking(part: ir.ReasoningPart): Json {
  const extras = ownExtras(part)
  return spread({ type: 'thinking', thinking: part.text, signature: extras?.signature ?? '' }, extras)
}

export function encodeRedacted(part: ir.RedactedReasoningPart): Json {
  // Another provider's redacted block (Bedrock Converse's) rides in an envelope: it never reaches Anthropic as its own.
  const data = foreignRedacted(part.providerData, 'messages')
    ? (envelopeFor(part.providerData, 'messages', part.data) as string)
    : part.data
  return spread({ type: 'redacted_thinking', data }, ownExtras(part))
}
