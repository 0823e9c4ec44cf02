/** IR → Converse response (wire): what Bedrock's `/converse` answers (used by tests and same-format conversions). */
import type * as ir from '../../ir/index.js'
import type { Converted, EncodeResponseOptions } from '../format.js'
import { encodeReasoning, encodeToolUse } from './content.js'
import { fromFinishReason } from './finish-reason.js'
import type { ConverseBlock, Json } from './schema.js'
import { encodeUsage } from './usage.js'

export function encodeResponse(response: ir.Response, _options?: EncodeResponseOptions): Converted<unknown> {
  const warnings: ir.Warning[] = []
  const warn = (path: string, message: string) => warnings.push({ type: 'dropped', path, message })
  const content: ConverseBlock[] = []
  let hasToolCall = false
  response.content.forEach((part, i) => {
    const path = `content[${i}]`
    switch (part.type) {
      case 'text':
      case 'refusal':
        content.push({ text: part.text })
        break
      case 'tool-call':
        hasToolCall = true
        content.push(encodeToolUse(part, path, warn))
        break
      case 'reasoning':
      case 'redacted-reasoning': {
        // A response may carry unsigned reasoning (a client never echoes it back upstream).
        const block = encodeReasoning(part, path, () => {})
        if (block) content.push(block)
        else if (part.type === 'reasoning') content.push({ reasoningContent: { reasoningText: { text: part.text } } })
        else warn(path, 'redacted reasoning from another provider has no converse form')
        break
      }
      default:
        warn(path, `converse responses carry no ${part.type} part`)
    }
  })
  if (response.extraChoices?.length) warn('extraChoices', 'converse returns one choice; the other choices are dropped')
  const body: Json = {
    output: { message: { role: 'assistant', content } },
    stopReason: fromFinishReason(response.finishReason, hasToolCall),
    usage: encodeUsage(response.usage ?? { inputTokens: 0, outputTokens: 0 }),
    metrics: { latencyMs: 0 },
  }
  const extensions = response.extensions?.converse
  if (extensions) for (const key in extensions) body[key] ??= extensions[key]
  return { value: body, warnings }
}
