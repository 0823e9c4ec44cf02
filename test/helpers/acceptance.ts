/**
 * "Would the real service accept this body?" — the structural rules each service enforces (wire-formats.md §5),
 * checked on converter output. Returns a list of violations (empty = acceptable).
 */

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

/** Every schema node has a type (or is a combinator / $ref), recursively. */
function typelessNodes(schema: unknown, path: string, out: string[], dialect: 'json-schema' | 'openapi'): void {
  if (!isObject(schema)) return
  const combinator = 'anyOf' in schema || 'oneOf' in schema || 'allOf' in schema || '$ref' in schema
  if (!('type' in schema) && !combinator) out.push(`${path}: schema node without a type`)
  if (dialect === 'openapi') {
    for (const key of [
      'additionalProperties',
      '$ref',
      '$defs',
      '$schema',
      'const',
      'oneOf',
      'allOf',
      'not',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'propertyNames',
      'patternProperties',
      'definitions',
      'examples',
      'if',
      'then',
      'else',
    ]) {
      if (key in schema) out.push(`${path}.${key}: keyword not in Gemini's Schema object`)
    }
    if (Array.isArray(schema.type)) out.push(`${path}.type: type arrays are not allowed in Gemini's Schema object`)
  }
  if (isObject(schema.properties))
    for (const [key, value] of Object.entries(schema.properties))
      typelessNodes(value, `${path}.properties.${key}`, out, dialect)
  if (schema.items !== undefined) typelessNodes(schema.items, `${path}.items`, out, dialect)
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
    for (const [i, item] of asArray(schema[key]).entries()) typelessNodes(item, `${path}.${key}[${i}]`, out, dialect)
  if (isObject(schema.$defs))
    for (const [key, value] of Object.entries(schema.$defs)) typelessNodes(value, `${path}.$defs.${key}`, out, dialect)
  if (isObject(schema.additionalProperties))
    typelessNodes(schema.additionalProperties, `${path}.additionalProperties`, out, dialect)
}

export function checkMessagesRequest(body: unknown): string[] {
  const out: string[] = []
  if (!isObject(body)) return ['body is not an object']
  if (!Number.isInteger(body.max_tokens)) out.push('max_tokens missing')
  if (typeof body.model !== 'string') out.push('model missing')
  const messages = asArray(body.messages).filter((m) => isObject(m) && m.role !== 'system') as Json[]
  if (messages.length === 0) out.push('no messages')
  if (messages[0] && messages[0].role !== 'user') out.push('first turn is not user')
  const idPattern = /^[a-zA-Z0-9_-]+$/
  messages.forEach((message, i) => {
    if (i > 0 && messages[i - 1]?.role === message.role)
      out.push(`messages[${i}]: two ${String(message.role)} turns in a row`)
    const content = message.content
    if (typeof content === 'string') {
      if (content === '') out.push(`messages[${i}]: empty string content`)
      return
    }
    const blocks = asArray(content) as Json[]
    if (blocks.length === 0) out.push(`messages[${i}]: empty content`)
    let seenOther = false
    blocks.forEach((block, j) => {
      if (block.type === 'text' && block.text === '') out.push(`messages[${i}].content[${j}]: empty text block`)
      if (block.type === 'tool_result') {
        if (seenOther) out.push(`messages[${i}].content[${j}]: tool_result after other content`)
        if (!idPattern.test(String(block.tool_use_id))) out.push(`messages[${i}].content[${j}]: invalid tool_use_id`)
      } else seenOther = true
      if (block.type === 'tool_use' && !idPattern.test(String(block.id)))
        out.push(`messages[${i}].content[${j}]: invalid id`)
      if (block.type === 'tool_use' && !isObject(block.input))
        out.push(`messages[${i}].content[${j}]: input is not an object`)
    })
    // Every tool_use must be answered in the very next user turn.
    const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id)
    const next = messages[i + 1]
    if (uses.length > 0 && next) {
      const answered = new Set(
        (asArray(next.content) as Json[]).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id),
      )
      for (const id of uses)
        if (!answered.has(id)) out.push(`messages[${i}]: tool_use ${String(id)} not answered in the next turn`)
    }
  })
  for (const [i, tool] of (asArray(body.tools) as Json[]).entries()) {
    if (tool.type !== undefined && tool.type !== 'custom') continue
    if (!isObject(tool.input_schema) || tool.input_schema.type !== 'object')
      out.push(`tools[${i}].input_schema.type must be object`)
  }
  if (isObject(body.thinking) && body.thinking.type === 'enabled') {
    const budget = Number(body.thinking.budget_tokens)
    if (!(budget >= 1024)) out.push('thinking.budget_tokens < 1024')
    if (!(budget < Number(body.max_tokens))) out.push('thinking.budget_tokens >= max_tokens')
  }
  if (typeof body.temperature === 'number' && (body.temperature < 0 || body.temperature > 1))
    out.push('temperature outside [0, 1]')
  return out
}

