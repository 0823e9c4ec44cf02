/**
 * Policy 3, gateway side: reasoning continuity for chat-completions clients that do not echo the reasoning carrier.
 *
 * The Vercel AI SDK (`openai.chat`), LangChain's ChatOpenAI and the OpenAI Agents SDK send an assistant turn back as
 * `{ role, content, tool_calls }` only: `reasoning_details` is gone, and with it the Anthropic thinking signature or
 * the Gemini thoughtSignature that the upstream requires on the next turn. Every client must echo the tool-call ids,
 * so the gateway keeps the carrier of each answer that called tools, keyed by caller and tool-call id, and puts it
 * back on an assistant turn that arrives without one. Bounded: at most `maxEntries` turns (least recently used
 * evicted) for at most `ttlMs`. Per caller: an entry is found only with the same client key (tool-call ids are random,
 * so this is a second wall, not the first). In memory, per process — unless `shared` entries are given (a table, a
 * key-value store): then several instances behind a load balancer without affinity keep continuity too. Without them
 * those clients lose it, and the upstream then gets what it accepts (see the encoders).
 */
import { decodeReasoningCarrier, encodeReasoningCarrier } from '../formats/chat-completions/reasoning-carrier.js'
import type * as ir from '../ir/index.js'

/** What is kept of one assistant turn: plain JSON (the reasoning carrier's details), safe to store anywhere. */
export type ReasoningDetails = NonNullable<ReturnType<typeof encodeReasoningCarrier>['details']>

/**
 * Entries kept outside the process, shared by several gateway instances: by scope (the caller) and the turn's first
 * tool-call id. Their lifetime (expiry, clean-up) is the implementation's business. A `put` of a JSON answer completes
 * before the answer is sent; a streamed answer's is started when the stream ends.
 */
export interface SharedReasoningEntries {
  get(scope: string, id: string): ReasoningDetails | undefined | Promise<ReasoningDetails | undefined>
  put(scope: string, id: string, details: ReasoningDetails): void | Promise<void>
}

export interface ReasoningStoreOptions {
  /** Assistant turns kept (in memory). @defaultValue 10000 */
  maxEntries?: number
  /** How long a turn is kept (in memory). @defaultValue 3600000 (1 hour) */
  ttlMs?: number
  /** Keep the turns there instead of in memory (several instances). @defaultValue none: in memory */
  shared?: SharedReasoningEntries
}

interface Entry {
  details: ReasoningDetails
  expires: number
}

export interface ReasoningStore {
  /** Remembers the reasoning of an answer that called tools (a promise with shared entries). */
  remember(scope: string, parts: readonly ir.AssistantPart[]): void | Promise<void>
  /** Puts the reasoning back on assistant turns that came without it (in place; a promise with shared entries). */
  restore(scope: string, messages: ir.Message[]): void | Promise<void>
}

/** Whether a turn still carries anything of the carrier (then the client echoed it: nothing to restore). */
function carriesReasoning(parts: readonly ir.AssistantPart[]): boolean {
  return parts.some((part) => part.type === 'reasoning' || part.type === 'redacted-reasoning' || part.providerData)
}

/** The assistant turns that came without their reasoning, each with its first tool-call id. */
function bareTurns(messages: ir.Message[]): Array<{ index: number; id: string }> {
  const turns: Array<{ index: number; id: string }> = []
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as ir.Message
    if (message.role !== 'assistant' || carriesReasoning(message.content)) continue
    const first = message.content.find((part): part is ir.ToolCallPart => part.type === 'tool-call')
    if (first) turns.push({ index: i, id: first.id })
  }
  return turns
}

/** The assistant turn with its reasoning put back. */
function restored(message: ir.AssistantMessage, details: ReasoningDetails): ir.Message {
  return { ...message, content: decodeReasoningCarrier(message.content, details, undefined).parts }
}

function createSharedReasoningStore(shared: SharedReasoningEntries): ReasoningStore {
  return {
    remember(scope, parts) {
      const first = parts.find((part): part is ir.ToolCallPart => part.type === 'tool-call')
      if (!first) return
      const { details } = encodeReasoningCarrier(parts)
      if (details) return shared.put(scope, first.id, details)
    },
    restore(scope, messages) {
      const turns = bareTurns(messages)
      if (turns.length === 0) return
      return Promise.all(
        turns.map(async ({ index, id }) => {
          const details = await shared.get(scope, id)
          if (details) messages[index] = restored(messages[index] as ir.AssistantMessage, details)
        }),
      ).then(() => {})
    },
  }
}

export function createReasoningStore(options: ReasoningStoreOptions = {}): ReasoningStore {
  if (options.shared) return createSharedReasoningStore(options.shared)
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
      for (const { index, id } of bareTurns(messages)) {
        const key = keyOf(scope, id)
        const entry = entries.get(key)
        if (!entry) continue
        if (entry.expires < Date.now()) {
          entries.delete(key)
          continue
        }
        messages[index] = restored(messages[index] as ir.AssistantMessage, entry.details)
      }
    },
  }
}
