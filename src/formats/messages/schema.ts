/**
 * Schemas (shared/schema.ts) for the messages wire (wire-formats.md §2.2–2.8). Loose: unknown keys pass, wrong types of
 * known fields fail with their JSON path. Content blocks are checked by hand (validate-content.ts, for speed) but still fail with their full path
 * (`messages[1].content[0].source.data`); unknown block types pass.
 */
import * as z from '../../shared/schema.js'
import { checkBlocks, checkMessages, checkTools } from './validate-content.js'

const cacheControl = z.optional(z.nullable(z.looseObject({ type: z.string() })))
const optionalString = z.optional(z.string())

const textBlock = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  cache_control: cacheControl,
  citations: z.optional(z.nullable(z.array(z.looseObject({ type: z.string() })))),
})

export const requestSchema = z.looseObject({
  model: z.string(),
  max_tokens: z.optional(z.number({ int: true, min: 0 })),
  messages: z.checked<WireMessage[]>(checkMessages),
  system: z.optional(z.union([z.string(), z.array(textBlock)])),
  temperature: z.optional(z.number()),
  top_p: z.optional(z.number()),
  top_k: z.optional(z.number({ int: true })),
  stop_sequences: z.optional(z.array(z.string())),
  stream: z.optional(z.boolean()),
  tools: z.optional(z.checked<WireTool[]>(checkTools)),
  tool_choice: z.optional(
    z.looseObject({
      type: z.enumOf(['auto', 'any', 'tool', 'none']),
      name: optionalString,
      disable_parallel_tool_use: z.optional(z.boolean()),
    }),
  ),
  thinking: z.optional(
    z.looseObject({
      type: z.string(),
      budget_tokens: z.optional(z.number({ int: true })),
      display: z.optional(z.nullable(z.string())),
    }),
  ),
  output_config: z.optional(
    z.looseObject({
      effort: z.optional(z.nullable(z.enumOf(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']))),
      format: z.optional(z.nullable(z.looseObject({ type: z.string(), schema: z.optional(z.looseObject({})) }))),
    }),
  ),
  metadata: z.optional(z.nullable(z.looseObject({ user_id: z.optional(z.nullable(z.string())) }))),
})

const count = z.optional(z.nullable(z.number()))

export const responseSchema = z.looseObject({
  id: z.string(),
  type: optionalString,
  role: optionalString,
  model: z.string(),
  content: z.checked<WireBlock[]>(checkBlocks),
  stop_reason: z.optional(z.nullable(z.string())),
  stop_sequence: z.optional(z.nullable(z.string())),
  usage: z.optional(
    z.nullable(
      z.looseObject({
        input_tokens: count,
        output_tokens: count,
        cache_creation_input_tokens: count,
        cache_read_input_tokens: count,
        output_tokens_details: z.optional(z.nullable(z.looseObject({ thinking_tokens: count }))),
      }),
    ),
  ),
})

/** Wire shapes after validation (the fields decoders read; everything else rides as `[key: string]: unknown`). */
export interface WireBlock {
  type: string
  [key: string]: unknown
}
export interface WireSource {
  type: string
  media_type?: string | null
  data?: string
  url?: string
  file_id?: string
  content?: string | WireBlock[]
  [key: string]: unknown
}
export type WireContent = string | WireBlock[]
export interface WireMessage {
  role: 'user' | 'assistant' | 'system'
  content: WireContent
  [key: string]: unknown
}
export interface WireTool {
  name: string
  type?: string
  description?: string
  input_schema?: Record<string, unknown>
  strict?: boolean
  [key: string]: unknown
}
export type WireRequest = z.Infer<typeof requestSchema>
export type WireResponse = z.Infer<typeof responseSchema>
