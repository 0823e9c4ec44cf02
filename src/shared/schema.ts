/**
 * A tiny validator for the wire schemas (formats/*\/schema.ts), in place of zod/mini: only what those schemas use.
 * It validates in place — a valid body is returned as it is, nothing is copied, the happy path allocates nothing — and
 * reports the issues zod did, with the same paths, codes and order (parseWire in validate.ts turns them into
 * messages): every field of an object in the schema's key order, then nested; a union that fails reports all its
 * branches' issues (`invalid_union`), a discriminated union with an unknown tag reports the tag.
 */
import { isRecord as isObject } from './is-record.js'

/** One problem found, zod-style; `path` is relative to the value the schema ran on until the caller prefixes it. */
export type Issue = { path: PropertyKey[]; continue?: boolean } & (
  | { code: 'invalid_type'; expected: string }
  | { code: 'invalid_value'; values: readonly unknown[] }
  | { code: 'invalid_union'; errors: Issue[][] }
  | { code: 'too_small'; minimum: number }
  | { code: 'too_big'; maximum: number }
  | { code: 'custom'; message: string }
)

/** A problem found by a hand-written checker (validate-*.ts): a path relative to the value, and the message. */
export interface Problem {
  path: Array<string | number>
  message: string
}

export interface Schema<out T = unknown> {
  /** Checks `value`, pushing what is wrong onto `issues` (paths relative to `value`). Never copies `value`. */
  readonly run: (value: unknown, issues: Issue[]) => void
  /** An absent key is fine (`optional`); a present `undefined` is checked by `run`. */
  readonly optional?: boolean
  /** The values a literal or enum allows (a discriminated union dispatches on them). */
  readonly values?: ReadonlySet<unknown>
  /** What the value must be at least (its `typeof`, or array / object): a union skips the options it cannot be. */
  readonly base?: string
  /** `optional` / `nullable` wrappers: the schema they wrap (an object checks a field's innermost schema directly). */
  readonly inner?: Schema
  readonly nullable?: boolean
  /** Type only: what a valid value is. */
  readonly '~type'?: T
}

type Optional<T> = Schema<T> & { readonly optional: true }
type Shape = Record<string, Schema>

export type Infer<S> = S extends Schema<infer T> ? T : never

