/**
 * Policy 1's exception for a messages passthrough (issue 21 §4): a conversation that went through another provider
 * (Claude Code with `opus` routed to Gemini and `sonnet` to Anthropic) holds what the gateway gave that client for the
 * other provider's turns — a `thinking` block signed with an envelope (`il1.…`, of another provider's signature or of
 * nothing) and `redacted_thinking` blocks whose `data` is an envelope. Anthropic rejects both (*Invalid signature in
 * thinking block*), so the body is cleaned as the translated path would encode it:
 * - an envelope that wraps a messages signature is unwrapped (the block is Anthropic's own);
 * - any other enveloped block, and a thinking block with no signature, is dropped (`dropped` warning);
 * - with thinking on, a tool-use turn left without its own signed thinking block makes the request go with thinking
 *   disabled (a `changed` warning, policy 3), and a `clear_thinking` context edit, which needs thinking on, is
 *   dropped with it.
 * Only called when the body's text holds the envelope marker, so other passthroughs keep their cost.
 */
import { isRecord } from '../../shared/is-record.js'
import { walkOwnReasoning } from '../../shared/own-reasoning.js'
import { isEnvelope, unwrapEnvelope } from '../../shared/reasoning-envelope.js'
import type { Converted } from '../format.js'
import { hasUnsignedToolTurn } from './encode-messages.js'

type Json = Record<string, unknown>

const message = 'reasoning from another provider (or unsigned) cannot be sent to messages'

/** A block as Anthropic may receive it: itself, its own signature unwrapped, or undefined (dropped). */
function ownBlock(block: unknown): unknown {
  if (!isRecord(block)) return block
  if (block.type === 'thinking') {
    if (!isEnvelope(block.signature)) return typeof block.signature === 'string' && block.signature ? block : undefined
    const own = unwrapEnvelope(block.signature)?.providerData.messages?.signature
    return typeof own === 'string' && own !== '' ? { ...block, signature: own } : undefined
  }
  if (block.type === 'redacted_thinking' && isEnvelope(block.data)) return undefined
  return block
}

/** The body with only Anthropic's own reasoning, or undefined when nothing had to change. */
export function ownReasoningOnly(body: unknown): Converted<unknown> | undefined {
  const walked = walkOwnReasoning(body, {
    list: 'messages',
    parts: 'content',
    role: 'assistant',
    part: ownBlock,
    message,
  })
  if (!walked) return undefined
  const { value: out, warnings } = walked
  const thinking = isRecord(out.thinking) ? out.thinking.type : undefined
  if ((thinking === 'enabled' || thinking === 'adaptive') && hasUnsignedToolTurn(out.messages as Json[])) {
    out.thinking = { type: 'disabled' }
    warnings.push({
      type: 'changed',
      path: 'thinking',
      message: 'thinking disabled: an assistant tool-use turn has no signed thinking block from messages',
    })
    const management = isRecord(out.context_management) ? out.context_management : undefined
    if (Array.isArray(management?.edits)) {
      const edits = management.edits.filter(
        (edit) => !isRecord(edit) || !String(edit.type).startsWith('clear_thinking'),
      )
      if (edits.length < management.edits.length) {
        if (edits.length > 0) out.context_management = { ...management, edits }
        else delete out.context_management
        warnings.push({
          type: 'dropped',
          path: 'context_management.edits',
          message: 'clear_thinking edits need thinking on',
        })
      }
    }
  }
  return { value: out, warnings }
}
