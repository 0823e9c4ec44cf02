/**
 * The `responseStore` of the gateway (issues 13, 21): what makes `previous_response_id`, `item_reference` and
 * `GET /v1/responses/{id}` work for Responses clients in front of an upstream of another format (a Responses upstream
 * keeps its own state and gets those as sent). On by default, in memory and bounded; `responseStore: false` makes the
 * gateway stateless (it then refuses them with a 400).
 *
 * Entries are scoped by caller: the gateway passes `caller:<id>` when `authenticate` returned a `Caller`, else a hash
 * of the client's key (never the key), so one caller never reads another's responses. The in-memory implementation is
 * bounded by count, bytes and age. A deployment of several instances plugs in a shared implementation of the same
 * three methods (a key-value store such as Redis or a SQL table keyed by `scope` + id, with the same TTL), or routes
 * each client to one instance.
 */

/** A response as stored: the whole input it answered (references expanded) and the body the client received. */
export interface StoredResponse {
  id: string
  /** The input items, with earlier responses and item references already expanded. */
  input: unknown[]
  /** The response body as the client received it (`output` holds the output items). */
  response: Record<string, unknown>
}

export interface ResponseStore {
  get(scope: string, id: string): StoredResponse | undefined | Promise<StoredResponse | undefined>
  put(scope: string, stored: StoredResponse): void | Promise<void>
  /** An input or output item of a stored response, by its `id` (`msg_…`, `rs_…`, `fc_…`). */
  item(scope: string, itemId: string): unknown | Promise<unknown>
}

export interface MemoryResponseStoreOptions {
  /** Responses kept (least recently used evicted first). @defaultValue 1000 */
  maxResponses?: number
  /** Total size kept, as JSON characters; a response larger than this is not stored. @defaultValue 64 MiB */
  maxBytes?: number
  /** How long a response is kept. @defaultValue 3600000 (1 hour) */
  ttlMs?: number
}

interface Entry {
  stored: StoredResponse
  expires: number
  bytes: number
  items: string[]
}

/** A bounded in-memory `ResponseStore` (per process). */
export function createMemoryResponseStore(options: MemoryResponseStoreOptions = {}): ResponseStore {
  const maxResponses = options.maxResponses ?? 1000
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024
  const ttlMs = options.ttlMs ?? 3_600_000
  const entries = new Map<string, Entry>()
  const items = new Map<string, { entry: string; item: unknown }>()
  let bytes = 0
  const keyOf = (scope: string, id: string) => `${scope}\u0000${id}`

  const remove = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    entries.delete(key)
    bytes -= entry.bytes
    for (const item of entry.items) if (items.get(item)?.entry === key) items.delete(item)
  }
  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key)
    if (entry && entry.expires <= Date.now()) {
      remove(key)
      return undefined
    }
    return entry
  }

  return {
    get(scope, id) {
      const key = keyOf(scope, id)
      const entry = live(key)
      if (!entry) return undefined
      entries.delete(key)
      entries.set(key, entry)
      return entry.stored
    },
    put(scope, stored) {
      const key = keyOf(scope, stored.id)
      remove(key)
      // A response past the bound by its strings alone is refused before it is serialised (a long answer's copy).
      if (stringCharacters(stored, maxBytes) > maxBytes) return
      const size = JSON.stringify(stored).length
      if (size > maxBytes) return
      const entry: Entry = { stored, expires: Date.now() + ttlMs, bytes: size, items: [] }
      const output = Array.isArray(stored.response.output) ? stored.response.output : []
      for (const item of [...stored.input, ...output]) {
        const id = (item as { id?: unknown } | null)?.id
        if (typeof id !== 'string') continue
        const itemKey = keyOf(scope, id)
        items.set(itemKey, { entry: key, item })
        entry.items.push(itemKey)
      }
      entries.set(key, entry)
      bytes += size
      for (const oldest of entries.keys()) {
        if (entries.size <= maxResponses && bytes <= maxBytes) break
        remove(oldest)
      }
    },
    item(scope, itemId) {
      const found = items.get(keyOf(scope, itemId))
      return found && live(found.entry) ? found.item : undefined
    },
  }
}

/** The characters of the strings in `value` (a lower bound of its JSON size); the walk stops past `limit`. */
function stringCharacters(value: unknown, limit: number): number {
  let total = 0
  const walk = (node: unknown): void => {
    if (total > limit) return
    if (typeof node === 'string') total += node.length
    else if (Array.isArray(node)) for (const item of node) walk(item)
    else if (node !== null && typeof node === 'object')
      for (const key in node) walk((node as Record<string, unknown>)[key])
  }
  walk(value)
  return total
}

/** The store `createGateway` uses for its `responseStore` option: a store as given, none for `false`, else in memory. */
export function responseStoreOf(
  option: ResponseStore | MemoryResponseStoreOptions | false | undefined,
): ResponseStore | undefined {
  if (option === false) return undefined
  if (option && typeof (option as Partial<ResponseStore>).get === 'function') return option as ResponseStore
  return createMemoryResponseStore(option as MemoryResponseStoreOptions | undefined)
}
