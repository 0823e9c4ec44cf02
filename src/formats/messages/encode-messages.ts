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
  /** How many IR messages were merged into this turn. */
  sources: number
  /** The source asked for array content (`providerData.messages.contentArray`). */
  array: boolean
}

export interface EncodedMessages {
  system: string | Json[] | undefined
  messages: Json[]
}

/** True for a block the encoder may write as a plain string. */
function isPlainText(block: Json): boolean {
  if (block.type !== 'text') return false
  for (const key in block) if (key !== 'type' && key !== 'text') return false
  return true
}

function textBlock(part: ir.TextPart, path: string, warnings: ir.Warning[]): Json | undefined {
  if (part.text.trim() === '') {
    warnings.push({ type: 'dropped', path, message: 'messages does not accept empty text blocks' })
    return undefined
  }
  return encodeText(part)
}

function userBlocks(message: ir.UserMessage, path: string, warnings: ir.Warning[]): Json[] {
  const blocks: Json[] = []
  message.content.forEach((part, j) => {
    const at = `${path}.content[${j}]`
    let block: Json | undefined
    if (part.type === 'text') block = textBlock(part, at, warnings)
    else if (part.type === 'image') block = encodeImage(part, at, warnings)
    else if (part.type === 'document') block = encodeDocument(part, at, warnings)
    else warnings.push({ type: 'dropped', path: at, message: `messages has no ${part.type} input` })
    if (block) blocks.push(block)
  })
  return blocks
}

function resultBlock(part: ir.ToolResultPart, path: string, warnings: ir.Warning[]): Json {
  const extras = ownExtras(part)
  const block: Json = { type: 'tool_result', tool_use_id: toMessagesToolId(part.toolCallId) }
  const content: Json[] = []
  const only = part.content.length === 1 ? part.content[0] : undefined
  if (only?.type === 'text' && !only.providerData?.messages && !extras?.contentArray) {
    if (only.text !== '') block.content = only.text
  } else {
    part.content.forEach((inner, k) => {
      const at = `${path}.content[${k}]`
      let encoded: Json | undefined
      if (inner.type === 'text') encoded = textBlock(inner, at, warnings)
      else if (inner.type === 'image') encoded = encodeImage(inner, at, warnings)
      else encoded = encodeDocument(inner, at, warnings)
      if (encoded) content.push(encoded)
    })
    if (content.length > 0 || extras?.contentArray) block.content = content
  }
  if (part.isError !== undefined) block.is_error = part.isError
  if (extras) for (const key in extras) if (key !== 'contentArray') block[key] = extras[key]
  return block
}

function assistantBlocks(message: ir.AssistantMessage, path: string, warnings: ir.Warning[]): Json[] {
  const blocks: Json[] = []
  message.content.forEach((part, j) => {
    const at = `${path}.content[${j}]`
    switch (part.type) {
      case 'text': {
        const block = textBlock(part, at, warnings)
        if (block) blocks.push(block)
        break
      }
      case 'tool-call':
        blocks.push(encodeToolUse(part, at, warnings))
        break
      case 'reasoning': {
        const signature = part.providerData?.messages?.signature
        if (typeof signature === 'string' && signature !== '') blocks.push(encodeThinking(part))
        else
          warnings.push({
            type: 'dropped',
            path: at,
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
          warnings.push({ type: 'changed', path: at, message: 'refusal sent as a text block' })
        }
        break
      default:
        warnings.push({ type: 'dropped', path: at, message: `messages assistant turns cannot hold ${part.type} parts` })
    }
  })
  return blocks
}

function systemBlocks(message: ir.SystemMessage, path: string, warnings: ir.Warning[]): Json[] {
  const blocks: Json[] = []
  message.content.forEach((part, j) => {
    const block = textBlock(part, `${path}.content[${j}]`, warnings)
    if (block) blocks.push(block)
  })
  return blocks
}

function finish(turn: Turn): Json {
  const content = turn.results.length > 0 ? turn.results.concat(turn.blocks) : turn.blocks
  const only = content.length === 1 ? content[0] : undefined
  if (turn.sources === 1 && !turn.array && only && isPlainText(only)) return { role: turn.role, content: only.text }
  return { role: turn.role, content }
}

export function encodeMessages(messages: ir.Message[], warnings: ir.Warning[]): EncodedMessages {
  const turns: Turn[] = []
  const system: Json[] = []
  let systemArray = false
  let leading = true
  messages.forEach((message, i) => {
    const path = `messages[${i}]`
    if (message.role !== 'tool' && message.name !== undefined) {
      warnings.push({ type: 'dropped', path: `${path}.name`, message: 'messages has no message name' })
    }
    const data = message.providerData?.messages
    if (message.role === 'system' && data?.inPlace !== true) {
      if (!leading) {
        warnings.push({
          type: 'changed',
          path,
          message: 'mid-conversation system message hoisted into the top-level system',
        })
      }
      if (data?.contentArray || system.length > 0) systemArray = true
      system.push(...systemBlocks(message, path, warnings))
      return
    }
    leading = false
    let role: Turn['role'] = 'user'
    let results: Json[] = []
    let blocks: Json[]
    if (message.role === 'system') {
      role = 'system'
      blocks = systemBlocks(message, path, warnings)
    } else if (message.role === 'user') blocks = userBlocks(message, path, warnings)
    else if (message.role === 'assistant') {
      role = 'assistant'
      blocks = assistantBlocks(message, path, warnings)
    } else {
      results = message.content.map((part, j) => resultBlock(part, `${path}.content[${j}]`, warnings))
      blocks = []
    }
    if (results.length === 0 && blocks.length === 0) {
      warnings.push({ type: 'dropped', path, message: 'messages does not accept a turn with empty content' })
      return
    }
    const previous = turns[turns.length - 1]
    if (previous && previous.role === role && role !== 'system') {
      previous.results.push(...results)
      previous.blocks.push(...blocks)
      previous.sources++
      return
    }
    turns.push({ role, results, blocks, sources: 1, array: data?.contentArray === true })
  })
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
    const calls = new Set<unknown>()
    if (previous?.role === 'assistant') for (const b of previous.blocks) if (b.type === 'tool_use') calls.add(b.id)
    if (turn.role === 'user') {
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
    } else if (calls.size > 0) {
      // Two assistant turns in a row cannot happen (they are merged); an assistant turn after a tool-use turn
      // only follows a system message kept in place. Answer the calls in a user turn before it.
      const results = [...calls].map((id) => ({
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
