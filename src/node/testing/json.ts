/** Loose JSON navigation for the wire bodies a strict stand-in reads (any format's request, unvalidated). */
// biome-ignore lint/suspicious/noExplicitAny: wire bodies of four formats are navigated freely
export type Json = any

/** The wire formats a strict stand-in speaks. */
export type StrictFormat = 'chat-completions' | 'messages' | 'content-generation' | 'responses'
