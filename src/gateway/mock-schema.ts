/**
 * The mock model's JSON values for JSON Schemas (tool arguments and structured output): deterministic, and valid
 * against the schemas clients send in practice — `type` (lower or Gemini's upper case, or a list), `enum`, `const`,
 * `required` and optional properties, `items`/`prefixItems` with `minItems`, `anyOf`/`oneOf`/`allOf`, local `$ref`s
 * (`#/$defs/…`, `#/definitions/…`), string `format`s and lengths, and numeric bounds.
 */
type Schema = Record<string, unknown>

const maxDepth = 32

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Resolves a local `$ref` against the root schema (`undefined` when it cannot). */
function resolveRef(ref: string, root: Schema): Schema | undefined {
  if (!ref.startsWith('#')) return undefined
  let node: unknown = root
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (!isSchema(node)) return undefined
    node = node[key]
  }
  return isSchema(node) ? node : undefined
}

function typeOf(node: Schema): string | undefined {
  const raw = Array.isArray(node.type) ? node.type.find((t) => String(t).toLowerCase() !== 'null') : node.type
  if (typeof raw === 'string') return raw.toLowerCase()
  if (isSchema(node.properties)) return 'object'
  if (node.items !== undefined || Array.isArray(node.prefixItems)) return 'array'
  return undefined
}

function sampleString(node: Schema, name: string): string {
  const format = typeof node.format === 'string' ? node.format : undefined
  let text =
    format === 'date-time'
      ? '2026-01-01T00:00:00Z'
      : format === 'date'
        ? '2026-01-01'
        : format === 'time'
          ? '00:00:00Z'
          : format === 'email'
            ? 'user@example.com'
            : format === 'uri' || format === 'url'
              ? 'https://example.com/'
              : format === 'uuid'
                ? '00000000-0000-4000-8000-000000000000'
                : `example ${name}`
  const min = typeof node.minLength === 'number' ? node.minLength : 0
  const max = typeof node.maxLength === 'number' ? node.maxLength : undefined
  if (text.length < min) text = text.padEnd(min, 'x')
  if (max !== undefined && text.length > max) text = text.slice(0, max)
  return text
}

function sampleNumber(node: Schema, integer: boolean): number {
  const min = typeof node.minimum === 'number' ? node.minimum : undefined
  const exclusiveMin = typeof node.exclusiveMinimum === 'number' ? node.exclusiveMinimum : undefined
  const max = typeof node.maximum === 'number' ? node.maximum : undefined
  const exclusiveMax = typeof node.exclusiveMaximum === 'number' ? node.exclusiveMaximum : undefined
  let value = 1
  if (min !== undefined && value < min) value = min
  if (exclusiveMin !== undefined && value <= exclusiveMin) value = exclusiveMin + 1
  if (max !== undefined && value > max) value = max
  if (exclusiveMax !== undefined && value >= exclusiveMax) value = exclusiveMax - (integer ? 1 : 0.5)
  return integer ? Math.ceil(value - 1e-9) : value
}

/** A value valid against `schema` (best effort for what no client sends: `pattern`, `not`, `if`). */
export function sampleValue(schema: unknown, name = 'value', root: unknown = schema, depth = 0): unknown {
  if (!isSchema(schema) || depth > maxDepth) return `example ${name}`
  const rootSchema = isSchema(root) ? root : schema
  if (typeof schema.$ref === 'string') {
    const target = resolveRef(schema.$ref, rootSchema)
    return target ? sampleValue(target, name, rootSchema, depth + 1) : `example ${name}`
  }
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const merged: Schema = {}
    for (const part of schema.allOf) if (isSchema(part)) Object.assign(merged, part)
    const { allOf: _allOf, ...rest } = schema
    return sampleValue({ ...merged, ...rest }, name, rootSchema, depth + 1)
  }
  for (const key of ['anyOf', 'oneOf']) {
    const options = schema[key]
    if (Array.isArray(options) && options.length > 0) {
      const first = options.find((o) => !(isSchema(o) && String(o.type).toLowerCase() === 'null')) ?? options[0]
      return sampleValue(first, name, rootSchema, depth + 1)
    }
  }
  switch (typeOf(schema)) {
    case 'integer':
      return sampleNumber(schema, true)
    case 'number':
      return sampleNumber(schema, false)
    case 'boolean':
      return true
    case 'null':
      return null
    case 'array':
      return sampleArray(schema, name, rootSchema, depth)
    case 'object':
      return sampleObject(schema, rootSchema, depth)
    default:
      return sampleString(schema, name)
  }
}

function sampleArray(schema: Schema, name: string, root: Schema, depth: number): unknown[] {
  const out: unknown[] = []
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : []
  for (const item of prefix) out.push(sampleValue(item, name, root, depth + 1))
  const min = typeof schema.minItems === 'number' ? schema.minItems : 1
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : Number.POSITIVE_INFINITY
  while (out.length < Math.min(Math.max(min, prefix.length, 1), max))
    out.push(sampleValue(schema.items, name, root, depth + 1))
  return out
}

/** An object with every required property (and, for strict schemas that list all, every property). */
export function sampleObject(schema: Schema, root: Schema = schema, depth = 0): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {}
  const required = Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === 'string') : []
  const out: Record<string, unknown> = {}
  for (const key of required) out[key] = sampleValue(properties[key], key, root, depth + 1)
  return out
}
