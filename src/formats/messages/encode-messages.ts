/**
 * IR messages → messages turns and the top-level `system`, shaped so the service accepts them
 * (wire-formats.md §5.2 #7, §5.4 #16): roles alternate (consecutive same-role turns are merged), tool results
 * open their user turn, no empty text block and no empty turn is sent, tool ids match `^[a-zA-Z0-9_-]+$`.
 */
import type * as ir from '../../ir/index.js'
import { toMessagesToolId } from '../../shared/tool-ids.js'
import {
  encodeDocument,
  encodeImage,
  encodeRedacted,
  encodeText,
  encodeThinking,
  encodeToolUse,
  type Json,
  ownExtras,
} from './blocks.js'

interface Turn {
  role: 'user' | 'assistant' | 'system'
  results: Json[]
  blocks: Json[]
  /** A system entry's per-turn `output_config`, written back on its turn. */
  outputConfig?: unknown
  /** How many IR messages were merged into this turn. */
  sources: number
  /** The source asked for array content (`providerData.messages.contentArray`). */
  array: boolean
}

export interface EncodedMessages {
  system: string | Json[] | undefined
  messages: Json[]
}

/** The IR path of part `j` of message `i`, built only when a warning needs it. */
const partPath = (i: number, j: number) => `messages[${i}].content[${j}]`

/** True for a block the encoder may write as a plain string. */
function isPlainText(block: Json): boolean {
  if (block.type !== 'text') return false
  for (const key in block) if (key !== 'type' && key !== 'text') return false
  return true
}

/** True when `text` is empty or only whitespace (what `text.trim() === ''` says, without copying the text). */
function isBlank(text: string): boolean {
  const first = text.charCodeAt(0)
  // A printable ASCII first character settles it at once; anything else asks trim().
  if (first > 32 && first < 127) return false
  return text.trim() === ''
}

function emptyText(path: string, warnings: ir.Warning[]): undefined {
  warnings.push({ type: 'dropped', path, message: 'messages does not accept empty text blocks' })
  return undefined
}

function userBlocks(message: ir.UserMessage, i: number, warnings: ir.Warning[]): Json[] {
  const blocks: Json[] = []
  const parts = message.content
  for (let j = 0; j < parts.length; j++) {
    const part = parts[j] as ir.UserMessage['content'][number]
    let block: Json | undefined
    if (part.type === 'text') block = isBlank(part.text) ? emptyText(partPath(i, j), warnings) : encodeText(part)
    else if (part.type === 'image') block = encodeImage(part, partPath(i, j), warnings)
    else if (part.type === 'document') block = encodeDocument(part, partPath(i, j), warnings)
    else warnings.push({ type: 'dropped', path: partPath(i, j), message: `messages has no ${part.type} input` })
    if (block) blocks.push(block)
  }
  return blocks
}

function resultBlock(part: ir.ToolResultPart, i: number, j: number, warnings: ir.Warning[]): Json {
  const extras = ownExtras(part)
  const block: Json = { type: 'tool_result', tool_use_id: toMessagesToolId(part.toolCallId) }
  const only = part.content.length === 1 ? part.content[0] : undefined
  if (only?.type === 'text' && !only.providerData?.messages && !extras?.contentArray) {
    if (only.text !== '') block.content = only.text
  } else {
    const content: Json[] = []
    part.content.forEach((inner, k) => {
      let encoded: Json | undefined
      if (inner.type === 'text')
        encoded = isBlank(inner.text) ? emptyText(`${partPath(i, j)}.content[${k}]`, warnings) : encodeText(inner)
      else if (inner.type === 'image') encoded = encodeImage(inner, `${partPath(i, j)}.content[${k}]`, warnings)
      else encoded = encodeDocument(inner, `${partPath(i, j)}.content[${k}]`, warnings)
      if (encoded) content.push(encoded)
    })
    if (content.length > 0 || extras?.contentArray) block.content = content
  }
  if (part.isError !== undefined) block.is_error = part.isError
  if (extras) for (const key in extras) if (key !== 'contentArray') block[key] = extras[key]
  return block
}

