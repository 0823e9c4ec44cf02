/**
 * IR assistant parts → Responses output items, with the minimum shapes every probed client accepts
 * (responses-api.md §5.2): messages with `id`, `role`, `status` and `annotations: []` on every `output_text`;
 * function calls with `id` (`fc_…`), `call_id`, `status`; reasoning with `id` and `summary` (possibly `[]`).
 * Shared by the JSON encoder and the stream encoder (whose terminal event needs the full output).
 */
import type * as ir from '../../ir/index.js'
import { newId } from '../../shared/ids.js'
import { attachItem, callItem, reasoningItem } from './encode-items.js'
import { attachEnvelope } from './reasoning.js'
import type { CallName } from './tool-names.js'

const FORMAT = 'responses'
type Wire = Record<string, unknown>

/** Item ids: `<prefix>_<response id without its prefix><n>`, unique within a response. */
export function itemIdMaker(responseId: string): (prefix: string) => string {
  const stem = responseId.replace(/^resp_/, '').replace(/[^a-zA-Z0-9]/g, '')
  let n = 0
  return (prefix) => `${prefix}_${stem}${n++}`
}

/** The `resp_…` id of a response, from whatever id the upstream gave. */
export function responseIdOf(id: string): string {
  if (id.startsWith('resp_')) return id
  const stem = id.replace(/[^a-zA-Z0-9]/g, '')
  return stem ? `resp_${stem}` : newId('resp_')
}

/** A text's annotations: its own (from a Responses upstream), else its citations as `url_citation`s. */
export function annotationsOf(part: ir.TextPart): unknown[] {
  const own = part.providerData?.[FORMAT]?.annotations
  if (Array.isArray(own)) return own
  return (part.citations ?? []).map((citation) => ({
    type: 'url_citation',
    start_index: citation.startIndex ?? 0,
    end_index: citation.endIndex ?? part.text.length,
    title: citation.title ?? citation.url,
    url: citation.url,
  }))
}

export function outputTextPart(part: ir.TextPart | ir.RefusalPart): Wire {
  if (part.type === 'refusal') return { type: 'refusal', refusal: part.text }
  return { type: 'output_text', annotations: annotationsOf(part), logprobs: [], text: part.text }
}

/** A `web_search_call` item: the provider's own item when it came from a Responses upstream. */
export function webSearchItem(part: ir.WebSearchPart, id: string, status?: string): Wire {
  const own = part.providerData?.[FORMAT]?.item as Wire | undefined
  if (own) return { ...own, id, ...(status === undefined ? {} : { status }) }
  const action: Wire = { type: 'search', query: part.queries[0] ?? '' }
  if (part.queries.length > 1) action.queries = part.queries
  action.sources = part.sources.map((source) => ({ type: 'url', url: source.url }))
  return { id, type: 'web_search_call', status: status ?? (part.failed ? 'failed' : 'completed'), action }
}

export function messageItem(id: string, parts: Array<ir.TextPart | ir.RefusalPart>, status: string): Wire {
  return { id, type: 'message', status, role: 'assistant', content: parts.map(outputTextPart) }
}

/**
 * A call as the client's request named it (`names`: `callNames(request)`): a call of a custom tool is written as a
 * `custom_tool_call` even when the upstream knew it as a function, and a flattened namespace function gets its own
 * `name` and `namespace` back.
 */
export function callOutputItem(
  part: ir.ToolCallPart,
  id: string,
  status: string,
  names?: ReadonlyMap<string, CallName>,
): Wire {
  const named = names?.get(part.name)
  const custom = named?.custom === true && part.providerData?.[FORMAT]?.custom !== true
  const item = callItem(
    custom ? { ...part, providerData: { ...part.providerData, [FORMAT]: { custom: true } } } : part,
    id,
    status,
  )
  if (named?.namespace !== undefined) {
    item.name = named.name
    item.namespace = named.namespace
  }
  return item
}

/** The `output` array of a response. */
export function outputItems(
  parts: readonly ir.AssistantPart[],
  nextId: (prefix: string) => string,
  warnings: ir.Warning[],
  names?: ReadonlyMap<string, CallName>,
): Wire[] {
  const out: Wire[] = []
  let texts: Array<ir.TextPart | ir.RefusalPart> = []
  const flush = () => {
    if (texts.length > 0) out.push(messageItem(nextId('msg'), texts, 'completed'))
    texts = []
  }
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as ir.AssistantPart
    if (part.type === 'text' || part.type === 'refusal') {
      const attach = part.type === 'text' ? attachEnvelope(part.providerData) : undefined
      if (attach) {
        flush()
        out.push(attachItem(attach, nextId('rs')))
      }
      texts.push(part)
      continue
    }
    flush()
    if (part.type === 'reasoning' || part.type === 'redacted-reasoning') out.push(reasoningItem(part, nextId('rs')))
    else if (part.type === 'web-search') out.push(webSearchItem(part, nextId('ws')))
    else if (part.type === 'tool-call') {
      const attach = attachEnvelope(part.providerData)
      if (attach) out.push(attachItem(attach, nextId('rs')))
      out.push(callOutputItem(part, nextId(names?.get(part.name)?.custom ? 'ctc' : 'fc'), 'completed', names))
    } else {
      warnings.push({
        type: 'dropped',
        path: `content[${i}]`,
        message: `assistant ${part.type} output has no Responses item`,
      })
    }
  }
  flush()
  return out
}
