/** IR → chat-completions response body. @see wire-formats.md §1.6 */
import type * as ir from '../../ir/index.js'
import { reportForeignExtensions } from '../../shared/foreign-extensions.js'
import { newId } from '../../shared/ids.js'
import type { Converted } from '../format.js'
import { fromFinishReason } from './finish-reason.js'
import { encodeReasoningCarrier } from './reasoning-carrier.js'
import { encodeUsage } from './usage.js'
import { encodeAnnotations } from './web-search.js'

const FORMAT = 'chat-completions'

function generateId(): string {
  return newId('chatcmpl-')
}

function encodeChoice(
  index: number,
  parts: ir.AssistantPart[],
  reason: ir.FinishReason,
  path: string,
  warnings: ir.Warning[],
) {
  let text: string | null = null
  let refusal: string | null = null
  const calls: Record<string, unknown>[] = []
  let extras: Record<string, unknown> | undefined
  const annotations: Record<string, unknown>[] = []
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as ir.AssistantPart
    const own = part.providerData?.[FORMAT]
    if (own) extras = { ...extras, ...own }
    if (part.type === 'text') {
      if (part.citations) annotations.push(...encodeAnnotations(part.citations, text?.length ?? 0, part.text.length))
      text = (text ?? '') + part.text
    } else if (part.type === 'refusal') refusal = (refusal ?? '') + part.text
    else if (part.type === 'tool-call') {
      calls.push({
        id: part.id,
        type: 'function',
        function: { name: part.name, arguments: part.arguments === '' ? '{}' : part.arguments },
      })
    } else if (part.type === 'image' || part.type === 'audio') {
      warnings.push({
        type: 'dropped',
        path: `${path}[${i}]`,
        message: `assistant ${part.type} output is not supported`,
      })
    }
  }
  const message: Record<string, unknown> = { role: 'assistant', content: text, refusal }
  if (calls.length > 0) message.tool_calls = calls
  // A search model's own annotations (in `extras`) win over those made from another format's citations.
  if (annotations.length > 0) message.annotations = annotations
  const carrier = encodeReasoningCarrier(parts)
  if (carrier.reasoningContent !== undefined) message.reasoning_content = carrier.reasoningContent
  if (carrier.details) message.reasoning_details = carrier.details
  if (extras) Object.assign(message, extras)
  return { index, message, logprobs: null, finish_reason: fromFinishReason(reason, calls.length > 0) }
}

export function encodeResponse(response: ir.Response): Converted<unknown> {
  const warnings: ir.Warning[] = []
  const choices = [encodeChoice(0, response.content, response.finishReason, 'content', warnings)]
  for (const choice of response.extraChoices ?? []) {
    choices.push(
      encodeChoice(choice.index, choice.content, choice.finishReason, `extraChoices[${choice.index}]`, warnings),
    )
  }
  const body: Record<string, unknown> = {
    id: response.id || generateId(),
    object: 'chat.completion',
    created: response.created ?? Math.floor(Date.now() / 1000),
    model: response.model,
    choices,
  }
  if (response.usage) body.usage = encodeUsage(response.usage)
  const extensions = response.extensions?.[FORMAT]
  if (extensions) Object.assign(body, extensions)
  reportForeignExtensions(response.extensions, FORMAT, warnings)
  return { value: body, warnings }
}