function assistantBlocks(message: ir.AssistantMessage, i: number, warnings: ir.Warning[]): Json[] {
  const blocks: Json[] = []
  const parts = message.content
  for (let j = 0; j < parts.length; j++) {
    const part = parts[j] as ir.AssistantPart
    switch (part.type) {
      case 'text':
        if (isBlank(part.text)) emptyText(partPath(i, j), warnings)
        else blocks.push(encodeText(part))
        break
      case 'tool-call':
        blocks.push(encodeToolUse(part, () => partPath(i, j), warnings))
        break
      case 'reasoning': {
        const signature = part.providerData?.messages?.signature
        if (typeof signature === 'string' && signature !== '') blocks.push(encodeThinking(part))
        else
          warnings.push({
            type: 'dropped',
            path: partPath(i, j),
            message: 'reasoning without a messages signature cannot be replayed',
          })
        break
      }
      case 'redacted-reasoning':
        blocks.push(encodeRedacted(part))
        break
      case 'refusal':
        if (part.text.trim() !== '') {
          blocks.push({ type: 'text', text: part.text })
          warnings.push({ type: 'changed', path: partPath(i, j), message: 'refusal sent as a text block' })
        }
        break
      default:
        warnings.push({
          type: 'dropped',
          path: partPath(i, j),
          message: `messages assistant turns cannot hold ${part.type} parts`,
        })
    }
  }
  return blocks
}

function systemBlocks(message: ir.SystemMessage, i: number, warnings: ir.Warning[]): Json[] {
  const blocks: Json[] = []
  message.content.forEach((part, j) => {
    if (isBlank(part.text)) emptyText(partPath(i, j), warnings)
    else blocks.push(encodeText(part))
  })
  return blocks
}

/** The turn's content: its tool results, then its blocks (a loop: `concat` is several times slower on short arrays). */
function turnContent(turn: Turn): Json[] {
  const { results, blocks } = turn
  if (results.length === 0) return blocks
  if (blocks.length === 0) return results
  const content = results.slice()
  for (const block of blocks) content.push(block)
  return content
}

function finish(turn: Turn): Json {
  const content = turnContent(turn)
  const only = content.length === 1 ? content[0] : undefined
  const out: Json =
    turn.sources === 1 && !turn.array && only && isPlainText(only)
      ? { role: turn.role, content: only.text }
      : { role: turn.role, content }
  if (turn.outputConfig !== undefined) out.output_config = turn.outputConfig
  return out
}

export function encodeMessages(messages: ir.Message[], warnings: ir.Warning[]): EncodedMessages {
  const turns: Turn[] = []
  const system: Json[] = []
  let systemArray = false
  let leading = true
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as ir.Message
    if (message.role !== 'tool' && message.name !== undefined) {
      warnings.push({ type: 'dropped', path: `messages[${i}].name`, message: 'messages has no message name' })
    }
    const data = message.providerData?.messages
    if (message.role === 'system' && data?.inPlace !== true) {
      if (!leading) {
        warnings.push({
          type: 'changed',
          path: `messages[${i}]`,
          message: 'mid-conversation system message hoisted into the top-level system',
        })
      }
      if (data?.contentArray || system.length > 0) systemArray = true
      for (const block of systemBlocks(message, i, warnings)) system.push(block)
      continue
    }
    leading = false
    let role: Turn['role'] = 'user'
    let results: Json[] = []
    let blocks: Json[]
    if (message.role === 'system') {
      role = 'system'
      blocks = systemBlocks(message, i, warnings)
    } else if (message.role === 'user') blocks = userBlocks(message, i, warnings)
    else if (message.role === 'assistant') {
      role = 'assistant'
      blocks = assistantBlocks(message, i, warnings)
    } else {
      results = message.content.map((part, j) => resultBlock(part, i, j, warnings))
      blocks = []
    }
    const outputConfig = role === 'system' ? data?.output_config : undefined
    if (results.length === 0 && blocks.length === 0 && outputConfig === undefined) {
      warnings.push({
        type: 'dropped',
        path: `messages[${i}]`,
        message: 'messages does not accept a turn with empty content',
      })
      continue
    }
    const previous = turns[turns.length - 1]
    if (previous && previous.role === role && role !== 'system') {
      for (const result of results) previous.results.push(result)
      for (const block of blocks) previous.blocks.push(block)
      previous.sources++
      continue
    }
    const turn: Turn = { role, results, blocks, sources: 1, array: data?.contentArray === true }
    if (outputConfig !== undefined) turn.outputConfig = outputConfig
    turns.push(turn)
  }
  repairTurns(turns, warnings)
  let wireSystem: string | Json[] | undefined
  const first = system[0]
  if (first !== undefined)
    wireSystem = system.length === 1 && !systemArray && isPlainText(first) ? (first.text as string) : system
  return { system: wireSystem, messages: turns.map(finish) }
}

