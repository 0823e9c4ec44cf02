/**
 * Hand-written validation of `contents` / `parts`. Contents are most of a request's bytes, so parts are checked here
 * in one allocation-free pass (benchmark target ≤ 1.5× plain JSON). Wired into the schemas as a check (`checked`,
 * shared/schema.ts), so errors still come out of `parseWire` with the full path
 * (`contents[1].parts[0].inlineData.data`). Unknown part fields pass (loose).
 */
import { isRecord as isObject } from '../../shared/is-record.js'
import type { Problem } from '../../shared/schema.js'
import { typeProblem as problem } from '../../shared/wire-problem.js'

type Json = Record<string, unknown>
type Path = Array<string | number>

/** Prefixes a problem's path (paths are built only on failure, so the happy path allocates nothing). */
function at(found: Problem | undefined, ...prefix: Path): Problem | undefined {
  if (found) found.path.unshift(...prefix)
  return found
}

function field(obj: Json, key: string, type: 'string' | 'boolean', required = false): Problem | undefined {
  const value = obj[key]
  if (typeof value === type || (value === undefined && !required)) return undefined
  return problem([key], type, value)
}

function objectField(obj: Json, key: string, nullable = false): Problem | undefined {
  const value = obj[key]
  if (value === undefined || isObject(value) || (nullable && value === null)) return undefined
  return problem([key], 'object', value)
}

function checkBlob(part: Json): Problem | undefined {
  const p = objectField(part, 'inlineData') ?? objectField(part, 'fileData')
  if (p) return p
  if (isObject(part.inlineData)) {
    const found = field(part.inlineData, 'mimeType', 'string', true) ?? field(part.inlineData, 'data', 'string', true)
    if (found) return at(found, 'inlineData')
  }
  if (isObject(part.fileData))
    return at(field(part.fileData, 'fileUri', 'string', true) ?? field(part.fileData, 'mimeType', 'string'), 'fileData')
  return undefined
}

function checkFunctionResponse(fr: Json): Problem | undefined {
  const found = field(fr, 'name', 'string', true) ?? objectField(fr, 'response', true) ?? field(fr, 'id', 'string')
  if (found || fr.parts === undefined) return found
  if (!Array.isArray(fr.parts)) return problem(['parts'], 'array', fr.parts)
  for (let i = 0; i < fr.parts.length; i++) {
    const inner = fr.parts[i]
    const bad = isObject(inner) ? checkBlob(inner) : problem([], 'object', inner)
    if (bad) return at(bad, 'parts', i)
  }
  return undefined
}

// ─── fast path ─────────────────────────────────────────────────────────────────────────────────────────────
// One pass over the keys a part actually has (usually one or two) instead of a lookup per possible field. It
// accepts exactly what the checks below accept; on a reject the ordered checks run again to name the problem.

const optionalString = (value: unknown) => value === undefined || typeof value === 'string'

function blobOk(value: unknown): boolean {
  return isObject(value) && typeof value.mimeType === 'string' && typeof value.data === 'string'
}

function fileOk(value: unknown): boolean {
  return isObject(value) && typeof value.fileUri === 'string' && optionalString(value.mimeType)
}

function mediaOk(part: Json): boolean {
  return (
    (part.inlineData === undefined || blobOk(part.inlineData)) && (part.fileData === undefined || fileOk(part.fileData))
  )
}

function responseOk(fr: unknown): boolean {
  if (!isObject(fr) || typeof fr.name !== 'string' || !optionalString(fr.id)) return false
  const response = fr.response
  if (response !== undefined && response !== null && !isObject(response)) return false
  const parts = fr.parts
  if (parts === undefined) return true
  if (!Array.isArray(parts)) return false
  for (let i = 0; i < parts.length; i++) {
    const inner: unknown = parts[i]
    if (!isObject(inner) || !mediaOk(inner)) return false
  }
  return true
}

function partOk(part: unknown, strict: boolean): boolean {
  if (!isObject(part)) return false
  for (const key in part) {
    const value = part[key]
    if (value === undefined) continue
    switch (key) {
      case 'text':
      case 'thoughtSignature':
        if (typeof value !== 'string') return false
        break
      case 'thought':
        if (typeof value !== 'boolean') return false
        break
      case 'inlineData':
        if (!blobOk(value)) return false
        break
      case 'fileData':
        if (!fileOk(value)) return false
        break
      case 'functionCall': {
        if (!isObject(value) || typeof value.name !== 'string' || !optionalString(value.id)) return false
        const args = value.args
        if (args !== undefined && args !== null && !isObject(args)) return false
        break
      }
      case 'functionResponse':
        if (!responseOk(value)) return false
        break
      default:
        if (strict && !partFields.has(key)) return false
    }
  }
  return true
}

