import { describe, expect, it } from 'vitest'
import { fromOpenApiSchema, toOpenApiSchema } from './schema-dialect.js'
import { toGeminiJsonSchema } from './schema-json.js'

/** A schema as a real agent sends it (zod-to-json-schema / MCP style). */
const agentSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File path' },
    mode: { const: 'overwrite' },
    encoding: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
    limit: { type: ['integer', 'null'], exclusiveMinimum: 0 },
    options: { $ref: '#/$defs/Options' },
    headers: { type: 'object', propertyNames: { pattern: '^[a-z-]+$' }, additionalProperties: { type: 'string' } },
  },
  required: ['path', 'mode'],
  additionalProperties: false,
  $defs: {
    Options: { type: 'object', properties: { recursive: { type: 'boolean' } }, additionalProperties: false },
  },
}

/** Every node has a `type` or an `anyOf` (policy 5: never a typeless node). */
function typelessNodes(node: unknown, path = '$'): string[] {
  if (typeof node !== 'object' || node === null) return []
  const schema = node as Record<string, unknown>
  const found = schema.type === undefined && schema.anyOf === undefined ? [path] : []
  const properties = (schema.properties ?? {}) as Record<string, unknown>
  for (const [name, child] of Object.entries(properties)) found.push(...typelessNodes(child, `${path}.${name}`))
  if (schema.items) found.push(...typelessNodes(schema.items, `${path}.items`))
  if (Array.isArray(schema.anyOf))
    for (const [i, m] of schema.anyOf.entries()) found.push(...typelessNodes(m, `${path}.anyOf[${i}]`))
  return found
}

describe('toOpenApiSchema', () => {
  it('transpiles a real agent schema and reports every removal', () => {
    const { schema, warnings } = toOpenApiSchema(agentSchema, 'tools[0].parameters')
    expect(schema).toEqual({
      type: 'OBJECT',
      properties: {
        path: { type: 'STRING', description: 'File path' },
        mode: { type: 'STRING', enum: ['overwrite'] },
        encoding: { type: 'STRING', nullable: true, default: null },
        limit: { type: 'INTEGER', nullable: true, minimum: 0 },
        options: { type: 'OBJECT', properties: { recursive: { type: 'BOOLEAN' } } },
        headers: { type: 'OBJECT' },
      },
      required: ['path', 'mode'],
    })
    const p = 'tools[0].parameters'
    expect(warnings.map((w) => [w.type, w.path])).toEqual([
      ['dropped', `${p}.$schema`],
      ['changed', `${p}.properties.mode.const`],
      ['changed', `${p}.properties.limit.exclusiveMinimum`],
      ['dropped', `${p}.properties.options.additionalProperties`],
      ['dropped', `${p}.properties.headers.propertyNames`],
      ['dropped', `${p}.properties.headers.additionalProperties`],
      ['dropped', `${p}.additionalProperties`],
      ['changed', `${p}.$defs`],
    ])
    expect(typelessNodes(schema)).toEqual([])
  })

  it('cuts recursive $refs with a warning', () => {
    const { schema, warnings } = toOpenApiSchema({
      $ref: '#/$defs/Node',
      $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } },
    })
    expect(schema).toEqual({ type: 'OBJECT', properties: { child: { type: 'OBJECT' } } })
    expect(warnings.map((w) => [w.type, w.path])).toEqual([
      ['dropped', 'properties.child.$ref'],
      ['changed', '$defs'],
    ])
  })

  it('infers types, stringifies non-string enums, and falls back to STRING with a warning', () => {
    const { schema, warnings } = toOpenApiSchema({
      properties: { x: { description: 'anything' }, y: { items: { type: 'string' } }, z: { enum: [1, 2] } },
    })
    expect(schema).toEqual({
      type: 'OBJECT',
      properties: {
        x: { type: 'STRING', description: 'anything' },
        y: { type: 'ARRAY', items: { type: 'STRING' } },
        z: { type: 'INTEGER', format: 'enum', enum: ['1', '2'] },
      },
    })
    expect(warnings.map((w) => [w.type, w.path])).toEqual([
      ['changed', 'properties.x'],
      ['changed', 'properties.z.enum'],
    ])
  })

  it('turns oneOf into anyOf, merges a simple allOf, drops a complex one', () => {
    expect(toOpenApiSchema({ oneOf: [{ type: 'string' }, { type: 'number' }] })).toEqual({
      schema: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] },
      warnings: [{ type: 'changed', path: 'oneOf', message: 'oneOf became anyOf (exclusivity is lost)' }],
    })
    expect(
      toOpenApiSchema({
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } } },
          { properties: { b: { type: 'number' } }, required: ['b'] },
        ],
      }).schema,
    ).toEqual({ type: 'OBJECT', properties: { a: { type: 'STRING' }, b: { type: 'NUMBER' } }, required: ['b'] })
    const complex = toOpenApiSchema({ allOf: [{ not: { type: 'string' } }] })
    expect(complex.schema).toEqual({ type: 'STRING' })
    expect(complex.warnings.map((w) => [w.type, w.path])).toEqual([
      ['dropped', 'allOf'],
      ['changed', '$'],
    ])
  })

  it('maps several non-null types to anyOf plus nullable', () => {
    expect(toOpenApiSchema({ type: ['string', 'number', 'null'] }).schema).toEqual({
      anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }],
      nullable: true,
    })
  })
})

