/**
 * Schemas for the chat-completions wire (wire-formats.md §1.2–1.7, §1.9). Loose: unknown keys pass,
 * wrong types of known fields fail with their JSON path.
 */
import * as z from '../../shared/schema.js'
import { checkMessages } from './validate-messages.js'

const str = z.string()
const optStr = z.optional(z.nullable(z.string()))
const optNum = z.optional(z.nullable(z.number()))
const optInt = z.optional(z.nullable(z.number({ int: true })))
const optBool = z.optional(z.nullable(z.boolean()))

const functionCall = z.looseObject({ name: str, arguments: str })
const toolCall = z.discriminatedUnion('type', [
  z.looseObject({ id: str, type: z.literal('function'), function: functionCall }),
  z.looseObject({ id: str, type: z.literal('custom'), custom: z.looseObject({ name: str, input: str }) }),
])

/**
 * The message shapes, for their types only: `messages` is checked by validate-messages.ts (in place, one pass), which
 * accepts exactly these. Never called, so a bundle leaves it out.
 */
function messageSchemas() {
  const textPart = z.looseObject({ type: z.literal('text'), text: str })
  const refusalPart = z.looseObject({ type: z.literal('refusal'), refusal: str })
  const imagePart = z.looseObject({
    type: z.literal('image_url'),
    image_url: z.looseObject({ url: str, detail: z.optional(z.enumOf(['auto', 'low', 'high'])) }),
  })
  const audioPart = z.looseObject({
    type: z.literal('input_audio'),
    input_audio: z.looseObject({ data: str, format: str }),
  })
  const filePart = z.looseObject({
    type: z.literal('file'),
    file: z.looseObject({ file_data: z.optional(str), file_id: z.optional(str), filename: z.optional(str) }),
  })

  const textContent = z.union([str, z.array(textPart)])
  const userContent = z.union([str, z.array(z.discriminatedUnion('type', [textPart, imagePart, audioPart, filePart]))])
  const assistantContent = z.nullable(z.union([str, z.array(z.discriminatedUnion('type', [textPart, refusalPart]))]))

  const systemMessage = z.looseObject({ role: z.enumOf(['system', 'developer']), content: textContent, name: optStr })
  const userMessage = z.looseObject({ role: z.literal('user'), content: userContent, name: optStr })
  const assistantMessage = z.looseObject({
    role: z.literal('assistant'),
    content: z.optional(assistantContent),
    name: optStr,
    refusal: optStr,
    tool_calls: z.optional(z.nullable(z.array(toolCall))),
    function_call: z.optional(z.nullable(functionCall)),
  })
  const toolMessage = z.looseObject({ role: z.literal('tool'), tool_call_id: str, content: textContent })
  const functionMessage = z.looseObject({ role: z.literal('function'), name: str, content: z.nullable(str) })

  const message = z.discriminatedUnion('role', [
    systemMessage,
    userMessage,
    assistantMessage,
    toolMessage,
    functionMessage,
  ])
  return { message, userMessage, assistantMessage }
}
type MessageSchemas = ReturnType<typeof messageSchemas>

const functionDef = z.looseObject({
  name: str,
  description: z.optional(str),
  parameters: z.optional(z.record(z.unknown())),
  strict: optBool,
})
const tool = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('function'), function: functionDef }),
  z.looseObject({ type: z.literal('custom'), custom: z.looseObject({ name: str }) }),
])
const namedFunction = z.looseObject({ name: str })
const toolChoice = z.union([
  z.enumOf(['none', 'auto', 'required']),
  z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('function'), function: namedFunction }),
    z.looseObject({ type: z.literal('custom'), custom: namedFunction }),
    z.looseObject({
      type: z.literal('allowed_tools'),
      allowed_tools: z.looseObject({
        mode: z.enumOf(['auto', 'required']),
        tools: z.array(z.looseObject({ type: str, function: z.optional(namedFunction) })),
      }),
    }),
  ]),
])
const responseFormat = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: str,
      description: z.optional(str),
      schema: z.optional(z.record(z.unknown())),
      strict: optBool,
    }),
  }),
])

/** Search models' `web_search_options` (the request's hosted web search). */
const webSearchOptions = z.looseObject({
  search_context_size: z.optional(z.nullable(z.enumOf(['low', 'medium', 'high']))),
  user_location: z.optional(
    z.nullable(
      z.looseObject({
        type: z.optional(str),
        approximate: z.optional(
          z.nullable(z.looseObject({ city: optStr, country: optStr, region: optStr, timezone: optStr })),
        ),
      }),
    ),
  ),
})

/** `messages` checked by hand (validate-messages.ts: no copies), issues reported with their full path. */
const messages = z.checked<WireMessage[]>(checkMessages)

export const requestSchema = z.looseObject({
  model: str,
  messages,
  max_completion_tokens: optInt,
  max_tokens: optInt,
  temperature: optNum,
  top_p: optNum,
  stop: z.optional(z.nullable(z.union([str, z.array(str)]))),
  n: optInt,
  seed: optInt,
  presence_penalty: optNum,
  frequency_penalty: optNum,
  logprobs: optBool,
  top_logprobs: optInt,
  user: z.optional(str),
  metadata: z.optional(z.nullable(z.record(z.string()))),
  reasoning_effort: z.optional(z.nullable(z.enumOf(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']))),
  stream: optBool,
  stream_options: z.optional(z.nullable(z.looseObject({ include_usage: z.optional(z.boolean()) }))),
  tools: z.optional(z.array(tool)),
  tool_choice: z.optional(toolChoice),
  parallel_tool_calls: z.optional(z.boolean()),
  response_format: z.optional(responseFormat),
  functions: z.optional(z.array(functionDef)),
  function_call: z.optional(z.union([z.enumOf(['none', 'auto']), namedFunction])),
  web_search_options: z.optional(z.nullable(webSearchOptions)),
})

export type WireRequest = z.Infer<typeof requestSchema>
export type WireMessage = z.Infer<MessageSchemas['message']>
export type WireUserMessage = z.Infer<MessageSchemas['userMessage']>
export type WireAssistantMessage = z.Infer<MessageSchemas['assistantMessage']>
export type WireFunctionDef = z.Infer<typeof functionDef>

const responseMessage = z.looseObject({
  role: z.optional(str),
  content: z.optional(z.nullable(str)),
  refusal: optStr,
  tool_calls: z.optional(z.nullable(z.array(toolCall))),
  function_call: z.optional(z.nullable(functionCall)),
})

const usage = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.optional(z.number()),
  prompt_tokens_details: z.optional(z.nullable(z.looseObject({}))),
  completion_tokens_details: z.optional(z.nullable(z.looseObject({}))),
})

export const responseSchema = z.looseObject({
  id: z.optional(str),
  object: z.optional(str),
  created: z.optional(z.number()),
  model: z.optional(str),
  choices: z.array(
    z.looseObject({
      index: z.optional(z.number()),
      message: responseMessage,
      finish_reason: z.optional(z.nullable(str)),
    }),
  ),
  usage: z.optional(z.nullable(usage)),
})

export type WireResponse = z.Infer<typeof responseSchema>
export type WireResponseMessage = z.Infer<typeof responseMessage>