/**
 * Every field of a `Part` (@google/genai's `Part`), in the API's camelCase and its proto snake_case spelling (the
 * service accepts both). Any other key is refused as the service refuses it ("Unknown name … Cannot find field"),
 * never dropped.
 */
const partFields = new Set(
  [
    'text',
    'thought',
    'thoughtSignature',
    'inlineData',
    'fileData',
    'functionCall',
    'functionResponse',
    'executableCode',
    'codeExecutionResult',
    'videoMetadata',
    'mediaResolution',
    'partMetadata',
    'toolCall',
    'toolResponse',
    'audioTranscription',
    'mediaProcessing',
    'speechMetadata',
  ].flatMap((name) => [name, name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]),
)

function unknownField(part: Record<string, unknown>): Problem | undefined {
  for (const key in part) {
    if (part[key] !== undefined && !partFields.has(key))
      return {
        path: [key],
        message: `unknown field '${key.length > 40 ? `${key.slice(0, 40)}…` : key}' (not a field of Part)`,
      }
  }
  return undefined
}

/**
 * Checks one part; the problem's path is relative to the part. `strict` (requests) refuses unknown fields; a response
 * from the service may carry fields newer than this codec, which are kept, not refused.
 */
export function checkPart(part: unknown, strict = true): Problem | undefined {
  return partOk(part, strict) ? undefined : explainPart(part, strict)
}

/** The first problem of a part, in a fixed field order. */
function explainPart(part: unknown, strict: boolean): Problem | undefined {
  if (!isObject(part)) return problem([], 'object', part)
  const p =
    field(part, 'text', 'string') ??
    field(part, 'thought', 'boolean') ??
    field(part, 'thoughtSignature', 'string') ??
    checkBlob(part) ??
    objectField(part, 'functionCall') ??
    objectField(part, 'functionResponse') ??
    (strict ? unknownField(part) : undefined)
  if (p) return p
  const fc = part.functionCall
  if (isObject(fc))
    return at(
      field(fc, 'name', 'string', true) ?? objectField(fc, 'args', true) ?? field(fc, 'id', 'string'),
      'functionCall',
    )
  if (isObject(part.functionResponse)) return at(checkFunctionResponse(part.functionResponse), 'functionResponse')
  return undefined
}

export function checkParts(parts: unknown, strict = true): Problem | undefined {
  if (!Array.isArray(parts)) return problem([], 'array', parts)
  for (let i = 0; i < parts.length; i++) {
    const found = checkPart(parts[i], strict)
    if (found) return at(found, i)
  }
  return undefined
}

/** The roles a request's Content may have (the service answers "Please use a valid role: user, model."); a
 * `systemInstruction`'s role is ignored by the service, and `system` is seen there too. */
const contentRoles = new Set(['user', 'model'])
const systemRoles = new Set(['user', 'model', 'system'])

/** Checks a Content (`{role?, parts}`); `parts` may be absent (and unknown part fields kept) in a response candidate. */
export function checkContent(content: unknown, partsRequired = true, system = false): Problem | undefined {
  if (!isObject(content)) return problem([], 'object', content)
  const role = field(content, 'role', 'string')
  if (role) return role
  const roles = system ? systemRoles : contentRoles
  if (partsRequired && content.role !== undefined && !roles.has(content.role as string))
    return {
      path: ['role'],
      message: `expected one of ${[...roles].join(', ')}, received ${JSON.stringify(String(content.role).slice(0, 40))}`,
    }
  if (content.parts === undefined && !partsRequired) return undefined
  return at(checkParts(content.parts, partsRequired), 'parts')
}

export function checkContents(contents: unknown): Problem | undefined {
  if (!Array.isArray(contents)) return problem([], 'array', contents)
  for (let i = 0; i < contents.length; i++) {
    const found = checkContent(contents[i])
    if (found) return at(found, i)
  }
  return undefined
}
