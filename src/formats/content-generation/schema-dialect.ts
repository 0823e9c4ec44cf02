/**
 * JSON Schema ⇄ Gemini schema dialects (policy 5, wire-formats.md §3.11, §5.3 item 13).
 *
 * - `fromOpenApiSchema`: Gemini's OpenAPI-subset `parameters`/`responseSchema` → JSON Schema.
 * - `toOpenApiSchema`: JSON Schema → the OpenAPI subset (`parameters`/`responseSchema`): refs inlined, `const`
 *   → one-item string `enum`, type arrays → `nullable`, every keyword the Schema object lacks removed and
 *   reported. Never emits a typeless node (a node has a `type` or an `anyOf`).
 * - `toGeminiJsonSchema`: JSON Schema → the subset `parametersJsonSchema`/`responseJsonSchema` honours.
 *
 * Exclusive bounds become inclusive ones (`changed`) in both directions to Gemini: an approximate bound is
 * closer to the intent than none.
 */
import type * as ir from '../../ir/index.js'
import { isRecord as isNode } from '../../shared/is-record.js'
import { constToEnum, exclusiveBound, join, withAllOf } from './schema-json.js'

export { toGeminiJsonSchema } from './schema-json.js'

type Node = Record<string, unknown>
type Warnings = ir.Warning[]

const intStringKeys = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'])

/** Gemini OpenAPI dialect → JSON Schema (lowercase types, `nullable` → type array / anyOf with null). */
export function fromOpenApiSchema(schema: unknown): ir.JsonSchema {
  if (!isNode(schema)) return {}
  const out: Node = {}
  for (const key in schema) {
    const value = schema[key]
    switch (key) {
      case 'type':
        if (typeof value === 'string' && value !== 'TYPE_UNSPECIFIED') out.type = value.toLowerCase()
        break
      case 'nullable':
      case 'propertyOrdering':
        break
      case 'format':
        if (value !== 'enum') out.format = value
        break
      case 'properties':
        if (isNode(value)) {
          const properties: Node = {}
          for (const name in value) properties[name] = fromOpenApiSchema(value[name])
          out.properties = properties
        } else out.properties = value
        break
      case 'items':
        out.items = fromOpenApiSchema(value)
        break
      case 'anyOf':
        out.anyOf = Array.isArray(value) ? value.map(fromOpenApiSchema) : value
        break
      default:
        out[key] = intStringKeys.has(key) && typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value
    }
  }
  // `format: "enum"` carries numeric enums as strings: give them back their type.
  if (schema.format === 'enum' && (out.type === 'integer' || out.type === 'number') && Array.isArray(out.enum))
    out.enum = out.enum.map((v) =>
      typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v,
    )
  if (schema.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null']
    else if (Array.isArray(out.anyOf)) out.anyOf = [...out.anyOf, { type: 'null' }]
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null]
  }
  return out
}

// ---------------------------------------------------------------------------------------------------------
// JSON Schema → OpenAPI subset

const openApiKeys = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'properties',
  'required',
  'propertyOrdering',
  'items',
  'anyOf',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'pattern',
  'example',
  'default',
])

interface Context {
  root: string
  defs: Node
  warnings: Warnings
  stack: string[]
}

function resolveRef(ref: string, ctx: Context): Node | undefined {
  const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)
  if (!match?.[1]) return undefined
  let name: string
  try {
    name = decodeURIComponent(match[1].replace(/~1/g, '/').replace(/~0/g, '~'))
  } catch {
    return undefined // a malformed escape names no definition
  }
  const found = ctx.defs[name]
  return isNode(found) ? found : undefined
}

const upper = (type: unknown): string | undefined => (typeof type === 'string' ? type.toUpperCase() : undefined)

function typeOfValue(value: unknown): string {
  if (typeof value === 'string') return 'STRING'
  if (typeof value === 'boolean') return 'BOOLEAN'
  if (typeof value === 'number') return Number.isInteger(value) ? 'INTEGER' : 'NUMBER'
  if (Array.isArray(value)) return 'ARRAY'
  return 'OBJECT'
}

