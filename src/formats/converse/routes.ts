/**
 * The upstream target of the converse format: Bedrock's runtime API. Converse is never served to clients, so no
 * inbound route is its own. @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 */
import { invalidRequest } from '../../errors.js'
import type { RouteMatch, UpstreamConfig } from '../format.js'

export function matchRoute(): RouteMatch | undefined {
  return undefined
}

/**
 * `/model/{modelId}/{action}`: the model id (`anthropic.claude-…-v1:0`, an inference profile, an ARN) is exactly one
 * URL-encoded path segment (`:` and `/` encoded, as the AWS SDK does); dot segments are refused.
 */
export function bedrockModelPath(model: string, action: string): string {
  if (model === '' || model === '.' || model === '..')
    invalidRequest('model', `"${model}" is not a model id that can be sent in a URL path`)
  return `/model/${encodeURIComponent(model)}/${action}`
}

export function upstreamTarget(
  model: string,
  _kind: 'generate' | 'count-tokens',
  stream: boolean,
  upstream: UpstreamConfig,
): { url: string; headers: Headers } {
  const base = upstream.baseURL.replace(/\/+$/, '')
  const url = base + bedrockModelPath(model, stream ? 'converse-stream' : 'converse')
  const headers = new Headers({
    'content-type': 'application/json',
    accept: stream ? 'application/vnd.amazon.eventstream' : 'application/json',
  })
  if (upstream.headers) for (const [name, value] of Object.entries(upstream.headers)) headers.set(name, value)
  return { url, headers }
}
