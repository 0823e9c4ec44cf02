import type { ProviderData } from './format-id.js'

/**
 * Where the bytes of a media part live.
 * - `url`: an http(s) URL the target may fetch itself (or the gateway's media fetcher inlines).
 * - `base64`: inline bytes; data URLs are decoded into this (policy 8).
 * - `file`: a provider file id (`file_id`, Gemini `fileUri`); not portable between providers.
 * - `text`: plain text standing in for a document (Anthropic `source.type: "text"`).
 */
export type MediaSource =
  | { type: 'url'; url: string; mediaType?: string }
  | { type: 'base64'; mediaType: string; data: string }
  | { type: 'file'; fileId: string; mediaType?: string }
  | { type: 'text'; text: string; mediaType?: string }

export interface TextPart {
  type: 'text'
  text: string
  /** Sources the text cites (web search results), when the upstream said which. */
  citations?: Citation[]
  providerData?: ProviderData
}

/**
 * A web page a text cites: Responses `url_citation`, Anthropic `web_search_result_location`, Gemini grounding
 * supports. `startIndex`/`endIndex` are UTF-16 offsets into the part's text (absent: the whole part).
 */
export interface Citation {
  type: 'url'
  url: string
  title?: string
  startIndex?: number
  endIndex?: number
  /** The cited passage of the source, when the upstream gave it (Anthropic `cited_text`). */
  citedText?: string
}

/**
 * A web search the provider ran while answering (Responses `web_search_call`, Anthropic `server_tool_use` +
 * `web_search_tool_result`, Gemini `groundingMetadata.webSearchQueries`). Informational: it records what was
 * searched and found; the answer's text carries the citations.
 */
export interface WebSearchPart {
  type: 'web-search'
  id: string
  /** The queries run, in order. */
  queries: string[]
  sources: Array<{ url: string; title?: string }>
  /** The search failed (Anthropic `web_search_tool_result_error`). */
  failed?: boolean
  providerData?: ProviderData
}

export interface ImagePart {
  type: 'image'
  source: MediaSource
  /** OpenAI `detail`; no equivalent elsewhere. */
  detail?: 'auto' | 'low' | 'high'
  providerData?: ProviderData
}

/** PDFs and other files (OpenAI `file`, Anthropic `document`, Gemini `inlineData`/`fileData` with a non-image, non-audio MIME type). */
export interface DocumentPart {
  type: 'document'
  source: MediaSource
  filename?: string
  title?: string
  providerData?: ProviderData
}

/** Audio input (OpenAI `input_audio`, Gemini `inlineData` audio/*). Anthropic has none. */
export interface AudioPart {
  type: 'audio'
  source: MediaSource
  providerData?: ProviderData
}

/** A call the assistant made. `arguments` is JSON text (`"{}"` for none); it may be invalid JSON when the model was cut off. */
export interface ToolCallPart {
  type: 'tool-call'
  id: string
  name: string
  arguments: string
  providerData?: ProviderData
}

/** The content a tool result may hold. */
export type ToolResultContent = TextPart | ImagePart | DocumentPart

/** The result of one tool call. `toolName` is recovered from the conversation when the source lacks it (policy 4). */
export interface ToolResultPart {
  type: 'tool-result'
  toolCallId: string
  toolName?: string
  content: ToolResultContent[]
  isError?: boolean
  providerData?: ProviderData
}

/**
 * Reasoning text (Anthropic `thinking`, Gemini `thought: true` parts, chat-completions carrier). The
 * signature is opaque provider data: `providerData.messages.signature` or
 * `providerData['content-generation'].thoughtSignature`.
 */
export interface ReasoningPart {
  type: 'reasoning'
  text: string
  providerData?: ProviderData
}

/** Anthropic `redacted_thinking`: opaque `data` that only Anthropic can read; other encoders drop it with a warning. */
export interface RedactedReasoningPart {
  type: 'redacted-reasoning'
  data: string
  providerData?: ProviderData
}

/** An assistant refusal (OpenAI `refusal`). */
export interface RefusalPart {
  type: 'refusal'
  text: string
  providerData?: ProviderData
}

export type Part =
  | TextPart
  | ImagePart
  | DocumentPart
  | AudioPart
  | ToolCallPart
  | ToolResultPart
  | ReasoningPart
  | RedactedReasoningPart
  | RefusalPart
  | WebSearchPart

/** Parts an assistant turn (or a response) may hold. */
export type AssistantPart =
  | TextPart
  | ToolCallPart
  | ReasoningPart
  | RedactedReasoningPart
  | RefusalPart
  | ImagePart
  | AudioPart
  | WebSearchPart
