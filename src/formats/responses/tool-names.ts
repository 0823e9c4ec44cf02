/**
 * Responses namespace tools (`{type: "namespace", name, description, tools: [function | custom…]}`, Codex's
 * `multi_agent_v1`) group function tools under a name; a call names its function and carries `namespace`
 * (`ResponseFunctionToolCall.namespace`). No other format has groups, so each function of a namespace becomes one IR
 * function tool named `namespace__name` — made portable (a name chat-completions, messages and Gemini all accept) and
 * unique among the request's tools — with its wire name and namespace kept in provider data (`@name`, `@namespace`:
 * `@` keys are never reported by other encoders). This format's encoders write a call of that flat name back as
 * `name` + `namespace` (responses and streams alike), and the request decoder maps a replayed call
 * (`function_call` with `namespace`) to the same flat name, so the upstream sees one consistent function.
 */
import type * as ir from '../../ir/index.js'
import { toPortableToolName } from '../../shared/tool-ids.js'

const FORMAT = 'responses'
export const NAMESPACE_KEY = '@namespace'
export const NAME_KEY = '@name'

/** How a call of an IR tool name is written to a Responses client. */
export interface CallName {
  /** The wire name (the function's own name inside its namespace). */
  name: string
  namespace?: string
  /** A `custom` tool: its calls are `custom_tool_call` items. */
  custom: boolean
}

/** The IR name of function `name` in `namespace`, avoiding the names in `taken`. */
export function flatName(namespace: string, name: string, taken?: ReadonlySet<string>): string {
  return toPortableToolName(`${namespace}__${name}`, taken)
}

/** `{namespace}\u0000{name}` → IR name, for the namespaced tools of a decoded request. */
export type NamespacedNames = Map<string, string>

export const namespacedKey = (namespace: string, name: string) => `${namespace}\u0000${name}`

/** The IR name of a replayed call of `name` in `namespace`: the request's flat name, else the default flattening. */
export function irCallName(names: NamespacedNames, namespace: string, name: string): string {
  return names.get(namespacedKey(namespace, name)) ?? flatName(namespace, name)
}

/** IR name → how its calls are written, for the request's tools that need mapping back (namespaced and custom). */
export function callNames(request: ir.Request | undefined): ReadonlyMap<string, CallName> {
  const out = new Map<string, CallName>()
  for (const tool of request?.tools ?? []) {
    const data = tool.providerData?.[FORMAT]
    if (!data) continue
    const custom = data.custom !== undefined
    const namespace = data[NAMESPACE_KEY]
    if (typeof namespace === 'string') out.set(tool.name, { name: String(data[NAME_KEY]), namespace, custom })
    else if (custom) out.set(tool.name, { name: tool.name, custom })
  }
  return out
}

/** The wire name and namespace a tool-call part carries from a decoded Responses item, if it had a namespace. */
export function partNamespace(part: ir.ToolCallPart): { name: string; namespace: string } | undefined {
  const data = part.providerData?.[FORMAT]
  const namespace = data?.[NAMESPACE_KEY]
  return typeof namespace === 'string' ? { name: String(data?.[NAME_KEY]), namespace } : undefined
}
