/** The wire formats interlingua speaks. A new format adds its id here and one folder under `src/formats/`. */
export type FormatId = 'chat-completions' | 'messages' | 'content-generation' | 'responses'

/**
 * Opaque, format-specific data that must come back byte-exact (Anthropic thinking `signature`,
 * `redacted_thinking.data`, Gemini `thoughtSignature`, `cache_control`, citations, …), namespaced by the
 * format that produced it. An encoder reads only its own namespace and never forwards another format's
 * opaque data to the wire (the chat-completions reasoning carrier is the one documented exception: it
 * serialises foreign namespaces losslessly so they can come back, see `formats/chat-completions`).
 */
export type ProviderData = { [F in FormatId]?: Record<string, unknown> }
