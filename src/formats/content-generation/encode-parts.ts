/** IR content parts → content-generation `Part`s. @see wire-formats.md §3.3, §5.3 items 9–10, §5.4 */
import type * as ir from '../../ir/index.js'
import { parseDataUrl } from '../../shared/data-url.js'
import { argumentsObject } from '../../shared/tool-arguments.js'

const F = 'content-generation'
type Wire = Record<string, unknown>
type Warnings = ir.Warning[]

/** What the encoder knows about each tool call of the conversation (to name and id the responses). */
export interface CallInfo {
  name: string
  wireId?: string
}

/**
 * The tool calls of a conversation by id (a later call with the same id wins), indexed on first use: a tool result
 * asks only when it has no tool name, or has no wire id of its own while some call has one (Gemini → Gemini).
 */
export class CallIndex {
  readonly #messages: readonly ir.Message[]
  #byId: Map<string, CallInfo> | undefined
  #wireIds: boolean | undefined

  constructor(messages: readonly ir.Message[]) {
    this.#messages = messages
  }

  get(id: string): CallInfo | undefined {
    if (!this.#byId) {
      const byId = new Map<string, CallInfo>()
      for (const message of this.#messages) {
        if (message.role !== 'assistant') continue
        for (const part of message.content) {
          if (part.type !== 'tool-call') continue
          const wireId = own(part)?.id
          byId.set(part.id, typeof wireId === 'string' ? { name: part.name, wireId } : { name: part.name })
        }
      }
      this.#byId = byId
    }
    return this.#byId.get(id)
  }

  /** True when some call carries a Gemini wire id (`providerData['content-generation'].id`). */
  hasWireIds(): boolean {
    if (this.#wireIds === undefined) {
      this.#wireIds = false
      search: for (const message of this.#messages) {
        if (message.role !== 'assistant') continue
        for (const part of message.content)
          if (part.type === 'tool-call' && typeof own(part)?.id === 'string') {
            this.#wireIds = true
            break search
          }
      }
    }
    return this.#wireIds
  }
}

export function own(part: { providerData?: ir.ProviderData }): Record<string, unknown> | undefined {
  return part.providerData?.[F]
}

function signed(wire: Wire, part: { providerData?: ir.ProviderData }): Wire {
  const signature = own(part)?.thoughtSignature
  if (typeof signature === 'string') wire.thoughtSignature = signature
  return wire
}

/** A media source as `inlineData` / `fileData`; undefined for text sources (the caller turns them into text). */
export function encodeMedia(source: ir.MediaSource, fallbackMime: string, path: string, warnings: Warnings): Wire {
  switch (source.type) {
    case 'base64':
      return { inlineData: { mimeType: source.mediaType, data: source.data } }
    case 'file':
      return {
        fileData: source.mediaType
          ? { mimeType: source.mediaType, fileUri: source.fileId }
          : { fileUri: source.fileId },
      }
    case 'text':
      warnings.push({ type: 'changed', path, message: 'A text document became a text part' })
      return { text: source.text }
    case 'url': {
      const data = parseDataUrl(source.url)
      if (data?.base64) return { inlineData: { mimeType: data.mediaType, data: data.data } }
      warnings.push({
        type: 'changed',
        path,
        message: 'A URL was sent as fileData.fileUri; Gemini generally needs inline bytes (the gateway inlines URLs)',
      })
      return { fileData: { mimeType: source.mediaType ?? fallbackMime, fileUri: source.url } }
    }
  }
}

const fallbackMime = { image: 'image/jpeg', audio: 'audio/wav', document: 'application/pdf' } as const

/** The IR path of part `pi` of message `mi`, built only when a warning needs it. */
const partPath = (mi: number, pi: number) => `messages[${mi}].content[${pi}]`

/**
 * A tool call's `{ functionCall }` (unsigned). `functionCall.id` is written only when the call came from Gemini with an
 * id (own provider data): generated and foreign ids mean nothing to a Gemini client. `path` is called only for a warning.
 */
export function functionCallPart(part: ir.ToolCallPart, path: () => string, warnings: Warnings): Wire {
  let args = argumentsObject(part)
  if (!args) {
    warnings.push({
      type: 'changed',
      path: `${path()}.arguments`,
      message: 'Arguments are not a JSON object; sent as {}',
    })
    args = {}
  }
  const call: Wire = { name: part.name, args }
  const id = own(part)?.id
  if (typeof id === 'string') call.id = id
  return { functionCall: call }
}

