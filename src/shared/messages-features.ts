/**
 * What a messages request (Claude Code's, 2.1.330) says beyond the IR, made to work for every other target: each
 * non-messages encoder calls `applyMessagesFeatures` first. Decided once here, so the three encoders agree:
 *
 * - **Per-turn effort.** A `role: "system"` entry's `output_config.effort` sets the effort from that point of the
 *   conversation on (Anthropic's per-message effort), so the last one is the effort of the answer asked for now:
 *   it becomes `reasoning.effort`. An entry holding nothing else (empty content) is then left out: nothing is lost.
 * - **`context_management.edits`.** `clear_thinking_20251015` is applied by the gateway, as Anthropic applies it
 *   before the prompt reaches the model: the reasoning of every assistant turn but the last `keep.value` turns that
 *   hold reasoning is removed (`keep: "all"` keeps everything; no `keep`: the last turn's). Any other edit
 *   (`clear_tool_uses_20250919`, triggered by token counts only the service knows) is dropped with a warning.
 * - **Tool search.** A target without tool search gets deferred (`defer_loading`) tools as ordinary functions (the
 *   encoders report it). Claude Code's `DeferredToolPlaceholder` — a deferred tool that exists only to keep tool search
 *   on and says "never call this tool" — is left out with a `dropped` warning, so no model is offered a tool it must
 *   not call.
 *
 * The request is never mutated: a changed copy is returned (the same object when nothing applies).
 */
import type { FormatId } from '../ir/format-id.js'
import type * as ir from '../ir/index.js'

type Json = Record<string, unknown>

const efforts = new Set<string>(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'])

/** Claude Code's placeholder: a deferred tool named so, or one whose description forbids calling it. */
function isDeferredPlaceholder(tool: ir.Tool): boolean {
  if (tool.providerData?.messages?.defer_loading !== true) return false
  return tool.name === 'DeferredToolPlaceholder' || /never call this tool/i.test(tool.description ?? '')
}

const hasOutputConfig = (message: ir.Message) =>
  message.role === 'system' && message.providerData?.messages?.output_config !== undefined

/** The effort of the last system entry that sets one (`undefined`: none does). */
function perTurnEffort(messages: readonly ir.Message[]): ir.ReasoningEffort | undefined {
  let effort: ir.ReasoningEffort | undefined
  for (const message of messages) {
    if (message.role !== 'system') continue
    const value = (message.providerData?.messages?.output_config as Json | undefined)?.effort
    if (typeof value === 'string' && efforts.has(value)) effort = value as ir.ReasoningEffort
  }
  return effort
}

/** How many of the latest reasoning-holding assistant turns keep their reasoning (`Infinity`: all). */
function keptTurns(edit: Json): number | undefined {
  const keep = edit.keep
  if (keep === 'all') return Number.POSITIVE_INFINITY
  if (keep === undefined) return 1
  if (typeof keep === 'object' && keep !== null) {
    const { type, value } = keep as Json
    if (type === 'thinking_turns' && typeof value === 'number' && Number.isInteger(value) && value >= 0) return value
  }
  return undefined
}

const isReasoning = (part: ir.Part) => part.type === 'reasoning' || part.type === 'redacted-reasoning'

/** Removes the reasoning of all but the last `keep` assistant turns that hold some. */
function clearThinking(messages: ir.Message[], keep: number): ir.Message[] {
  if (keep === Number.POSITIVE_INFINITY) return messages
  let seen = 0
  const out = messages.slice()
  for (let i = out.length - 1; i >= 0; i--) {
    const message = out[i] as ir.Message
    if (message.role !== 'assistant' || !message.content.some(isReasoning)) continue
    if (++seen <= keep) continue
    out[i] = { ...message, content: message.content.filter((part) => !isReasoning(part)) }
  }
  return out
}

/** Applies `context_management.edits` (see the file's doc): the messages to encode; unsupported edits are warnings. */
function applyContextEdits(
  value: unknown,
  messages: ir.Message[],
  own: FormatId,
  warnings: ir.Warning[],
): ir.Message[] {
  const edits = typeof value === 'object' && value !== null ? (value as Json).edits : undefined
  if (!Array.isArray(edits)) {
    warnings.push({
      type: 'dropped',
      path: 'context_management',
      message: `messages field context_management has no ${own} equivalent`,
    })
    return messages
  }
  let out = messages
  edits.forEach((edit: unknown, i) => {
    const path = `context_management.edits[${i}]`
    const type = typeof edit === 'object' && edit !== null ? (edit as Json).type : undefined
    const keep = type === 'clear_thinking_20251015' ? keptTurns(edit as Json) : undefined
    if (keep !== undefined) out = clearThinking(out, keep)
    else
      warnings.push({
        type: 'dropped',
        path,
        message: `context edit ${JSON.stringify(type)} has no ${own} equivalent and is not applied by the gateway`,
      })
  })
  return out
}

/** The request with the messages features above applied for target `own` (any format but messages). */
export function applyMessagesFeatures(request: ir.Request, own: FormatId, warnings: ir.Warning[]): ir.Request {
  const extension = request.extensions?.messages
  const placeholder = request.tools?.some(isDeferredPlaceholder) === true
  const perTurn = request.messages.some(hasOutputConfig)
  if (!placeholder && !perTurn && extension?.context_management === undefined) return request
  const out: ir.Request = { ...request }
  if (placeholder) {
    const tools = (request.tools as ir.Tool[]).filter((tool, i) => {
      if (!isDeferredPlaceholder(tool)) return true
      warnings.push({
        type: 'dropped',
        path: `tools[${i}]`,
        message: `${tool.name}: a deferred-loading placeholder that is never called; ${own} has no tool search`,
      })
      return false
    })
    if (tools.length > 0) out.tools = tools
    else {
      // No tool left: no tool list and no choice among tools (an empty list is refused by OpenAI).
      delete out.tools
      delete out.toolChoice
    }
  }
  if (perTurn) {
    const effort = perTurnEffort(request.messages)
    if (effort !== undefined) out.reasoning = { ...request.reasoning, effort }
    out.messages = request.messages.filter((message) => !(hasOutputConfig(message) && isEmpty(message)))
  }
  if (extension?.context_management !== undefined) {
    out.messages = applyContextEdits(extension.context_management, out.messages, own, warnings)
    const { context_management: _applied, ...rest } = extension
    out.extensions = { ...request.extensions, messages: rest }
  }
  return out
}

function isEmpty(message: ir.Message): boolean {
  return message.content.every((part) => part.type === 'text' && part.text === '')
}