function resultText(result: Json): string {
  const content = result.content
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return (content as Json[])
    .filter((b) => b.type === 'text')
    .map((b) => b.text as string)
    .join('\n')
}

/** True when `results` answer exactly the calls `ids`, one each, in the same order. */
function answersInOrder(results: Json[], ids: unknown[]): boolean {
  if (results.length !== ids.length) return false
  for (let k = 0; k < ids.length; k++) if ((results[k] as Json).tool_use_id !== ids[k]) return false
  return true
}

/**
 * The pairing rules the service enforces (wire-formats.md §2.3, §5.2 #7): the first turn is a user turn, every
 * tool_use is answered by a tool_result in the very next user turn, and every tool_result answers a tool_use of
 * the turn before. Histories from other formats can break them; each repair is a `changed` warning.
 */
function repairTurns(turns: Turn[], warnings: ir.Warning[]): void {
  const firstIndex = turns.findIndex((turn) => turn.role !== 'system')
  const first = turns[firstIndex]
  if (first?.role === 'assistant') {
    turns.splice(firstIndex, 0, {
      role: 'user',
      results: [],
      blocks: [{ type: 'text', text: '.' }],
      sources: 1,
      array: false,
    })
    warnings.push({
      type: 'changed',
      path: 'messages[0]',
      message: 'a placeholder user turn was added: messages must start with a user turn',
    })
  }
  let previous: Turn | undefined
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i] as Turn
    if (turn.role === 'system') continue
    const callIds: unknown[] = []
    if (previous?.role === 'assistant') for (const b of previous.blocks) if (b.type === 'tool_use') callIds.push(b.id)
    if (turn.role === 'user' && answersInOrder(turn.results, callIds)) {
      // The usual case: every call answered, in order, and nothing else; no repair.
      if (turn.results.length > 0) turn.sources = 2
    } else if (turn.role === 'user') {
      const calls = new Set<unknown>(callIds)
      const kept: Json[] = []
      const orphans: Json[] = []
      for (const result of turn.results) (calls.has(result.tool_use_id) ? kept : orphans).push(result)
      for (const orphan of orphans) {
        warnings.push({
          type: 'changed',
          path: 'messages',
          message: `tool result ${String(orphan.tool_use_id)} answers no tool call; sent as text`,
        })
        const text = resultText(orphan)
        turn.blocks.unshift({ type: 'text', text: `Tool result (${String(orphan.tool_use_id)}): ${text || '(empty)'}` })
      }
      turn.results = kept
      const answered = new Set(kept.map((r) => r.tool_use_id))
      for (const id of calls) {
        if (answered.has(id)) continue
        turn.results.push({ type: 'tool_result', tool_use_id: id, content: 'No result was provided.', is_error: true })
        warnings.push({
          type: 'changed',
          path: 'messages',
          message: `tool call ${String(id)} had no result; an error result was added`,
        })
      }
      if (turn.results.length > 0 || orphans.length > 0) turn.sources = 2
    } else if (callIds.length > 0) {
      // Two assistant turns in a row cannot happen (they are merged); an assistant turn after a tool-use turn
      // only follows a system message kept in place. Answer the calls in a user turn before it.
      const results = [...new Set<unknown>(callIds)].map((id) => ({
        type: 'tool_result',
        tool_use_id: id,
        content: 'No result was provided.',
        is_error: true,
      }))
      turns.splice(i, 0, { role: 'user', results, blocks: [], sources: 2, array: true })
      warnings.push({
        type: 'changed',
        path: 'messages',
        message: 'tool calls had no results; error results were added',
      })
      i++
    }
    previous = turn.role === 'assistant' || turn.role === 'user' ? (turns[i] as Turn) : previous
  }
}

/** Policy 3: an assistant tool-use turn that does not open with its own (signed or redacted) thinking block. */
export function hasUnsignedToolTurn(messages: Json[]): boolean {
  for (const message of messages) {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) continue
    const blocks = message.content as Json[]
    if (!blocks.some((b) => b.type === 'tool_use')) continue
    const type = blocks[0]?.type
    if (type !== 'thinking' && type !== 'redacted_thinking') return true
  }
  return false
}
