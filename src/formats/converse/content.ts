/**
 * Converse content blocks ⇄ IR parts, shared by the request and response codecs. Media travel as bytes (base64 in
 * JSON) or an S3 location: an http(s) URL has no Converse form (the gateway's media fetcher inlines it first when
 * configured; otherwise the part is dropped with a warning). Tool-use ids follow `^[a-zA-Z0-9_-]+$` (as Anthropic's).
 */
import type * as ir from '../../ir/index.js'
import { isRecord } from '../../shared/is-record.js'
import { argumentsObject, toolCallFromObject } from '../../shared/tool-arguments.js'
import { toMessagesToolId } from '../../shared/tool-ids.js'
import {
  type ConverseBlock,
  type ConverseDocument,
  type ConverseImage,
  documentFormats,
  imageFormats,
  type Json,
  mediaTypeOf,
} from './schema.js'

type Warn = (path: string, message: string) => void

function s3Uri(url: string): string | undefined {
  return url.startsWith('s3://') ? url : undefined
}

/** An image part → `{image}`, or undefined (warned) when Converse cannot hold it. */
export function encodeImage(part: ir.ImagePart, path: string, warn: Warn): ConverseBlock | undefined {
  const source = part.source
  const format = imageFormats[(source.mediaType ?? '').toLowerCase()]
  if (source.type === 'base64' && format) return { image: { format, source: { bytes: source.data } } }
  if (source.type === 'url' && s3Uri(source.url)) {
    const guessed = format ?? imageFormats[`image/${source.url.split('.').pop()?.toLowerCase() ?? ''}`]
    if (guessed) return { image: { format: guessed, source: { s3Location: { uri: source.url } } } }
  }
  warn(
    path,
    source.type === 'base64'
      ? `converse has no image format for ${source.mediaType}`
      : `converse takes images as bytes or an s3:// location, not a ${source.type === 'url' ? 'URL' : source.type}`,
  )
  return undefined
}