describe('fromOpenApiSchema', () => {
  it('lowercases types, turns nullable into type arrays or anyOf with null, drops propertyOrdering', () => {
    expect(
      fromOpenApiSchema({
        type: 'OBJECT',
        properties: {
          a: { type: 'STRING', nullable: true },
          b: { type: 'INTEGER', format: 'enum', enum: ['1', '2'] },
          c: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }], nullable: true },
          d: { type: 'ARRAY', items: { type: 'STRING' }, minItems: '1' },
        },
        propertyOrdering: ['a', 'b'],
        required: ['a'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { type: 'integer', enum: [1, 2] },
        c: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
        d: { type: 'array', items: { type: 'string' }, minItems: 1 },
      },
      required: ['a'],
    })
  })
})

describe('toGeminiJsonSchema', () => {
  it('keeps the supported subset of a real agent schema and reports the rest', () => {
    const { schema, warnings } = toGeminiJsonSchema(agentSchema, 'tools[0].parameters')
    expect(schema).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path' },
        mode: { type: 'string', enum: ['overwrite'] },
        encoding: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        limit: { type: ['integer', 'null'], minimum: 0 },
        options: { $ref: '#/$defs/Options' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['path', 'mode'],
      additionalProperties: false,
      $defs: {
        Options: { type: 'object', properties: { recursive: { type: 'boolean' } }, additionalProperties: false },
      },
    })
    const p = 'tools[0].parameters'
    expect(warnings.map((w) => [w.type, w.path])).toEqual([
      ['dropped', `${p}.$schema`],
      ['changed', `${p}.properties.mode.const`],
      ['dropped', `${p}.properties.encoding.default`],
      ['changed', `${p}.properties.limit.exclusiveMinimum`],
      ['dropped', `${p}.properties.headers.propertyNames`],
    ])
  })

  it('rewrites definitions to $defs, drops non-$ siblings of $ref, infers types', () => {
    expect(
      toGeminiJsonSchema({
        properties: {
          a: { $ref: '#/definitions/A', description: 'ignored by Gemini' },
          b: { items: {} },
          c: { enum: [1, 'x'] },
        },
        definitions: { A: { type: 'string' } },
      }),
    ).toEqual({
      schema: {
        type: 'object',
        properties: {
          a: { $ref: '#/$defs/A' },
          b: { type: 'array', items: {} },
          c: { type: ['integer', 'string'], enum: [1, 'x'] },
        },
        $defs: { A: { type: 'string' } },
      },
      warnings: [
        { type: 'changed', path: 'properties.a.$ref', message: '#/definitions/ became #/$defs/' },
        {
          type: 'dropped',
          path: 'properties.a.description',
          message: 'description next to $ref is ignored by Gemini; removed',
        },
        { type: 'changed', path: 'definitions', message: 'definitions became $defs' },
      ],
    })
  })
})
