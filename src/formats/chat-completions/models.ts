/** The model-listing body. @see https://platform.openai.com/docs/api-reference/models/list */
import type { ModelInfo } from '../format.js'

export function encodeModel(model: ModelInfo): Record<string, unknown> {
  return { id: model.id, object: 'model', created: model.created ?? 0, owned_by: model.ownedBy ?? 'system' }
}

export function encodeModelList(models: ModelInfo[]): unknown {
  return { object: 'list', data: models.map(encodeModel) }
}
