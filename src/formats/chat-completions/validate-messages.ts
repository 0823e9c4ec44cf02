/**
 * Hand-written single-pass validation of `messages` (most of a request's bytes), in place. Reports exactly the issues
 * (paths and messages) the former zod schema did, including its union rule (a bad content array reports its first
 * deepest issue only). Each check pushes paths relative to what it checks and its caller prefixes them, so paths are
 * built only on failure and a valid `messages` array allocates nothing but the (empty) result.
 */

import { isRecord } from '../../shared/is-record.js'
import type { Problem } from '../../shared/schema.js'
import { describe, stringProblem, typeProblem } from '../../shared/wire-problem.js'

type Json = Record<string, unknown>

/** Prefixes the paths of the problems pushed since `start`. */
function prefix(out: Problem[], start: number, ...keys: Array<string | number>): void {
  for (let i = start; i < out.length; i++) (out[i] as Problem).path.unshift(...keys)
}

function typeProblemAt(out: Problem[], path: Array<string | number>, expected: string, v: unknown): undefined {
  out.push(typeProblem(path, expected, v))
}

function str(out: Problem[], o: Json, key: string, mode: 0 | 1 | 2): undefined {
  const found = stringProblem(o, key, mode)
  if (found) out.push(found)
}

function obj(out: Problem[], o: Json, key: string): Json | undefined {
  const v = o[key]
  if (isRecord(v)) return v
  typeProblemAt(out, [key], 'object', v)
  return undefined
}

function badDiscriminator(out: Problem[], path: Array<string | number>, v: unknown): undefined {
  out.push({ path, message: `invalid value (${describe(v)})` })
}

const userTypes = new Set(['text', 'image_url', 'input_audio', 'file'])
const assistantTypes = new Set(['text', 'refusal'])
const details = new Set(['auto', 'low', 'high'])

/** One content part; kind 0 = text only, 1 = user, 2 = assistant. */
function checkPart(out: Problem[], part: unknown, kind: 0 | 1 | 2): undefined {
  if (!isRecord(part)) return typeProblemAt(out, [], 'object', part)
  const type = part.type
  if (kind === 0) {
    if (type !== 'text')
      out.push({ path: ['type'], message: `expected one of "text", received ${JSON.stringify(type)}` })
    return str(out, part, 'text', 0)
  }
  if (typeof type !== 'string' || !(kind === 1 ? userTypes : assistantTypes).has(type)) {
    return badDiscriminator(out, ['type'], type)
  }
  if (type === 'text') return str(out, part, 'text', 0)
  if (type === 'refusal') return str(out, part, 'refusal', 0)
  const inner = obj(out, part, type)
  if (!inner) return
  const start = out.length
  if (type === 'image_url') {
    str(out, inner, 'url', 0)
    const detail = inner.detail
    if (detail !== undefined && !details.has(detail as string)) {
      out.push({
        path: ['detail'],
        message: `expected one of "auto", "low", "high", received ${JSON.stringify(detail)}`,
      })
    }
  } else if (type === 'input_audio') {
    str(out, inner, 'data', 0)
    str(out, inner, 'format', 0)
  } else {
    str(out, inner, 'file_data', 1)
    str(out, inner, 'file_id', 1)
    str(out, inner, 'filename', 1)
  }
  prefix(out, start, type)
}

/** `message.content` as zod's union of string | array: one issue, the first deepest, when the array has any. */
function checkContent(out: Problem[], message: Json, kind: 0 | 1 | 2, nullable: boolean): undefined {
  const content = message.content
  if (typeof content === 'string' || (nullable && (content === null || content === undefined))) return
  if (!Array.isArray(content)) {
    out.push({ path: ['content'], message: `expected string or array, received ${describe(content)}` })
    return
  }
  const start = out.length
  for (let i = 0; i < content.length; i++) {
    const part = content[i]
    // fast path for the common text part
    if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') continue
    const before = out.length
    checkPart(out, part, kind)
    prefix(out, before, 'content', i)
  }
  if (out.length === start) return
  let best = out[start] as Problem
  for (let i = start; i < out.length; i++)
    if ((out[i] as Problem).path.length > best.path.length) best = out[i] as Problem
  out.length = start
  out.push(best)
}

function checkFunctionCall(out: Problem[], fn: Json): void {
  str(out, fn, 'name', 0)
  str(out, fn, 'arguments', 0)
}

function checkToolCalls(out: Problem[], calls: unknown): undefined {
  if (calls === undefined || calls === null) return
  if (!Array.isArray(calls)) return typeProblemAt(out, ['tool_calls'], 'array', calls)
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]
    const start = out.length
    if (!isRecord(call)) typeProblemAt(out, [], 'object', call)
    else if (call.type !== 'function' && call.type !== 'custom') badDiscriminator(out, ['type'], call.type)
    else {
      str(out, call, 'id', 0)
      const inner = obj(out, call, call.type)
      if (inner) {
        const before = out.length
        if (call.type === 'function') checkFunctionCall(out, inner)
        else {
          str(out, inner, 'name', 0)
          str(out, inner, 'input', 0)
        }
        prefix(out, before, call.type)
      }
    }
    prefix(out, start, 'tool_calls', i)
  }
}

/** Every problem in `messages`, in the order zod reported them; empty when valid. */
export function checkMessages(messages: unknown): Problem[] {
  const out: Problem[] = []
  if (!Array.isArray(messages)) {
    typeProblemAt(out, [], 'array', messages)
    return out
  }
  for (let m = 0; m < messages.length; m++) {
    const message = messages[m]
    const start = out.length
    if (!isRecord(message)) typeProblemAt(out, [], 'object', message)
    else checkMessage(out, message)
    prefix(out, start, m)
  }
  return out
}

function checkMessage(out: Problem[], message: Json): void {
  switch (message.role) {
    case 'system':
    case 'developer':
      checkContent(out, message, 0, false)
      str(out, message, 'name', 2)
      break
    case 'user':
      checkContent(out, message, 1, false)
      str(out, message, 'name', 2)
      break
    case 'assistant': {
      checkContent(out, message, 2, true)
      str(out, message, 'name', 2)
      str(out, message, 'refusal', 2)
      // The reasoning carrier's text (DeepSeek/vLLM/OpenRouter convention) is a string when present.
      str(out, message, 'reasoning_content', 2)
      checkToolCalls(out, message.tool_calls)
      const fn = message.function_call
      if (fn !== undefined && fn !== null) {
        if (isRecord(fn)) {
          const at = out.length
          checkFunctionCall(out, fn)
          prefix(out, at, 'function_call')
        } else typeProblemAt(out, ['function_call'], 'object', fn)
      }
      break
    }
    case 'tool':
      str(out, message, 'tool_call_id', 0)
      checkContent(out, message, 0, false)
      break
    case 'function':
      str(out, message, 'name', 0)
      str(out, message, 'content', 2)
      if (message.content === undefined) typeProblemAt(out, ['content'], 'string', undefined)
      break
    default:
      badDiscriminator(out, ['role'], message.role)
  }
}
