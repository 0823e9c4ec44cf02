/** Model routing: public model id → upstream (issue 4 §4). */
import type { FormatId, ModelInfo, UpstreamConfig } from '../formats/format.js'
import type { GatewayContext, GatewayOptions, UpstreamOptions } from './options.js'
import { validateUpstream } from './validate-upstream.js'

/**
 * The format a request that matched no route most likely speaks, so even "no such endpoint" reaches its SDK in a shape
 * it parses: Anthropic's headers → messages; Gemini's key header, `?key=` or a `/v1beta/` or `models/…:` path →
 * content-generation; anything else → chat-completions.
 */
export function guessClientFormat(
  url: Pick<URL, 'pathname' | 'searchParams'>,
  headers: Pick<Headers, 'has'>,
): FormatId {
  if (headers.has('anthropic-version') || headers.has('x-api-key')) return 'messages'
  if (headers.has('x-goog-api-key') || url.searchParams.has('key') || /\/v1beta\/|\/models\/[^/]*:/.test(url.pathname))
    return 'content-generation'
  return 'chat-completions'
}

/** A routed model: the upstream's name and options, and the model id to send it. */
export interface ResolvedModel {
  name: string
  upstream: UpstreamOptions
  model: string
}

/** The name reported for the embedded mock model when no upstream is configured. */
export const mockUpstreamName = 'mock'

/** Checks the configuration once, at creation: upstreams it can serve (`validateUpstream`), routes to known upstreams. */
export function validateOptions(options: GatewayOptions): void {
  const upstreams = options.upstreams ?? {}
  for (const [name, upstream] of Object.entries(upstreams)) validateUpstream(name, upstream)
  for (const [model, route] of Object.entries(options.models ?? {})) {
    if (!upstreams[route.upstream]) {
      throw new TypeError(`createGateway: models["${model}"] routes to unknown upstream "${route.upstream}"`)
    }
  }
}

/** Resolves a model, or `undefined` (404). With no upstream at all, the mock serves every model; with exactly one and no routes, that one does. */
export function resolveModel(
  options: GatewayOptions,
  model: string,
  /** The hooks' context, made only when `resolveModel` is called (not per request). */
  context: () => GatewayContext,
): ResolvedModel | undefined {
  const upstreams = options.upstreams ?? {}
  const route = options.models?.[model] ?? options.resolveModel?.(model, context())
  if (route) {
    const upstream = upstreams[route.upstream]
    return upstream ? { name: route.upstream, upstream, model: route.model ?? model } : undefined
  }
  if (options.models || options.resolveModel) return undefined
  const names = Object.keys(upstreams)
  if (names.length === 0) return { name: mockUpstreamName, upstream: { format: 'mock' }, model }
  if (names.length === 1) {
    const name = names[0] as string
    return { name, upstream: upstreams[name] as UpstreamOptions, model }
  }
  return undefined
}

/**
 * The format of the upstream `model` resolves to when that is known without calling `resolveModel` (a `models` entry,
 * or the only upstream), else undefined. Pure: it may be asked before the request is validated.
 */
export function staticUpstreamFormat(options: GatewayOptions, model: unknown): string | undefined {
  if (typeof model !== 'string') return undefined
  const upstreams = options.upstreams ?? {}
  const route = options.models && Object.hasOwn(options.models, model) ? options.models[model] : undefined
  if (route) return Object.hasOwn(upstreams, route.upstream) ? upstreams[route.upstream]?.format : undefined
  if (options.models || options.resolveModel) return undefined
  const names = Object.keys(upstreams)
  return names.length === 1 ? upstreams[names[0] as string]?.format : undefined
}

/** The format-level upstream configuration (baseURL, key, headers, version). */
export function upstreamConfig(upstream: UpstreamOptions): UpstreamConfig {
  const config: UpstreamConfig = { baseURL: upstream.baseURL ?? '' }
  if (upstream.apiKey !== undefined) config.apiKey = upstream.apiKey
  if (upstream.headers !== undefined && typeof upstream.headers !== 'function') config.headers = upstream.headers
  if (upstream.apiVersion !== undefined) config.apiVersion = upstream.apiVersion
  return config
}

/** The models a listing shows: the configured public ids, or the mock's id when the mock serves everything. */
export function listedModels(options: GatewayOptions): ModelInfo[] {
  const ids = Object.keys(options.models ?? {})
  for (const id of options.listedModels ?? []) if (!ids.includes(id)) ids.push(id)
  if (ids.length === 0 && !options.resolveModel && Object.keys(options.upstreams ?? {}).length === 0)
    ids.push('interlingua-mock')
  return ids.map((id) => ({ id, displayName: id, created: 0, ownedBy: 'interlingua' }))
}
