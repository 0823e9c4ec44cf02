/**
 * Converse response (wire) → IR. A Converse answer has no id and no model: the id is generated (the gateway reports
 * the client's model). `additionalModelResponseFields` and other unknown members are kept in `extensions.converse`.
 */
import { InterlinguaError } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import { newId } from '../../shared/ids.js'
import { isRecord } from '../../shared/is-record.js'
import type { Converted } from '../format.js'
import { decodeBlock, memberOf } from './content.js'
import { toFinishReason } from './finish-reason.js'
import type { ConverseBlock } from './schema.js'
import { decodeUsage } from './usage.js'

const known = new Set(['output', 'stopReason', 'usage', 'metrics'])

function invalid(path: string, message: string): never {
  throw new InterlinguaError('invalid-request', `${path}: ${message}`, { param: path })
}

export function decodeResponse(body: unknown): Converted<ir.Response> {
  if (!isRecord(body)) invalid('', 'expected a Converse response object')
  const message = isRecord(body.output) ? body.output.message : undefined
  if (!isRecord(message) || !Array.isArray(message.content)) invalid('output.message.content', 'expected an array')
  const warnings: ir.Warning[] = []
  const content: ir.AssistantPart[] = []
  message.content.forEach((block: unknown, i: number) => {
    const part = isRecord(block) ? decodeBlock(block as ConverseBlock) : undefined
    if (part && part.type !== 'tool-result' && part.type !== 'document' && (part.type !== 'text' || part.text !== ''))
      content.push(part)
    else if (!part)
      warnings.push({
        type: 'dropped',
        path: `output.message.content[${i}]`,
        message: `converse block ${memberOf(block)} has no IR equivalent`,
      })
  })
  const hasToolCall = content.some((part) => part.type === 'tool-call')
  const response: ir.Response = {
    id: newId('msg_', 24),
    model: '',
    content,
    finishReason: toFinishReason(body.stopReason, hasToolCall),
  }
  const usage = decodeUsage(body.usage)
  if (usage) response.usage = usage
  const extensions: Record<string, unknown> = {}
  for (const key in body) if (!known.has(key)) extensions[key] = body[key]
  if (Object.keys(extensions).length > 0) response.extensions = { converse: extensions }
  return { value: response, warnings }
}
