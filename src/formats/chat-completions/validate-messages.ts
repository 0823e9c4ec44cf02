/**
 * Hand-written single-pass validation of `messages` (most of a request's bytes), in place. Reports exactly the issues
 * (paths and messages) the former zod schema did, including its union rule (a bad content array reports its first
 * deepest issue only).
 */
import type { Problem } from '../../shared/schema.js'

type Json = Record<string, unknown>
type Path = Array<string | number>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

function describe(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  return typeof v
}

function typeProblem(out: Problem[], path: Path, expected: string, v: unknown): undefined {
  out.push({
    path,
    message:
      v === undefined
        ? `required field is missing (expected ${expected})`
        : `expected ${expected}, received ${describe(v)}`,
  })
}

function str(out: Problem[], o: Json, key: string, at: () => Path, mode: 0 | 1 | 2): undefined {
  const v = o[key]
  if (typeof v === 'string') return
  if (v === undefined && mode !== 0) return
  if (v === null && mode === 2) return
  typeProblem(out, [...at(), key], 'string', v)
}

function obj(out: Problem[], o: Json, key: string, at: () => Path): Json | undefined {
  const v = o[key]
  if (isObject(v)) return v
  typeProblem(out, [...at(), key], 'object', v)
  return undefined
}

function badDiscriminator(out: Problem[], path: Path, v: unknown): undefined {
  out.push({ path, message: `invalid value (${describe(v)})` })
}

const userTypes = new Set(['text', 'image_url', 'input_audio', 'file'])
const assistantTypes = new Set(['text', 'refusal'])
const details = new Set(['auto', 'low', 'high'])

/** One content part; kind 0 = text only, 1 = user, 2 = assistant. */
function checkPart(out: Problem[], part: unknown, at: () => Path, kind: 0 | 1 | 2): undefined {
  if (!isObject(part)) return typeProblem(out, at(), 'object', part)
  const type = part.type
  if (kind === 0) {
    if (type !== 'text')
      out.push({ path: [...at(), 'type'], message: `expected one of "text", received ${JSON.stringify(type)}` })
    return str(out, part, 'text', at, 0)
  }
  if (typeof type !== 'string' || !(kind === 1 ? userTypes : assistantTypes).has(type)) {
    return badDiscriminator(out, [...at(), 'type'], type)
  }
  if (type === 'text') return str(out, part, 'text', at, 0)
  if (type === 'refusal') return str(out, part, 'refusal', at, 0)
  if (type === 'image_url') {
    const image = obj(out, part, 'image_url', at)
    if (!image) return
    const sub = () => [...at(), 'image_url']
    str(out, image, 'url', sub, 0)
    const detail = image.detail
    if (detail !== undefined && !details.has(detail as string)) {
      out.push({
        path: [...sub(), 'detail'],
        message: `expected one of "auto", "low", "high", received ${JSON.stringify(detail)}`,
      })
    }
    return
  }
  if (type === 'input_audio') {
    const audio = obj(out, part, 'input_audio', at)
    if (!audio) return
    const sub = () => [...at(), 'input_audio']
    str(out, audio, 'data', sub, 0)
    return str(out, audio, 'format', sub, 0)
  }
  const file = obj(out, part, 'file', at)
  if (!file) return
  const sub = () => [...at(), 'file']
  str(out, file, 'file_data', sub, 1)
  str(out, file, 'file_id', sub, 1)
  str(out, file, 'filename', sub, 1)
}

/** `content` as zod's union of string | array: one issue, the first deepest, when the array has any. */
function checkContent(out: Problem[], m: number, content: unknown, kind: 0 | 1 | 2, nullable: boolean): undefined {
  if (typeof content === 'string' || (nullable && (content === null || content === undefined))) return
  if (!Array.isArray(content)) {
    out.push({ path: [m, 'content'], message: `expected string or array, received ${describe(content)}` })
    return
  }
  let inner: Problem[] | undefined
  for (let i = 0; i < content.length; i++) {
    const part = content[i]
    // fast path for the common text part
    if (isObject(part) && part.type === 'text' && typeof part.text === 'string') continue
    inner ??= []
    checkPart(inner, part, () => [m, 'content', i], kind)
  }
  if (!inner || inner.length === 0) return
  let best = inner[0] as Problem
  for (const p of inner) if (p.path.length > best.path.length) best = p
  out.push(best)
}

function checkFunctionCall(out: Problem[], fn: Json, at: () => Path): undefined {
  str(out, fn, 'name', at, 0)
  str(out, fn, 'arguments', at, 0)
}

function checkToolCalls(out: Problem[], m: number, calls: unknown): undefined {
  if (calls === undefined || calls === null) return
  if (!Array.isArray(calls)) return typeProblem(out, [m, 'tool_calls'], 'array', calls)
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]
    const at = () => [m, 'tool_calls', i]
    if (!isObject(call)) {
      typeProblem(out, at(), 'object', call)
      continue
    }
    const type = call.type
    if (type !== 'function' && type !== 'custom') {
      badDiscriminator(out, [...at(), 'type'], type)
      continue
    }
    str(out, call, 'id', at, 0)
    const inner = obj(out, call, type, at)
    if (!inner) continue
    const sub = () => [...at(), type]
    if (type === 'function') checkFunctionCall(out, inner, sub)
    else {
      str(out, inner, 'name', sub, 0)
      str(out, inner, 'input', sub, 0)
    }
  }
}

/** Every problem in `messages`, in the order zod reported them; empty when valid. */
export function checkMessages(messages: unknown): Problem[] {
  const out: Problem[] = []
  if (!Array.isArray(messages)) {
    typeProblem(out, [], 'array', messages)
    return out
  }
  for (let m = 0; m < messages.length; m++) {
    const message = messages[m]
    if (!isObject(message)) {
      typeProblem(out, [m], 'object', message)
      continue
    }
    const at = () => [m]
    switch (message.role) {
      case 'system':
      case 'developer':
        checkContent(out, m, message.content, 0, false)
        str(out, message, 'name', at, 2)
        break
      case 'user':
        checkContent(out, m, message.content, 1, false)
        str(out, message, 'name', at, 2)
        break
      case 'assistant': {
        checkContent(out, m, message.content, 2, true)
        str(out, message, 'name', at, 2)
        str(out, message, 'refusal', at, 2)
        // The reasoning carrier's text (DeepSeek/vLLM/OpenRouter convention) is a string when present.
        str(out, message, 'reasoning_content', at, 2)
        checkToolCalls(out, m, message.tool_calls)
        const fn = message.function_call
        if (fn !== undefined && fn !== null) {
          if (isObject(fn)) checkFunctionCall(out, fn, () => [m, 'function_call'])
          else typeProblem(out, [m, 'function_call'], 'object', fn)
        }
        break
      }
      case 'tool':
        str(out, message, 'tool_call_id', at, 0)
        checkContent(out, m, message.content, 0, false)
        break
      case 'function':
        str(out, message, 'name', at, 0)
        str(out, message, 'content', at, 2)
        if (message.content === undefined) typeProblem(out, [m, 'content'], 'string', undefined)
        break
      default:
        badDiscriminator(out, [m, 'role'], message.role)
    }
  }
  return out
}
