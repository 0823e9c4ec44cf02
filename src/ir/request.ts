import type { AssistantPart, AudioPart, DocumentPart, ImagePart, TextPart, ToolResultPart } from './content.js'
import type { ProviderData, WireFormatId } from './format-id.js'

/**
 * A system prompt. Chat-completions `developer` messages decode to `system` with
 * `providerData['chat-completions'].role = 'developer'`. A system message may stand anywhere in the
 * list (policy 6): encoders hoist leading ones into the target's system slot and keep mid-conversation
 * ones in place where the target allows it, otherwise hoist them with a warning.
 */
export interface SystemMessage {
  role: 'system'
  content: TextPart[]
  name?: string
  providerData?: ProviderData
}

export interface UserMessage {
  role: 'user'
  content: Array<TextPart | ImagePart | DocumentPart | AudioPart>
  name?: string
  providerData?: ProviderData
}

export interface AssistantMessage {
  role: 'assistant'
  content: AssistantPart[]
  name?: string
  providerData?: ProviderData
}

/**
 * Tool results. One IR `tool` message holds the results that answer one assistant turn's calls, in
 * order (chat-completions: N consecutive `tool` messages decode to N tool messages, each with one result;
 * encoders merge consecutive tool messages as their format requires).
 */
export interface ToolMessage {
  role: 'tool'
  content: ToolResultPart[]
  providerData?: ProviderData
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage

/** JSON Schema (draft 2020-12 style, lowercase types). Gemini's OpenAPI dialect is converted to and from it. */
export type JsonSchema = { [key: string]: unknown }

export interface FunctionTool {
  type: 'function'
  name: string
  description?: string
  /** JSON Schema of the arguments object; absent means "no arguments". */
  parameters?: JsonSchema
  /** OpenAI `function.strict` / Anthropic `strict`. */
  strict?: boolean
  providerData?: ProviderData
}

export type Tool = FunctionTool

/**
 * A tool the provider runs on its own servers (a Responses hosted tool, an Anthropic server tool, a Gemini built-in
 * tool), kept apart from the function tools the client runs. Only kinds with an equivalent in more than one format
 * have an IR shape; an encoder maps each to its own equivalent, or drops it with a warning (`strict`: a 400).
 * - `web-search`: Responses `web_search`, chat-completions `web_search_options`, Anthropic `web_search_20250305`,
 *   Gemini `googleSearch`.
 * Fields the IR has no slot for stay in `providerData` under the source's id (reported by other encoders).
 */
export interface WebSearchTool {
  type: 'web-search'
  /** Anthropic `max_uses`. */
  maxUses?: number
  /** Responses `filters.allowed_domains`, Anthropic `allowed_domains`. */
  allowedDomains?: string[]
  /** Anthropic `blocked_domains`, Gemini `excludeDomains`. */
  blockedDomains?: string[]
  /** The user's approximate location (Responses and Anthropic `user_location`, chat-completions `approximate`). */
  userLocation?: { city?: string; region?: string; country?: string; timezone?: string }
  /** How much search context the model reads (Responses and chat-completions `search_context_size`). */
  searchContextSize?: 'low' | 'medium' | 'high'
  providerData?: ProviderData
}

export type HostedTool = WebSearchTool

export type ToolChoice = { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; name: string }

/** Reasoning effort levels, the union of OpenAI `reasoning_effort` and Anthropic `output_config.effort`. */
export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max'

/**
 * Reasoning configuration. Decoders fill what their format says; `ir/reasoning.ts` converts between
 * effort and budget for encoders whose format speaks the other one.
 */
export interface ReasoningConfig {
  /** false = reasoning explicitly off (`none`, `thinking.disabled`, `thinkingBudget: 0`). */
  enabled?: boolean
  effort?: ReasoningEffort
  /** Token budget (Anthropic `budget_tokens`, Gemini `thinkingBudget`; -1 = automatic). */
  budgetTokens?: number
  /** Return reasoning text to the client (Gemini `includeThoughts`; Anthropic `display != "omitted"`). */
  includeThoughts?: boolean
  providerData?: ProviderData
}

export type ResponseFormat =
  | { type: 'text' }
  /** JSON output without a schema (OpenAI `json_object`, Gemini `responseMimeType` alone). */
  | { type: 'json' }
  | { type: 'json-schema'; schema: JsonSchema; name?: string; description?: string; strict?: boolean }

/** Everything a generation request says, in one format-neutral shape. */
export interface Request {
  /** The model id as the client named it (content-generation: from the URL). */
  model: string
  messages: Message[]
  tools?: Tool[]
  /** Tools the provider runs itself (web search), in the order the client listed them. */
  hostedTools?: HostedTool[]
  toolChoice?: ToolChoice
  /** Subset of tool names the model may call (OpenAI `allowed_tools`, Gemini `allowedFunctionNames`). */
  allowedTools?: string[]
  /** false = at most one tool call per turn. */
  parallelToolCalls?: boolean
  /** Max output tokens (reasoning included). */
  maxTokens?: number
  temperature?: number
  topP?: number
  topK?: number
  stopSequences?: string[]
  /** Number of choices / candidates. */
  n?: number
  seed?: number
  presencePenalty?: number
  frequencyPenalty?: number
  logprobs?: boolean
  topLogprobs?: number
  /** End-user id (OpenAI `user`/`safety_identifier`, Anthropic `metadata.user_id`). */
  user?: string
  /** OpenAI `metadata` (string map, used with `store`). */
  metadata?: Record<string, string>
  reasoning?: ReasoningConfig
  responseFormat?: ResponseFormat
  stream?: boolean
  /** chat-completions `stream_options.include_usage`. */
  streamIncludeUsage?: boolean
  /**
   * Fields of the source format with no IR equivalent, kept verbatim under the source's id. The same
   * format's encoder spreads them back (lossless same-format round trips); other encoders report each
   * key as a warning.
   */
  extensions?: { [F in WireFormatId]?: Record<string, unknown> }
}