export function checkContentGenerationRequest(body: unknown): string[] {
  const out: string[] = []
  if (!isObject(body)) return ['body is not an object']
  if ('model' in body) out.push('model must not be in the body')
  const contents = asArray(body.contents) as Json[]
  if (contents.length === 0) out.push('no contents')
  contents.forEach((content, i) => {
    if (content.role !== 'user' && content.role !== 'model')
      out.push(`contents[${i}].role invalid: ${String(content.role)}`)
    const parts = asArray(content.parts) as Json[]
    if (parts.length === 0) out.push(`contents[${i}]: no parts`)
    if (i > 0 && contents[i - 1]?.role === content.role)
      out.push(`contents[${i}]: two ${String(content.role)} turns in a row`)
    parts.forEach((part, j) => {
      const response = part.functionResponse
      if (isObject(response)) {
        if (typeof response.name !== 'string' || response.name === '')
          out.push(`contents[${i}].parts[${j}].functionResponse.name missing`)
        if (!isObject(response.response))
          out.push(`contents[${i}].parts[${j}].functionResponse.response is not an object`)
      }
      const call = part.functionCall
      if (isObject(call) && call.args !== undefined && !isObject(call.args))
        out.push(`contents[${i}].parts[${j}].functionCall.args is not an object`)
    })
    // N function calls are answered by N function responses in the next user turn.
    const calls = parts.filter((p) => isObject(p.functionCall)).length
    const next = contents[i + 1]
    if (content.role === 'model' && calls > 0 && next) {
      const responses = (asArray(next.parts) as Json[]).filter((p) => isObject(p.functionResponse)).length
      if (responses !== calls) out.push(`contents[${i + 1}]: ${responses} functionResponse parts answer ${calls} calls`)
    }
  })
  for (const [i, tool] of (asArray(body.tools) as Json[]).entries()) {
    for (const [j, declaration] of (asArray(tool.functionDeclarations) as Json[]).entries()) {
      if ('parameters' in declaration)
        typelessNodes(declaration.parameters, `tools[${i}].functionDeclarations[${j}].parameters`, out, 'openapi')
      if ('parametersJsonSchema' in declaration)
        typelessNodes(
          declaration.parametersJsonSchema,
          `tools[${i}].functionDeclarations[${j}].parametersJsonSchema`,
          out,
          'json-schema',
        )
      if ('parameters' in declaration && 'parametersJsonSchema' in declaration)
        out.push(`tools[${i}].functionDeclarations[${j}]: parameters and parametersJsonSchema are exclusive`)
    }
  }
  const config = isObject(body.generationConfig) ? body.generationConfig : {}
  if (config.responseSchema !== undefined)
    typelessNodes(config.responseSchema, 'generationConfig.responseSchema', out, 'openapi')
  if (config.responseJsonSchema !== undefined)
    typelessNodes(config.responseJsonSchema, 'generationConfig.responseJsonSchema', out, 'json-schema')
  const thinking = isObject(config.thinkingConfig) ? config.thinkingConfig : undefined
  if (
    thinking &&
    typeof thinking.thinkingBudget === 'number' &&
    (thinking.thinkingBudget < -1 || thinking.thinkingBudget > 24576)
  ) {
    out.push('thinkingBudget outside [-1, 24576]')
  }
  return out
}