function convertOpenApi(input: unknown, path: string, ctx: Context): Node {
  if (!isNode(input)) {
    ctx.warnings.push({ type: 'changed', path, message: 'A boolean or non-object schema became type STRING' })
    return { type: 'STRING' }
  }
  let node = input
  // $ref: inline the definition, siblings override it.
  if (typeof node.$ref === 'string') {
    const ref = node.$ref
    const target = resolveRef(ref, ctx)
    const { $ref: _ref, ...siblings } = node
    if (!target) {
      ctx.warnings.push({ type: 'dropped', path: join(path, '$ref'), message: `Unresolvable $ref ${ref} removed` })
      node = siblings
    } else if (ctx.stack.includes(ref)) {
      ctx.warnings.push({
        type: 'dropped',
        path: join(path, '$ref'),
        message: `Recursive $ref ${ref} cut: the OpenAPI schema dialect cannot express cycles`,
      })
      const cut: Node = { type: upper(target.type) ?? 'OBJECT' }
      if (typeof target.description === 'string') cut.description = target.description
      return cut
    } else {
      ctx.stack.push(ref)
      const result = convertOpenApi({ ...target, ...siblings }, path, ctx)
      ctx.stack.pop()
      return result
    }
  }
  node = withAllOf(node, path, ctx.warnings, (ref) => resolveRef(ref, ctx))
  const out: Node = {}
  let nullable = node.nullable === true
  for (const key in node) {
    const value = node[key]
    const at = join(path, key)
    switch (key) {
      case 'type': {
        if (Array.isArray(value)) {
          const types = value.filter((t) => t !== 'null')
          if (types.length < value.length) nullable = true
          if (types.length === 1) out.type = upper(types[0])
          else if (types.length > 1) out.anyOf = types.map((t) => ({ type: upper(t) }))
        } else if (value !== 'null') out.type = upper(value)
        else nullable = true
        break
      }
      case 'const':
        constToEnum(node, value, out, at, ctx.warnings)
        break
      case 'oneOf':
      case 'anyOf': {
        if (!Array.isArray(value)) break
        if (key === 'oneOf')
          ctx.warnings.push({ type: 'changed', path: at, message: 'oneOf became anyOf (exclusivity is lost)' })
        const members: Node[] = []
        value.forEach((member, i) => {
          if (isNode(member) && member.type === 'null' && Object.keys(member).length === 1) nullable = true
          else members.push(convertOpenApi(member, join(at, i), ctx))
        })
        if (members.length === 1 && members[0]) Object.assign(out, members[0], out)
        else if (members.length > 1) out.anyOf = [...(Array.isArray(out.anyOf) ? out.anyOf : []), ...members]
        break
      }
      case 'properties': {
        if (!isNode(value)) break
        const properties: Node = {}
        for (const name in value) properties[name] = convertOpenApi(value[name], join(at, name), ctx)
        out.properties = properties
        break
      }
      case 'items':
        if (Array.isArray(value)) {
          ctx.warnings.push({ type: 'changed', path: at, message: 'Tuple items reduced to their first schema' })
          out.items = convertOpenApi(value[0] ?? {}, join(at, 0), ctx)
        } else out.items = convertOpenApi(value, at, ctx)
        break
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        exclusiveBound(node, key, value, out, at, ctx.warnings)
        break
      case 'enum':
      case 'nullable':
      case 'allOf':
        break
      case '$defs':
      case 'definitions':
        if (path === ctx.root)
          ctx.warnings.push({ type: 'changed', path: at, message: 'Definitions inlined where referenced' })
        break
      default:
        if (openApiKeys.has(key)) out[key] = value
        else
          ctx.warnings.push({
            type: 'dropped',
            path: at,
            message: `${key} is not supported by the OpenAPI schema dialect; removed`,
          })
    }
  }
  if (Array.isArray(node.enum)) out.enum = node.enum
  if (Array.isArray(out.enum)) normaliseEnum(out, path, ctx)
  if (nullable) out.nullable = true
  if (out.type === undefined && out.anyOf === undefined) out.type = inferOpenApiType(out, path, ctx)
  return out
}

/** The Schema object's `enum` is string-only: other values become strings with `format: "enum"`. */
function normaliseEnum(out: Node, path: string, ctx: Context): void {
  const values = out.enum as unknown[]
  if (values.includes(null)) out.nullable = true
  const kept = values.filter((v) => v !== null)
  if (out.type === undefined && kept.length > 0) out.type = typeOfValue(kept[0])
  if (kept.every((v) => typeof v === 'string')) {
    out.enum = kept
    return
  }
  out.enum = kept.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))
  if (out.type !== 'STRING') out.format = 'enum'
  ctx.warnings.push({ type: 'changed', path: join(path, 'enum'), message: 'Non-string enum values became strings' })
}

function inferOpenApiType(out: Node, path: string, ctx: Context): string {
  if (out.properties !== undefined) return 'OBJECT'
  if (out.items !== undefined) return 'ARRAY'
  ctx.warnings.push({
    type: 'changed',
    path: path || '$',
    message: 'A schema without a type became type STRING (the OpenAPI dialect needs a type)',
  })
  return 'STRING'
}

/** JSON Schema → Gemini's OpenAPI `parameters`/`responseSchema` dialect. `path` prefixes warning paths. */
export function toOpenApiSchema(jsonSchema: unknown, path = ''): { schema: Node; warnings: Warnings } {
  const warnings: Warnings = []
  const defs: Node = {}
  if (isNode(jsonSchema)) {
    if (isNode(jsonSchema.definitions)) Object.assign(defs, jsonSchema.definitions)
    if (isNode(jsonSchema.$defs)) Object.assign(defs, jsonSchema.$defs)
  }
  const schema = convertOpenApi(jsonSchema, path, { root: path, defs, warnings, stack: [] })
  return { schema, warnings }
}
