/** Model listing and token-count bodies. @see wire-formats.md §3.10 */
import type { ModelInfo } from '../format.js'

/** One `Model` resource. */
export function encodeModel(model: ModelInfo): Record<string, unknown> {
  return {
    name: `models/${model.id}`,
    baseModelId: model.id,
    displayName: model.displayName ?? model.id,
    supportedGenerationMethods: ['generateContent', 'countTokens'],
  }
}

/** `{models:[…]}` with no `nextPageToken`: an empty token makes the SDK pager loop forever (§4.5). */
export function encodeModelList(models: ModelInfo[]): unknown {
  return { models: models.map(encodeModel) }
}

export function encodeTokenCount(inputTokens: number): unknown {
  return { totalTokens: inputTokens }
}
