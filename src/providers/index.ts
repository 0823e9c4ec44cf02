/**
 * The providers' registry: each provider's spec (`<id>/config.ts`: formats, checks, a lazy `load`). Importing it
 * loads no provider code: `load()` does, when a request first reaches an upstream of that provider.
 */
import { azureSpec } from './azure/config.js'
import { bedrockSpec } from './bedrock/config.js'
import type { ProviderId, ProviderSpec } from './provider.js'
import { vertexSpec } from './vertex/config.js'

export type * from './provider.js'

/** Every provider by id. A provider missing here does not compile (`Record<ProviderId, …>`). */
export const providerSpecs: Readonly<Record<ProviderId, ProviderSpec>> = {
  azure: azureSpec,
  bedrock: bedrockSpec,
  vertex: vertexSpec,
}

/** The spec of a provider id, or undefined for an id no provider has. */
export function providerSpec(id: string): ProviderSpec | undefined {
  return Object.hasOwn(providerSpecs, id) ? providerSpecs[id as ProviderId] : undefined
}