export function checkChatCompletionsRequest(body: unknown): string[] {
  const out: string[] = []
  if (!isObject(body)) return ['body is not an object']
  if (typeof body.model !== 'string') out.push('model missing')
  const messages = asArray(body.messages) as Json[]
  if (messages.length === 0) out.push('no messages')
  const open = new Set<unknown>()
  messages.forEach((message, i) => {
    if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(String(message.role)))
      out.push(`messages[${i}].role invalid`)
    if (message.role === 'assistant') {
      for (const [j, call] of (asArray(message.tool_calls) as Json[]).entries()) {
        const fn = isObject(call.function) ? call.function : {}
        if (typeof fn.arguments !== 'string')
          out.push(`messages[${i}].tool_calls[${j}].function.arguments is not a string`)
        else {
          try {
            JSON.parse(fn.arguments)
          } catch {
            out.push(`messages[${i}].tool_calls[${j}].function.arguments is not JSON`)
          }
        }
        open.add(call.id)
      }
    }
    if (message.role === 'tool') {
      if (!open.has(message.tool_call_id)) out.push(`messages[${i}].tool_call_id does not answer a previous call`)
      if (typeof message.content !== 'string' && !Array.isArray(message.content))
        out.push(`messages[${i}].content missing`)
    }
  })
  return out
}

/** OpenAI Responses (responses-api.md §3, §4, §9.2): items well-formed, every call output answers an earlier call. */
export function checkResponsesRequest(body: unknown): string[] {
  const out: string[] = []
  if (!isObject(body)) return ['body is not an object']
  if (typeof body.model !== 'string') out.push('model missing')
  if (body.instructions !== undefined && typeof body.instructions !== 'string') out.push('instructions is not a string')
  const input = typeof body.input === 'string' ? [] : (asArray(body.input) as Json[])
  if (typeof body.input !== 'string' && input.length === 0) out.push('no input')
  const calls = new Set<unknown>()
  input.forEach((item, i) => {
    const type = item.type ?? (item.role ? 'message' : undefined)
    if (type === 'message') {
      if (!['user', 'assistant', 'system', 'developer'].includes(String(item.role)))
        out.push(`input[${i}].role invalid`)
      if (typeof item.content !== 'string' && !Array.isArray(item.content)) out.push(`input[${i}].content missing`)
      for (const [j, part] of (asArray(item.content) as Json[]).entries()) {
        const allowed =
          item.role === 'assistant' ? ['output_text', 'refusal'] : ['input_text', 'input_image', 'input_file']
        if (!allowed.includes(String(part.type)))
          out.push(`input[${i}].content[${j}].type ${String(part.type)} not allowed`)
      }
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      if (typeof item.call_id !== 'string') out.push(`input[${i}].call_id missing`)
      if (type === 'function_call') {
        try {
          JSON.parse(String(item.arguments))
        } catch {
          out.push(`input[${i}].arguments is not JSON`)
        }
      }
      calls.add(item.call_id)
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      if (!calls.has(item.call_id)) out.push(`input[${i}].call_id does not answer a previous call`)
    } else if (type === 'reasoning') {
      if (!Array.isArray(item.summary)) out.push(`input[${i}].summary missing`)
    } else out.push(`input[${i}].type ${String(type)} unexpected`)
  })
  for (const [i, tool] of (asArray(body.tools) as Json[]).entries()) {
    if (tool.type === 'function' && (!('parameters' in tool) || !('strict' in tool)))
      out.push(`tools[${i}]: parameters and strict are required keys`)
    if ('function' in tool) out.push(`tools[${i}]: nested (chat) shape`)
  }
  for (const key of ['stop', 'n', 'seed', 'messages', 'max_tokens', 'max_completion_tokens'])
    if (key in body) out.push(`${key} is not a Responses field`)
  return out
}

export const checkRequest = {
  responses: checkResponsesRequest,
  'chat-completions': checkChatCompletionsRequest,
  messages: checkMessagesRequest,
  'content-generation': checkContentGenerationRequest,
} as const
