/** A parsed `data:` URL. Only base64 data URLs carry binary media; others are returned with `base64: false`. */
export interface DataUrl {
  mediaType: string
  data: string
  base64: boolean
}

/** Parses `data:<mime>[;params];base64,<data>`; undefined for anything that is not a data URL. */
export function parseDataUrl(url: string): DataUrl | undefined {
  if (!url.startsWith('data:')) return undefined
  const comma = url.indexOf(',')
  if (comma < 0) return undefined
  const meta = url.slice(5, comma)
  const params = meta.split(';')
  const base64 = params.includes('base64')
  const mediaType = params[0] || 'text/plain'
  return { mediaType: mediaType.toLowerCase(), data: url.slice(comma + 1), base64 }
}

/** Formats inline base64 bytes as a data URL. */
export function toDataUrl(mediaType: string, base64Data: string): string {
  return `data:${mediaType};base64,${base64Data}`
}