type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends { optional: true } ? K : never }[keyof S]
type Flat<T> = { [K in keyof T]: T[K] } & {}
type ObjectOf<S extends Shape> = Flat<
  { -readonly [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & {
    -readonly [K in OptionalKeys<S>]?: Infer<S[K]>
  } & { [key: string]: unknown }
>

/** zod's `aborted`: an issue without `continue: true` stops the checks that follow. */
function aborted(issues: Issue[], start: number): boolean {
  for (let i = start; i < issues.length; i++) if ((issues[i] as Issue).continue !== true) return true
  return false
}

/** Prefixes the paths of the issues pushed since `start` (runs on failure only). */
function prefix(issues: Issue[], start: number, key: PropertyKey): void {
  for (let i = start; i < issues.length; i++) (issues[i] as Issue).path.unshift(key)
}

/* @__NO_SIDE_EFFECTS__ */
function typeOf<T>(expected: string, test: (value: unknown) => boolean): Schema<T> {
  return {
    base: expected,
    run: (value, issues) => {
      if (!test(value)) issues.push({ code: 'invalid_type', expected, path: [] })
    },
  }
}

const stringSchema = typeOf<string>('string', (value) => typeof value === 'string')
const booleanSchema = typeOf<boolean>('boolean', (value) => typeof value === 'boolean')
const numberSchema = typeOf<number>('number', (value) => typeof value === 'number' && Number.isFinite(value))
const unknownSchema: Schema<unknown> = { run: () => {} }

// The builders are function declarations marked `@__NO_SIDE_EFFECTS__`: the schemas built at module level stay
// droppable in the built chunks (a bundler re-bundling dist/ keeps an unmarked call, and the annotation does not
// survive on a `const` arrow, which the build turns into a `var`).
/* @__NO_SIDE_EFFECTS__ */
export function string(): Schema<string> {
  return stringSchema
}
/* @__NO_SIDE_EFFECTS__ */
export function boolean(): Schema<boolean> {
  return booleanSchema
}
/* @__NO_SIDE_EFFECTS__ */
export function unknown(): Schema<unknown> {
  return unknownSchema
}

/** A finite number; `int` (a safe integer, zod's `z.int()`) and `min` (zod's `z.gte(min)`) add zod's checks. */
/* @__NO_SIDE_EFFECTS__ */
export function number(checks: { int?: boolean; min?: number } = {}): Schema<number> {
  const { int = false, min } = checks
  if (!int && min === undefined) return numberSchema
  return {
    base: 'number',
    run: (value, issues) => {
      const start = issues.length
      numberSchema.run(value, issues)
      if (issues.length > start) return
      const n = value as number
      if (int) {
        if (!Number.isInteger(n)) {
          issues.push({ code: 'invalid_type', expected: 'int', continue: false, path: [] })
          return
        }
        if (!Number.isSafeInteger(n)) {
          const limit = Number.MAX_SAFE_INTEGER
          issues.push(
            n > 0
              ? { code: 'too_big', maximum: limit, continue: true, path: [] }
              : { code: 'too_small', minimum: -limit, continue: true, path: [] },
          )
        }
      }
      // (an unsafe integer's issue above is soft: zod runs the next check too)
      if (min !== undefined && !(n >= min)) issues.push({ code: 'too_small', minimum: min, continue: true, path: [] })
    },
  }
}

function oneOf<T>(values: readonly T[]): Schema<T> {
  const allowed = new Set<unknown>(values)
  return {
    values: allowed,
    run: (value, issues) => {
      if (!allowed.has(value)) issues.push({ code: 'invalid_value', values, path: [] })
    },
  }
}

/* @__NO_SIDE_EFFECTS__ */
export function literal<const T extends string>(value: T): Schema<T> {
  return oneOf([value])
}
/* @__NO_SIDE_EFFECTS__ */
export function enumOf<const T extends string>(values: readonly T[]): Schema<T> {
  return oneOf(values)
}

/* @__NO_SIDE_EFFECTS__ */
export function optional<T>(inner: Schema<T>): Optional<T | undefined> {
  return {
    optional: true,
    inner,
    run: (value, issues) => {
      if (value !== undefined) inner.run(value, issues)
    },
  }
}

/* @__NO_SIDE_EFFECTS__ */
export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  const schema: Schema<T | null> = {
    nullable: true,
    inner,
    run: (value, issues) => {
      if (value !== null) inner.run(value, issues)
    },
  }
  return inner.optional ? { ...schema, optional: true } : schema
}

/* @__NO_SIDE_EFFECTS__ */
export function array<T>(element: Schema<T>): Schema<T[]> {
  return {
    base: 'array',
    run: (value, issues) => {
      if (!Array.isArray(value)) {
        issues.push({ code: 'invalid_type', expected: 'array', path: [] })
        return
      }
      for (let i = 0; i < value.length; i++) {
        const start = issues.length
        element.run(value[i], issues)
        if (issues.length > start) prefix(issues, start, i)
      }
    },
  }
}

/** A field of an object: its innermost schema, and whether `undefined` (optional) or `null` (nullable) passes. */
interface Field {
  key: string
  schema: Schema
  optional: boolean
  nullable: boolean
}

function fieldOf(key: string, schema: Schema): Field {
  const field: Field = { key, schema, optional: schema.optional === true, nullable: false }
  while (field.schema.inner) {
    if (field.schema.nullable) field.nullable = true
    field.schema = field.schema.inner
  }
  return field
}

/**
 * An object whose known keys are checked; unknown keys pass untouched (zod's `looseObject`). Issues come in the
 * shape's key order. A wide shape on a plain object is checked by the keys the object has (a request sets a few of
 * its two dozen optional fields; a JSON object's keys are all enumerable), and again in key order only when
 * something is wrong.
 */
/* @__NO_SIDE_EFFECTS__ */
export function looseObject<const S extends Shape>(shape: S): Schema<ObjectOf<S>> & { readonly shape: S } {
  const fields = Object.keys(shape).map((key) => fieldOf(key, shape[key] as Schema))
  const byKey: Record<string, Field | undefined> = Object.create(null)
  for (const field of fields) byKey[field.key] = field
  const required = fields.filter((field) => !field.optional)
  const inOrder = (value: Record<string, unknown>, issues: Issue[]) => {
    for (const { key, schema, optional, nullable } of fields) {
      const v = value[key]
      if ((v === undefined && optional) || (v === null && nullable)) continue
      const start = issues.length
      schema.run(v, issues)
      if (issues.length > start) prefix(issues, start, key)
      else if (v === undefined && !(key in value))
        issues.push({ code: 'invalid_type', expected: 'nonoptional', path: [key] })
    }
  }
  return {
    shape,
    base: 'object',
    run: (value, issues) => {
      if (!isObject(value)) {
        issues.push({ code: 'invalid_type', expected: 'object', path: [] })
        return
      }
      if (fields.length < 6 || Object.getPrototypeOf(value) !== Object.prototype) return inOrder(value, issues)
      const start = issues.length
      let ok = true
      for (const field of required) {
        const v = value[field.key]
        // an absent required key: straight to the ordered pass, which says so
        ok = v !== undefined
        if (!ok) break
        if (v !== null || !field.nullable) field.schema.run(v, issues)
      }
      if (ok)
        for (const key in value) {
          const field = byKey[key]
          if (!field?.optional) continue
          const v = value[key]
          if (v !== undefined && (v !== null || !field.nullable)) field.schema.run(v, issues)
        }
      if (ok && issues.length === start) return
      issues.length = start
      inOrder(value, issues)
    },
  }
}

/** zod's `isPlainObject`, which `z.record` requires. */
function isPlainObject(value: unknown): value is Record<PropertyKey, unknown> {
  if (!isObject(value)) return false
  const ctor = value.constructor
  if (ctor === undefined || typeof ctor !== 'function') return true
  const proto: unknown = ctor.prototype
  return isObject(proto) && Object.hasOwn(proto, 'isPrototypeOf')
}

/** A record with string keys (zod's `z.record(z.string(), values)`; symbol keys, which JSON has not, are not looked at). */
/* @__NO_SIDE_EFFECTS__ */
export function record<T>(values: Schema<T>): Schema<Record<string, T>> {
  return {
    base: 'object',
    run: (value, issues) => {
      if (!isPlainObject(value)) {
        issues.push({ code: 'invalid_type', expected: 'record', path: [] })
        return
      }
      if (values === unknownSchema) return
      for (const key in value) {
        if (key === '__proto__' || !Object.hasOwn(value, key)) continue
        const start = issues.length
        values.run(value[key], issues)
        if (issues.length > start) prefix(issues, start, key)
      }
    },
  }
}

/** Whether `option` may accept `value`: false only when its type or values rule the value out (no allocation). */
function mayAccept(option: Schema, value: unknown): boolean {
  const { base, values } = option
  if (values) return values.has(value)
  if (base === undefined) return true
  if (base === 'array') return Array.isArray(value)
  return base === 'object' ? isObject(value) : typeof value === base
}

/**
 * The first option that accepts the value wins (options the value cannot be are not run); when none does, one
 * `invalid_union` carrying every branch's issues.
 */
/* @__NO_SIDE_EFFECTS__ */
export function union<const O extends readonly Schema[]>(options: O): Schema<Infer<O[number]>> {
  return {
    run: (value, issues) => {
      const start = issues.length
      for (const option of options) {
        if (!mayAccept(option, value)) continue
        option.run(value, issues)
        if (issues.length === start) return
        issues.length = start
      }
      // none accepts: every branch's issues, as zod reports them
      const branches = options.map((option) => {
        const own: Issue[] = []
        option.run(value, own)
        return own
      })
      // zod: when exactly one branch failed only on soft checks (every issue `continue`), its issues are the answer
      const soft = branches.filter((branch) => !aborted(branch, 0))
      if (soft.length === 1) issues.push(...(soft[0] as Issue[]))
      else issues.push({ code: 'invalid_union', errors: branches, path: [] })
    },
  }
}

/** Dispatches on `value[key]` (the options' literal/enum values); an unknown tag is reported at `key`. */
/* @__NO_SIDE_EFFECTS__ */
export function discriminatedUnion<const O extends ReadonlyArray<Schema & { readonly shape: Shape }>>(
  key: string,
  options: O,
): Schema<Infer<O[number]>> {
  const byTag = new Map<unknown, Schema>()
  for (const option of options) for (const tag of option.shape[key]?.values ?? []) byTag.set(tag, option)
  return {
    base: 'object',
    run: (value, issues) => {
      if (!isObject(value)) {
        issues.push({ code: 'invalid_type', expected: 'object', path: [] })
        return
      }
      const option = byTag.get(value[key])
      if (option) option.run(value, issues)
      else issues.push({ code: 'invalid_union', errors: [], path: [key] })
    },
  }
}

/**
 * A value validated by a hand-written checker (validate-*.ts), which reports the first problem or all of them, each
 * with its path relative to the value; the value passes through uncopied.
 */
/* @__NO_SIDE_EFFECTS__ */
export function checked<T>(check: (value: unknown) => Problem | readonly Problem[] | undefined): Schema<T> {
  return {
    run: (value, issues) => {
      const found = check(value)
      if (found === undefined) return
      for (const problem of 'path' in found ? [found] : found)
        issues.push({ code: 'custom', path: problem.path, message: problem.message })
    },
  }
}
