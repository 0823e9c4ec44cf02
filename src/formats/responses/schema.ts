/**
 * Schema (shared/schema.ts) for the top level of a Responses request (responses-api.md §2). Loose: unknown keys pass, wrong
 * types of known fields fail with their JSON path. `input` items and `tools` are checked by hand while decoding,
 * so their errors name the item (`input[3].call_id`).
 */
import * as z from '../../shared/schema.js'

const str = z.string()
const optStr = z.optional(z.nullable(z.string()))
const optNum = z.optional(z.nullable(z.number()))
const optInt = z.optional(z.nullable(z.number({ int: true })))
const optBool = z.optional(z.nullable(z.boolean()))

export const efforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const

const namedTool = z.looseObject({ type: str, name: z.optional(str) })
const toolChoice = z.union([
  z.enumOf(['none', 'auto', 'required']),
  z.looseObject({
    type: str,
    name: z.optional(str),
    mode: z.optional(z.enumOf(['auto', 'required'])),
    tools: z.optional(z.array(namedTool)),
  }),
])

const textFormat = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    name: z.optional(str),
    description: z.optional(str),
    schema: z.record(z.unknown()),
    strict: optBool,
  }),
])

export const requestSchema = z.looseObject({
  model: str,
  input: z.optional(z.union([str, z.array(z.unknown())])),
  instructions: optStr,
  max_output_tokens: optInt,
  temperature: optNum,
  top_p: optNum,
  top_logprobs: optInt,
  parallel_tool_calls: optBool,
  stream: optBool,
  store: optBool,
  user: z.optional(str),
  safety_identifier: z.optional(str),
  previous_response_id: optStr,
  metadata: z.optional(z.nullable(z.record(z.string()))),
  include: z.optional(z.nullable(z.array(str))),
  reasoning: z.optional(
    z.nullable(
      z.looseObject({
        effort: z.optional(z.nullable(z.enumOf(efforts))),
        summary: z.optional(z.nullable(z.enumOf(['auto', 'concise', 'detailed']))),
      }),
    ),
  ),
  text: z.optional(
    z.nullable(z.looseObject({ format: z.optional(textFormat), verbosity: z.optional(z.nullable(str)) })),
  ),
  tools: z.optional(z.nullable(z.array(z.looseObject({ type: str })))),
  tool_choice: z.optional(z.nullable(toolChoice)),
})

export type WireRequest = z.Infer<typeof requestSchema>
