/**
 * JSON Schema → the subset Gemini's `parametersJsonSchema`/`responseJsonSchema` honour (wire-formats.md §3.11):
 * `$id $defs $ref $anchor type format title description enum items prefixItems minItems maxItems minimum
 * maximum anyOf oneOf properties additionalProperties required propertyOrdering`. What maps is rewritten
 * (`const` → `enum`, exclusive bounds → inclusive, `definitions` → `$defs`, simple `allOf` merged), the rest is
 * removed with a warning each. Typeless nodes get a type when one is inferable (properties, items, enum).
 */
import type * as ir from '../../ir/index.js'
import { isRecord as isNode } from '../../shared/is-record.js'

type Node = Record<string, unknown>

export const join = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`

const passKeys = new Set([
  '$id',
  '$anchor',
  'format',
  'title',
  'description',
  'enum',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'required',
  'propertyOrdering',
  'type',
])

const allOfKeys = new Set(['type', 'properties', 'required', 'title', 'description', 'additionalProperties'])

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return Array.isArray(value) ? 'array' : 'object'
}

/** Merges `allOf` members into the node when every member is a plain object schema; undefined otherwise. */
function mergeAllOf(node: Node, members: unknown[], resolve?: (ref: string) => Node | undefined): Node | undefined {
  const merged: Node = { ...node }
  delete merged.allOf
  for (const raw of members) {
    let member = raw
    if (resolve && isNode(member) && typeof member.$ref === 'string') member = resolve(member.$ref)
    if (!isNode(member)) return undefined
    for (const key in member) if (!allOfKeys.has(key)) return undefined
    if (member.type !== undefined && merged.type !== undefined && member.type !== merged.type) return undefined
    if (member.type !== undefined) merged.type = member.type
    if (isNode(member.properties))
      merged.properties = { ...(isNode(merged.properties) ? merged.properties : {}), ...member.properties }
    if (Array.isArray(member.required))
      merged.required = [...(Array.isArray(merged.required) ? merged.required : []), ...member.required]
    for (const key of ['title', 'description', 'additionalProperties'])
      if (member[key] !== undefined && merged[key] === undefined) merged[key] = member[key]
  }
  return merged
}

/**
 * The node with its `allOf` merged in (a `changed` warning), or as it is with the `allOf` reported `dropped` when a
 * member is not a simple object schema. Both dialects (`resolve` inlines a member's `$ref` for the OpenAPI one).
 */
export function withAllOf(
  node: Node,
  path: string,
  warnings: ir.Warning[],
  resolve?: (ref: string) => Node | undefined,
): Node {
  if (!Array.isArray(node.allOf)) return node
  const merged = mergeAllOf(node, node.allOf, resolve)
  const at = join(path, 'allOf')
  if (merged) warnings.push({ type: 'changed', path: at, message: 'allOf merged into one schema' })
  else warnings.push({ type: 'dropped', path: at, message: 'allOf is not supported; removed' })
  return merged ?? node
}

/** `const` → a one-item `enum` (unless the node has one), in both dialects. */
export function constToEnum(node: Node, value: unknown, out: Node, at: string, warnings: ir.Warning[]): void {
  if (node.enum === undefined) out.enum = [value]
  warnings.push({ type: 'changed', path: at, message: 'const became a one-item enum' })
}

/** An exclusive bound → the inclusive one when the node has none (approximate, `changed`), else `dropped`. */
export function exclusiveBound(
  node: Node,
  key: 'exclusiveMinimum' | 'exclusiveMaximum',
  value: unknown,
  out: Node,
  at: string,
  warnings: ir.Warning[],
): void {
  const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum'
  if (typeof value === 'number' && node[bound] === undefined) {
    out[bound] = value
    warnings.push({ type: 'changed', path: at, message: `${key} became an inclusive ${bound}` })
  } else warnings.push({ type: 'dropped', path: at, message: `${key} is not supported; removed` })
}

function rewriteRef(ref: string): string {
  return ref.startsWith('#/definitions/') ? `#/$defs/${ref.slice('#/definitions/'.length)}` : ref
}

