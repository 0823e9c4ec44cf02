/** The wire formats interlingua speaks to clients (and upstreams). A new format adds its id here and one folder under `src/formats/`. */
export type FormatId = 'chat-completions' | 'messages' | 'content-generation' | 'responses'

/**
 * Wire formats spoken only to upstreams, never served to clients: Amazon Bedrock's Converse API. Such a format is a
 * folder under `src/formats/` like the others, but it is not in the public registry (`formats`, `getFormat`,
 * `convertRequest`): only the gateway loads it, when an upstream names it.
 */
export type UpstreamOnlyFormatId = 'converse'

/** Every wire format: what an upstream may speak, and the namespaces of provider data and extensions. */
export type WireFormatId = FormatId | UpstreamOnlyFormatId

/**
 * Opaque, format-specific data that must come back byte-exact (Anthropic thinking `signature`,
 * `redacted_thinking.data`, Gemini `thoughtSignature`, Converse `reasoningText.signature`, `cache_control`,
 * citations, …), namespaced by the format that produced it. An encoder reads only its own namespace and never
 * forwards another format's opaque data to the wire (the chat-completions reasoning carrier is the one documented
 * exception: it serialises foreign namespaces losslessly so they can come back, see `formats/chat-completions`).
 */
export type ProviderData = { [F in WireFormatId]?: Record<string, unknown> }
