/** IR → Responses response body. @see responses-api.md §5 */
import type * as ir from '../../ir/index.js'
import { reportForeignExtensions } from '../../shared/foreign-extensions.js'
import type { Converted, EncodeResponseOptions } from '../format.js'
import { fromFinishReason } from './finish-reason.js'
import { itemIdMaker, outputItems, responseIdOf } from './output-items.js'
import { callNames } from './tool-names.js'
import { encodeUsage } from './usage.js'

type Wire = Record<string, unknown>

/** The response object shell (also the `response` of stream lifecycle events). */
export function responseShell(id: string, model: string, created: number): Wire {
  return {
    id,
    object: 'response',
    created_at: created,
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    model,
    output: [],
    usage: null,
  }
}

/** Sets `status`, `incomplete_details`, `completed_at` (and `error` for `failed`) from a finish reason. */
export function applyStatus(body: Wire, reason: ir.FinishReason, now: number): void {
  const { status, incompleteReason } = fromFinishReason(reason)
  body.status = status
  body.incomplete_details = incompleteReason === undefined ? null : { reason: incompleteReason }
  if (status === 'completed') body.completed_at = now
  if (status === 'failed') body.error = { code: 'server_error', message: 'The model failed to produce a response' }
}

export function encodeResponse(response: ir.Response, options?: EncodeResponseOptions): Converted<unknown> {
  const warnings: ir.Warning[] = []
  const id = responseIdOf(response.id)
  const created = response.created ?? Math.floor(Date.now() / 1000)
  const body = responseShell(id, response.model, created)
  applyStatus(body, response.finishReason, created)
  body.output = outputItems(response.content, itemIdMaker(id), warnings, callNames(options?.request))
  if (response.usage) body.usage = encodeUsage(response.usage)
  if ((response.extraChoices?.length ?? 0) > 0) {
    warnings.push({
      type: 'dropped',
      path: 'extraChoices',
      message: 'Responses returns one answer; extra choices dropped',
    })
  }
  if (response.stopSequence !== undefined) {
    warnings.push({ type: 'dropped', path: 'stopSequence', message: 'Responses has no stop sequence field' })
  }
  reportForeignExtensions(response.extensions, 'responses', warnings)
  return { value: body, warnings }
}