function convert(input: unknown, path: string, warnings: ir.Warning[]): unknown {
  if (typeof input === 'boolean') return input
  if (!isNode(input)) {
    warnings.push({ type: 'dropped', path, message: 'A non-object schema became {}' })
    return {}
  }
  const node = withAllOf(input, path, warnings)
  const out: Node = {}
  const hasRef = typeof node.$ref === 'string'
  for (const key in node) {
    const value = node[key]
    if (passKeys.has(key) && !hasRef) {
      out[key] = value
      continue
    }
    const at = join(path, key)
    if (hasRef && key !== '$ref' && !key.startsWith('$')) {
      warnings.push({ type: 'dropped', path: at, message: `${key} next to $ref is ignored by Gemini; removed` })
      continue
    }
    switch (key) {
      case '$ref':
        out.$ref = typeof value === 'string' ? rewriteRef(value) : value
        if (out.$ref !== value) warnings.push({ type: 'changed', path: at, message: '#/definitions/ became #/$defs/' })
        break
      case '$defs':
      case 'definitions':
      case 'properties': {
        if (!isNode(value)) break
        const target = key === 'properties' ? 'properties' : '$defs'
        const map: Node = isNode(out[target]) ? (out[target] as Node) : {}
        for (const name in value) map[name] = convert(value[name], join(at, name), warnings)
        out[target] = map
        if (key === 'definitions') warnings.push({ type: 'changed', path: at, message: 'definitions became $defs' })
        break
      }
      case 'items':
      case 'additionalProperties':
        out[key] = convert(value, at, warnings)
        break
      case 'prefixItems':
      case 'anyOf':
      case 'oneOf':
        out[key] = Array.isArray(value) ? value.map((member, i) => convert(member, join(at, i), warnings)) : value
        break
      case 'const':
        constToEnum(node, value, out, at, warnings)
        break
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        exclusiveBound(node, key, value, out, at, warnings)
        break
      case 'allOf':
        break
      default:
        if (passKeys.has(key)) out[key] = value
        else warnings.push({ type: 'dropped', path: at, message: `${key} is not honoured by Gemini; removed` })
    }
  }
  if (out.type === undefined && !hasRef && out.anyOf === undefined && out.oneOf === undefined) {
    if (out.properties !== undefined) out.type = 'object'
    else if (out.items !== undefined || out.prefixItems !== undefined) out.type = 'array'
    else if (Array.isArray(out.enum) && out.enum.length > 0) {
      const types = [...new Set(out.enum.map(jsonType))]
      out.type = types.length === 1 ? types[0] : types
    }
  }
  return out
}

/**
 * True when `convert` would give back an equal schema without a warning: only honoured keys, nothing to rewrite,
 * nothing to infer. Such a schema is passed through as-is (no copy).
 */
function isClean(input: unknown): boolean {
  if (typeof input === 'boolean') return true
  if (!isNode(input)) return false
  if (input.type === undefined) {
    // convert would infer a type when it can; a node with anyOf/oneOf or without anything to infer from stays.
    if (input.anyOf === undefined && input.oneOf === undefined) {
      if (input.properties !== undefined || input.items !== undefined || input.prefixItems !== undefined) return false
      if (Array.isArray(input.enum) && input.enum.length > 0) return false
    }
  }
  for (const key in input) {
    const value = input[key]
    switch (key) {
      case 'properties':
      case '$defs':
        if (!isNode(value)) return false
        for (const name in value) if (!isClean(value[name])) return false
        break
      case 'items':
      case 'additionalProperties':
        if (!isClean(value)) return false
        break
      case 'prefixItems':
      case 'anyOf':
      case 'oneOf':
        if (Array.isArray(value)) for (const member of value) if (!isClean(member)) return false
        break
      default:
        if (!passKeys.has(key)) return false
    }
  }
  return true
}

/** JSON Schema → `parametersJsonSchema`/`responseJsonSchema`. `path` prefixes warning paths. */
export function toGeminiJsonSchema(
  jsonSchema: unknown,
  path = '',
): { schema: Record<string, unknown>; warnings: ir.Warning[] } {
  const warnings: ir.Warning[] = []
  if (isNode(jsonSchema) && isClean(jsonSchema)) return { schema: jsonSchema, warnings }
  const converted = convert(jsonSchema, path, warnings)
  return { schema: isNode(converted) ? converted : {}, warnings }
}
