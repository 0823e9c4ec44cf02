import type * as ir from '../ir/index.js'
import { jsonText } from './json-text.js'

/**
 * Tool-call arguments travel as JSON text in the IR. These convert to and from the object form that
 * messages (`input`) and content-generation (`args`) use, never throwing (policy 4).
 *
 * Decoders of object-form formats build tool-call parts with `toolCallFromObject`: `part.arguments` is then an
 * ordinary-looking enumerable string property whose JSON text is produced only when first read, and encoders of
 * object-form formats get the object back with `argumentsObject` without a JSON round trip (messages→messages,
 * content-generation→content-generation, messages↔content-generation never serialise tool arguments).
 */

/** Parses arguments JSON into an object. Invalid JSON or a non-object yields `undefined` (caller warns). */
export function parseArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {}
  try {
    const value: unknown = JSON.parse(text)
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/** Serialises an arguments object; `"{}"` for none. */
export function stringifyArguments(value: unknown): string {
  if (value === undefined || value === null) return '{}'
  return jsonText(value)
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/**
 * A tool-call part decoded from an arguments object. It looks and behaves like a plain part (own enumerable
 * `type`, `id`, `name`, `arguments`, then `providerData`; JSON, spread, structuredClone and `toEqual` see plain
 * data), but `arguments` is an accessor: the JSON text is produced on first read, and `argumentsObject` hands
 * the object back until `arguments` is assigned.
 */
class ObjectArgumentsCall {
  declare type: 'tool-call'
  declare id: string
  declare name: string
  declare arguments: string
  declare providerData?: ir.ProviderData
  #value: Record<string, unknown> | undefined
  #text: string | undefined

  constructor(id: string, name: string, value: Record<string, unknown>) {
    this.type = 'tool-call'
    this.id = id
    this.name = name
    this.#value = value
    this.#text = undefined
    Object.defineProperty(this, 'arguments', ObjectArgumentsCall.accessor)
  }

  /** One shared accessor pair, so every such part keeps the same hidden class. */
  static accessor: PropertyDescriptor = {
    get(this: ObjectArgumentsCall): string {
      if (this.#text === undefined) this.#text = stringifyArguments(this.#value)
      return this.#text
    },
    set(this: ObjectArgumentsCall, text: string): void {
      this.#text = text
      this.#value = undefined
    },
    enumerable: true,
    configurable: true,
  }

  static objectOf(part: object): Record<string, unknown> | undefined {
    return #value in part ? (part as ObjectArgumentsCall).#value : undefined
  }
}

// Plain-object looks all the way: `part.constructor === Object` (test helpers such as `toStrictEqual` compare
// constructors, and printers show `Object {…}`).
Object.defineProperty(ObjectArgumentsCall.prototype, 'constructor', {
  value: Object,
  writable: true,
  configurable: true,
})

/**
 * A tool-call part whose arguments come as an object (messages `input`, content-generation `args`; `null` or
 * `undefined` → `"{}"`). `part.arguments` reads as the JSON text, serialised only when first read.
 */
export function toolCallFromObject(id: string, name: string, value: unknown): ir.ToolCallPart {
  if (isRecord(value)) return new ObjectArgumentsCall(id, name, value)
  return { type: 'tool-call', id, name, arguments: stringifyArguments(value) }
}

/**
 * The arguments of a tool-call part as an object: the decoded object itself for a part made by
 * `toolCallFromObject` (while `arguments` was not reassigned), else `parseArguments(part.arguments)`.
 */
export function argumentsObject(part: { arguments: string }): Record<string, unknown> | undefined {
  return ObjectArgumentsCall.objectOf(part) ?? parseArguments(part.arguments)
}
