/**
 * Token-count estimate used when the model's upstream cannot count in the client's format: about four characters
 * per token over the system prompt, the messages (text, reasoning, tool calls and results) and the tool
 * declarations; each image, document or audio part counts a flat 258 tokens (Gemini's per-image figure).
 */
import type * as ir from '../ir/index.js'

const mediaTokens = 258

function partChars(part: ir.Part): { chars: number; media: number } {
  switch (part.type) {
    case 'text':
    case 'reasoning':
    case 'refusal':
      return { chars: part.text.length, media: 0 }
    case 'tool-call':
      return { chars: part.name.length + part.arguments.length, media: 0 }
    case 'tool-result': {
      let chars = 0
      let media = 0
      for (const inner of part.content) {
        const counted = partChars(inner)
        chars += counted.chars
        media += counted.media
      }
      return { chars, media }
    }
    case 'redacted-reasoning':
      return { chars: 0, media: 0 }
    default:
      return { chars: 0, media: 1 }
  }
}

/** Characters and media parts of a request's input. */
function inputSize(request: ir.Request): { chars: number; media: number } {
  let chars = 0
  let media = 0
  for (const message of request.messages) {
    for (const part of message.content) {
      const counted = partChars(part)
      chars += counted.chars
      media += counted.media
    }
  }
  for (const tool of request.tools ?? []) {
    chars += tool.name.length + (tool.description?.length ?? 0)
    if (tool.parameters) chars += JSON.stringify(tool.parameters).length
  }
  return { chars, media }
}

/** The estimated input tokens of a request (at least 1). */
export function estimateInputTokens(request: ir.Request): number {
  const { chars, media } = inputSize(request)
  return Math.max(1, Math.ceil(chars / 4) + media * mediaTokens)
}

/** Estimated tokens of a text (at least 1 for non-empty text). */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4)
}