function resultResponse(part: ir.ToolResultPart): Record<string, unknown> {
  const data = own(part)
  if (data && typeof data.response === 'object' && data.response !== null)
    return data.response as Record<string, unknown>
  const only = part.content.length === 1 ? part.content[0] : undefined
  const text =
    only?.type === 'text'
      ? only.text
      : part.content
          .filter((p): p is ir.TextPart => p.type === 'text')
          .map((p) => p.text)
          .join('\n')
  if (part.isError) return { error: text }
  // JSON object text (a `{`, perhaps after whitespace); the first character usually settles it without trimStart's copy.
  if (text.charCodeAt(0) === 123 || text.trimStart().startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(text)
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        return parsed as Record<string, unknown>
    } catch {
      // not JSON: wrapped below
    }
  }
  return { output: text }
}

function encodeToolResult(part: ir.ToolResultPart, calls: CallIndex, mi: number, pi: number, warnings: Warnings): Wire {
  const data = own(part)
  const ownId = typeof data?.id === 'string' ? data.id : undefined
  const call =
    part.toolName === undefined || (ownId === undefined && calls.hasWireIds()) ? calls.get(part.toolCallId) : undefined
  let name = part.toolName ?? call?.name
  if (name === undefined) {
    name = part.toolCallId
    warnings.push({
      type: 'changed',
      path: partPath(mi, pi),
      message: 'Tool name not found in the conversation; the call id stands in',
    })
  }
  const response: Wire = { name, response: resultResponse(part) }
  const id = ownId ?? call?.wireId
  if (id !== undefined) response.id = id
  const media: Wire[] = []
  const content = part.content
  for (let i = 0; i < content.length; i++) {
    const inner = content[i] as ir.ToolResultContent
    if (inner.type === 'text') continue
    const path = partPath(mi, pi)
    const encoded = encodeMedia(inner.source, fallbackMime[inner.type], `${path}.content[${i}]`, warnings)
    if ('text' in encoded)
      warnings.push({
        type: 'dropped',
        path: `${path}.content[${i}]`,
        message: 'Text document dropped from a tool result',
      })
    else media.push(encoded)
  }
  if (media.length > 0) response.parts = media
  if (data?.willContinue !== undefined) response.willContinue = data.willContinue
  if (data?.scheduling !== undefined) response.scheduling = data.scheduling
  return signed({ functionResponse: response }, part)
}

/** One IR part → zero or one wire part. */
export function encodePart(
  part: ir.Part,
  calls: CallIndex,
  mi: number,
  pi: number,
  warnings: Warnings,
): Wire | undefined {
  switch (part.type) {
    case 'text':
      return signed({ text: part.text }, part)
    case 'tool-call':
      return signed(
        functionCallPart(part, () => partPath(mi, pi), warnings),
        part,
      )
    case 'tool-result':
      return encodeToolResult(part, calls, mi, pi, warnings)
  }
  const path = partPath(mi, pi)
  switch (part.type) {
    case 'reasoning': {
      const signature = own(part)?.thoughtSignature
      if (typeof signature === 'string') return { text: part.text, thought: true, thoughtSignature: signature }
      warnings.push({
        type: 'dropped',
        path,
        message: 'Reasoning without a Gemini thoughtSignature cannot be replayed',
      })
      return undefined
    }
    case 'redacted-reasoning':
      warnings.push({ type: 'dropped', path, message: 'Redacted reasoning has no content-generation equivalent' })
      return undefined
    case 'refusal':
      warnings.push({ type: 'changed', path, message: 'A refusal became text' })
      return { text: part.text }
    case 'image':
      if (part.detail !== undefined)
        warnings.push({ type: 'dropped', path: `${path}.detail`, message: 'content-generation has no image detail' })
      return signed(encodeMedia(part.source, fallbackMime.image, path, warnings), part)
    case 'audio':
      return signed(encodeMedia(part.source, fallbackMime.audio, path, warnings), part)
    case 'document':
      for (const key of ['filename', 'title'] as const)
        if (part[key] !== undefined)
          warnings.push({
            type: 'dropped',
            path: `${path}.${key}`,
            message: `content-generation has no document ${key}`,
          })
      return signed(encodeMedia(part.source, fallbackMime.document, path, warnings), part)
  }
}