/** Letters, digits, single spaces, hyphens, parentheses and square brackets: what Converse accepts as a name. */
function documentName(part: ir.DocumentPart, index: string): string {
  const raw = (part.title ?? part.filename ?? '').replace(/\.[A-Za-z0-9]+$/, '')
  const cleaned = raw
    .replace(/[^A-Za-z0-9\s\-()[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return cleaned === '' ? `document ${index}` : cleaned.slice(0, 200)
}

/** A document part → `{document}`, or undefined (warned). */
export function encodeDocument(part: ir.DocumentPart, path: string, warn: Warn): ConverseBlock | undefined {
  const source = part.source
  const name = documentName(part, path.replace(/\D+/g, '-').replace(/^-|-$/g, ''))
  if (source.type === 'text') return { document: { format: 'txt', name, source: { text: source.text } } }
  const format = documentFormats[(source.mediaType ?? '').toLowerCase()]
  if (source.type === 'base64' && format) return { document: { format, name, source: { bytes: source.data } } }
  if (source.type === 'url' && s3Uri(source.url) && format)
    return { document: { format, name, source: { s3Location: { uri: source.url } } } }
  warn(path, `converse cannot take this document (${source.type}${source.mediaType ? `, ${source.mediaType}` : ''})`)
  return undefined
}

/** An audio part → `{audio}` (bytes with a known container), or undefined (warned). */
export function encodeAudio(part: ir.AudioPart, path: string, warn: Warn): ConverseBlock | undefined {
  const source = part.source
  const subtype = (source.mediaType ?? '').toLowerCase().replace(/^audio\//, '')
  const format = subtype === 'mpeg' ? 'mp3' : subtype.replace(/^x-/, '')
  if (source.type === 'base64' && format !== '') return { audio: { format, source: { bytes: source.data } } }
  warn(path, 'converse takes audio as bytes only')
  return undefined
}

export function encodeToolUse(part: ir.ToolCallPart, path: string, warn: Warn): ConverseBlock {
  let input = argumentsObject(part)
  if (input === undefined) {
    warn(`${path}.arguments`, 'tool-call arguments are not a JSON object; sent as {}')
    input = {}
  }
  return { toolUse: { toolUseId: toMessagesToolId(part.id), name: part.name, input } }
}

/** An IR tool result → `{toolResult}`; its content is text, images and documents (a JSON text stays text). */
export function encodeToolResult(part: ir.ToolResultPart, path: string, warn: Warn): ConverseBlock {
  const content: Json[] = []
  part.content.forEach((item, i) => {
    const at = `${path}.content[${i}]`
    const block =
      item.type === 'text'
        ? { text: item.text }
        : item.type === 'image'
          ? encodeImage(item, at, warn)
          : encodeDocument(item, at, warn)
    if (block) content.push(block)
  })
  if (content.length === 0) content.push({ text: '' })
  const result: Json = { toolUseId: toMessagesToolId(part.toolCallId), content }
  if (part.isError) result.status = 'error'
  return { toolResult: result as unknown as ConverseBlock['toolResult'] }
}

/** A reasoning part → `{reasoningContent}` when it carries Converse's own signature, else undefined (warned). */
export function encodeReasoning(
  part: ir.ReasoningPart | ir.RedactedReasoningPart,
  path: string,
  warn: Warn,
): ConverseBlock | undefined {
  const own = part.providerData?.converse
  if (part.type === 'redacted-reasoning') {
    if (own?.redacted === true) return { reasoningContent: { redactedContent: part.data } }
    warn(path, 'redacted reasoning from another provider cannot be sent to converse')
    return undefined
  }
  const signature = own?.signature
  if (typeof signature === 'string' && signature !== '')
    return { reasoningContent: { reasoningText: { text: part.text, signature } } }
  warn(path, 'reasoning without a converse signature is not sent upstream')
  return undefined
}

// ——— decoding (wire → IR) ———

const bytesSource = (bytes: string, mediaType: string): ir.MediaSource => ({ type: 'base64', mediaType, data: bytes })

function decodeImage(image: ConverseImage): ir.ImagePart | undefined {
  const mediaType = mediaTypeOf(image.format, 'image')
  if (typeof image.source?.bytes === 'string')
    return { type: 'image', source: bytesSource(image.source.bytes, mediaType) }
  const uri = image.source?.s3Location?.uri
  if (typeof uri === 'string') return { type: 'image', source: { type: 'url', url: uri, mediaType } }
  return undefined
}

function decodeDocument(document: ConverseDocument): ir.DocumentPart | undefined {
  const mediaType = mediaTypeOf(document.format, 'document')
  const source = document.source
  const part = (media: ir.MediaSource): ir.DocumentPart => {
    const out: ir.DocumentPart = { type: 'document', source: media }
    if (typeof document.name === 'string') out.title = document.name
    return out
  }
  if (typeof source?.text === 'string') return part({ type: 'text', text: source.text, mediaType })
  if (typeof source?.bytes === 'string') return part(bytesSource(source.bytes, mediaType))
  if (typeof source?.s3Location?.uri === 'string') return part({ type: 'url', url: source.s3Location.uri, mediaType })
  return undefined
}

/** The members a content block may have that the IR holds. */
export type DecodedBlock = ir.Part | undefined

/** A content block → an IR part; undefined for a block the IR has no part for (the caller reports it). */
export function decodeBlock(block: ConverseBlock): DecodedBlock {
  if (typeof block.text === 'string') return { type: 'text', text: block.text }
  if (isRecord(block.image)) return decodeImage(block.image)
  if (isRecord(block.document)) return decodeDocument(block.document)
  if (isRecord(block.audio) && typeof block.audio.source?.bytes === 'string')
    return { type: 'audio', source: bytesSource(block.audio.source.bytes, `audio/${String(block.audio.format)}`) }
  if (isRecord(block.toolUse)) {
    const use = block.toolUse
    return toolCallFromObject(String(use.toolUseId ?? ''), String(use.name ?? ''), use.input)
  }
  if (isRecord(block.toolResult)) {
    const result = block.toolResult
    const content: ir.ToolResultContent[] = []
    for (const item of Array.isArray(result.content) ? result.content : []) {
      if (!isRecord(item)) continue
      if (typeof item.text === 'string') content.push({ type: 'text', text: item.text })
      else if (item.json !== undefined) content.push({ type: 'text', text: JSON.stringify(item.json) })
      else if (isRecord(item.image)) {
        const image = decodeImage(item.image as unknown as ConverseImage)
        if (image) content.push(image)
      } else if (isRecord(item.document)) {
        const document = decodeDocument(item.document as unknown as ConverseDocument)
        if (document) content.push(document)
      }
    }
    const part: ir.ToolResultPart = { type: 'tool-result', toolCallId: String(result.toolUseId ?? ''), content }
    if (result.status === 'error') part.isError = true
    return part
  }
  if (isRecord(block.reasoningContent)) {
    const reasoning = block.reasoningContent
    if (typeof reasoning.redactedContent === 'string')
      return {
        type: 'redacted-reasoning',
        data: reasoning.redactedContent,
        providerData: { converse: { redacted: true } },
      }
    const text = reasoning.reasoningText
    if (isRecord(text) && typeof text.text === 'string') {
      const part: ir.ReasoningPart = { type: 'reasoning', text: text.text }
      if (typeof text.signature === 'string') part.providerData = { converse: { signature: text.signature } }
      return part
    }
  }
  return undefined
}

/** The name of a block's one member (for warnings). */
export function memberOf(block: unknown): string {
  return isRecord(block) ? (Object.keys(block)[0] ?? 'block') : typeof block
}
