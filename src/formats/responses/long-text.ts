/**
 * Very long texts in the Responses done events. Four events repeat a text item's whole text (`output_text.done`,
 * `content_part.done`, `output_item.done`, and the terminal event's `output`); made as whole JSON strings, a 150 MB
 * answer cost about twelve copies of itself in the gateway. A text of {@link LONG_TEXT} characters or more is instead
 * put into those events as a marker, and each frame that holds a marker is written in pieces: the JSON around it, then
 * the text's escaped chunks — the same chunk strings in every frame, escaped once (a chunk that needs no escape is its
 * own escaped form) — so the text is held once, as the deltas that brought it.
 */
import type * as ir from '../../ir/index.js'
import type { SseFrame } from '../../stream/contract.js'
import { jsonFrame, piecesFrame } from '../../stream/sse-encode.js'

type Wire = Record<string, unknown>

/** Characters from which a text item's done events are written in pieces. */
export const LONG_TEXT = 1 << 20

interface LongText {
  /** The deltas as received (kept only when the whole text is wanted back: `materialize`). */
  chunks: string[] | undefined
  /** The deltas as JSON string content (without quotes), made at the first frame that needs them. */
  escaped: string[] | undefined
}

/** A chunk as JSON string content: itself when nothing in it needs escaping (every escape lengthens it). */
function escapeChunk(chunk: string): string {
  const json = JSON.stringify(chunk)
  return json.length === chunk.length + 2 ? chunk : json.slice(1, -1)
}

export class LongTexts {
  private readonly texts: LongText[] = []
  /** A marker prefix of this stream: an upstream's text cannot forge it. */
  private readonly prefix = `@@il-text:${Math.random().toString(36).slice(2)}${Date.now().toString(36)}:`

  /** `keepChunks`: the whole texts are wanted back at the end (`materialize`). */
  constructor(private readonly keepChunks: boolean) {}

  /** Sets a closing text item's text: its deltas joined, or for a long text the marker that stands for them. */
  close(part: ir.TextPart | ir.RefusalPart, chunks: string[], length: number): void {
    if (part.type === 'refusal' || length < LONG_TEXT) {
      part.text = chunks.length === 1 ? (chunks[0] as string) : chunks.join('')
      return
    }
    // A citation's default end is the end of the text, which the marker does not have.
    if (part.citations)
      part.citations = part.citations.map((citation) =>
        citation.endIndex === undefined ? { ...citation, endIndex: length } : citation,
      )
    this.texts.push({ chunks, escaped: undefined })
    part.text = `${this.prefix}${this.texts.length - 1}@@`
  }

  /** The frame of an event's JSON `data`: in pieces when it holds a marker, else one string. */
  frame(type: string, data: string): SseFrame {
    if (this.texts.length === 0) return jsonFrame(type, data)
    const open = `"${this.prefix}`
    let at = data.indexOf(open)
    if (at < 0) return jsonFrame(type, data)
    const pieces: string[] = []
    let from = 0
    while (at >= 0) {
      const close = data.indexOf('@@"', at + open.length)
      const text = this.texts[Number(data.slice(at + open.length, close))]
      if (close < 0 || !text) break
      pieces.push(data.slice(from, at + 1))
      const escaped = this.escapedOf(text)
      for (let i = 0; i < escaped.length; i++) pieces.push(escaped[i] as string)
      from = close + 2
      at = data.indexOf(open, from)
    }
    pieces.push(data.slice(from))
    return piecesFrame(type, pieces)
  }

  /** `response` with each marker in its message items replaced by the text (for a reader of the object). */
  materialize(response: Wire): Wire {
    if (this.texts.length === 0 || !Array.isArray(response.output)) return response
    const output = (response.output as Wire[]).map((item) => {
      if (item.type !== 'message' || !Array.isArray(item.content)) return item
      return { ...item, content: (item.content as Wire[]).map((part) => this.materializePart(part)) }
    })
    return { ...response, output }
  }

  private materializePart(part: Wire): Wire {
    const text = part.text
    if (typeof text !== 'string' || !text.startsWith(this.prefix)) return part
    const long = this.texts[Number(text.slice(this.prefix.length, -2))]
    if (!long?.chunks) return part
    // Concatenated, not joined: V8 keeps the result as a rope over the chunks until someone reads its characters, so
    // a store that only weighs it (the memory store refuses a response past its bound) costs no copy of the text.
    let whole = ''
    for (const chunk of long.chunks) whole += chunk
    return { ...part, text: whole }
  }

  private escapedOf(text: LongText): string[] {
    if (!text.escaped) {
      const chunks = text.chunks ?? []
      text.escaped = chunks.map(escapeChunk)
      // Held once: without a reader of the whole text, the escaped chunks are the only copy.
      if (!this.keepChunks) text.chunks = undefined
    }
    return text.escaped
  }
}
