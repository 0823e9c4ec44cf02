/** Responses content parts ⇄ IR parts (messages' `input_*` parts and tool outputs). @see responses-api.md §3.2 */
import { invalidRequest } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import { parseDataUrl, toDataUrl } from '../../shared/data-url.js'
import { isRecord } from '../../shared/is-record.js'

const FORMAT = 'responses'
export type Wire = Record<string, unknown>

/**
 * `value` when it is a string, else an `invalid-request` naming `path + suffix` (the path is joined only then: decoders
 * call this for every field of every item).
 */
export function str(value: unknown, path: string, suffix = ''): string {
  if (typeof value !== 'string') {
    invalidRequest(
      path + suffix,
      value === undefined ? 'required field is missing (expected string)' : 'expected string',
      FORMAT,
    )
  }
  return value
}

export function optStr(value: unknown, path: string, suffix = ''): string | undefined {
  return value === undefined || value === null ? undefined : str(value, path, suffix)
}

function imageSource(url: string): ir.MediaSource {
  const data = parseDataUrl(url)
  return data?.base64 ? { type: 'base64', mediaType: data.mediaType, data: data.data } : { type: 'url', url }
}

/** One `input_text` / `input_image` / `input_file` part (`output_text` too: assistant text sent as input). */
export function decodeInputPart(
  part: unknown,
  path: string,
  warnings: ir.Warning[],
): ir.TextPart | ir.ImagePart | ir.DocumentPart | undefined {
  if (!isRecord(part)) return invalidRequest(path, 'expected object', FORMAT)
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return { type: 'text', text: str(part.text, path, '.text') }
    case 'input_image': {
      const url = optStr(part.image_url, path, '.image_url')
      const fileId = optStr(part.file_id, path, '.file_id')
      if (url === undefined && fileId === undefined)
        invalidRequest(path, 'input_image needs image_url or file_id', FORMAT)
      const image: ir.ImagePart = {
        type: 'image',
        source: url !== undefined ? imageSource(url) : { type: 'file', fileId: fileId as string },
      }
      const detail = part.detail
      if (detail === 'low' || detail === 'high' || detail === 'auto') image.detail = detail
      else if (detail === 'original') {
        image.detail = 'high'
        warnings.push({ type: 'changed', path: `${path}.detail`, message: 'detail "original" sent as "high"' })
      } else if (detail !== undefined && detail !== null)
        invalidRequest(`${path}.detail`, 'expected "low", "high", "auto" or "original"', FORMAT)
      image.providerData = { [FORMAT]: detail === undefined ? {} : { detail } }
      return image
    }
    case 'input_file': {
      const fileData = optStr(part.file_data, path, '.file_data')
      const fileId = optStr(part.file_id, path, '.file_id')
      const fileUrl = optStr(part.file_url, path, '.file_url')
      let source: ir.MediaSource
      if (fileData !== undefined) {
        const data = parseDataUrl(fileData)
        source = data?.base64
          ? { type: 'base64', mediaType: data.mediaType, data: data.data }
          : { type: 'base64', mediaType: 'application/pdf', data: fileData }
      } else if (fileId !== undefined) source = { type: 'file', fileId }
      else if (fileUrl !== undefined) source = { type: 'url', url: fileUrl }
      else return invalidRequest(path, 'input_file needs file_data, file_id or file_url', FORMAT)
      const document: ir.DocumentPart = { type: 'document', source }
      const filename = optStr(part.filename, path, '.filename')
      if (filename !== undefined) document.filename = filename
      document.providerData = {
        [FORMAT]: fileData !== undefined && !fileData.startsWith('data:') ? { rawFileData: true } : {},
      }
      return document
    }
    case 'input_audio':
      warnings.push({ type: 'dropped', path, message: 'input_audio is not a Responses message part' })
      return undefined
    default:
      return invalidRequest(`${path}.type`, `unknown content part type ${JSON.stringify(part.type)}`, FORMAT)
  }
}

/** IR part → `input_*` part; undefined (with a warning) when Responses cannot hold it. */
export function encodeInputPart(part: ir.Part, path: string, warnings: ir.Warning[]): Wire | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text }
    case 'image': {
      const { source } = part
      const own = part.providerData?.[FORMAT]
      let out: Wire
      if (source.type === 'url') out = { type: 'input_image', image_url: source.url }
      else if (source.type === 'base64')
        out = { type: 'input_image', image_url: toDataUrl(source.mediaType, source.data) }
      else if (source.type === 'file') out = { type: 'input_image', file_id: source.fileId }
      else {
        warnings.push({ type: 'dropped', path, message: 'an image given as text cannot be sent' })
        return undefined
      }
      // Our own decoded part says whether `detail` was there; for other sources it is required by one SDK type.
      const detail = own ? own.detail : (part.detail ?? 'auto')
      if (detail !== undefined) out.detail = detail
      return out
    }
    case 'document': {
      const { source } = part
      let out: Wire
      if (source.type === 'text') return { type: 'input_text', text: source.text }
      if (source.type === 'base64') {
        const raw = part.providerData?.[FORMAT]?.rawFileData === true
        out = { type: 'input_file', file_data: raw ? source.data : toDataUrl(source.mediaType, source.data) }
      } else if (source.type === 'file') out = { type: 'input_file', file_id: source.fileId }
      else out = { type: 'input_file', file_url: source.url }
      if (part.filename !== undefined) out.filename = part.filename
      else if (source.type === 'base64' && !part.providerData?.[FORMAT]) {
        out.filename = source.mediaType === 'application/pdf' ? 'document.pdf' : 'file'
      }
      return out
    }
    default:
      warnings.push({ type: 'dropped', path, message: `${part.type} parts cannot be sent as Responses input` })
      return undefined
  }
}
