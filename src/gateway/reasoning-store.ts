/**
 * Policy 3, gateway side: reasoning continuity for chat-completions clients that do not echo the reasoning carrier.
 *
 * The Vercel AI SDK (`openai.chat`), LangChain's ChatOpenAI and the OpenAI Agents SDK send an assistant turn back as
 * `{ role, content, tool_calls }` only: `reasoning_details` is gone, and with it the Anthropic thinking signature or
 * the Gemini thoughtSignature that the upstream requires on the next turn. Every client must echo the tool-call ids,
 * so the gateway keeps the carrier of each answer that called tools, keyed by caller and tool-call id, and puts it
 * back on an assistant turn that arrives without one. Bounded: at most `maxEntries` turns (least recently used
 * evicted) for at most `ttlMs`. Per caller: an entry is found only with the same client key (tool-call ids are random,
 * so this is a second wall, not the first). In memory, per process: several instances behind a load balancer without
 * affinity lose continuity for those clients, and the upstream then gets what it accepts (see the encoders).
 */
import { decodeReasoningCarrier, encodeReasoningCarrier } from '../formats/chat-completions/reasoning-carrier.js'
import type * as ir from '../ir/index.js'

export interface ReasoningStoreOptions {
  /** Assistant turns kept. @defaultValue 10000 */
  maxEntries?: number
  /** How long a turn is kept. @defaultValue 3600000 (1 hour) */
  ttlMs?: number
}

interface Entry {
  details: NonNullable<ReturnType<typeof encodeReasoningCarrier>['details']>
  expires: number
}

export interface ReasoningStore {
  /** Remembers the reasoning of an answer that called tools. */
  remember(scope: string, parts: readonly ir.AssistantPart[]): void
  /** Puts the reasoning back on assistant turns that came without it (in place). */
  restore(scope: string, messages: ir.Message[]): void
}

/** Whether a turn still carries anything of the carrier (then the client echoed it: nothing to restore). */
function carriesReasoning(parts: readonly ir.AssistantPart[]): boolean {
  return parts.some((part) => part.type === 'reasoning' || part.type === 'redacted-reasoning' || part.providerData)
}

export function createReasoningStore(options: ReasoningStoreOptions = {}): ReasoningStore {
  const maxEntries = options.maxEntries ?? 10_000
  const ttlMs = options.ttlMs ?? 3_600_000
  const entries = new Map<string, Entry>()
  const keyOf = (scope: string, id: string) => `${scope}\u0000${id}`

  return {
    remember(scope, parts) {
      const first = parts.find((part): part is ir.ToolCallPart => part.type === 'tool-call')
      if (!first) return
      const { details } = encodeReasoningCarrier(parts)
      if (!details) return
      const key = keyOf(scope, first.id)
      entries.delete(key)
      entries.set(key, { details, expires: Date.now() + ttlMs })
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string)
    },
    restore(scope, messages) {
      for (let i = 0; i < messages.length; i++) {
        const message = messages[i] as ir.Message
        if (message.role !== 'assistant' || carriesReasoning(message.content)) continue
        const first = message.content.find((part): part is ir.ToolCallPart => part.type === 'tool-call')
        if (!first) continue
        const key = keyOf(scope, first.id)
        const entry = entries.get(key)
        if (!entry) continue
        if (entry.expires < Date.now()) {
          entries.delete(key)
          continue
        }
        messages[i] = { ...message, content: decodeReasoningCarrier(message.content, entry.details, undefined).parts }
      }
    },
  }
}
