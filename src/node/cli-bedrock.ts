/// <reference types="node" />
/**
 * Amazon Bedrock for the CLI, from AWS's own environment variables (issue 23 §5): `AWS_REGION` (or
 * `AWS_DEFAULT_REGION`), `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`) for SigV4, or
 * `AWS_BEARER_TOKEN_BEDROCK` (a Bedrock API key, preferred when set, as `@anthropic-ai/bedrock-sdk` does), and
 * `BEDROCK_BASE_URL`. Two upstreams: `bedrock` (InvokeModel, messages) and `bedrock-converse` (Converse).
 * `bedrock/<modelId>`: Anthropic ids (`anthropic.…`, inference profiles such as `us.anthropic.…`) → InvokeModel, every
 * other id → Converse; `bedrock-converse/<modelId>` → Converse. `BEDROCK_MODELS` (comma-separated model ids, or
 * `bedrock-converse/<modelId>`s) lists models in the model listings.
 */
import { isAnthropicModel } from '../formats/converse/models.js'
import type { UpstreamOptions } from '../gateway/options.js'
import type { AwsCredentials } from '../providers/provider.js'
import { type Cloud, listedIds } from './cli-clouds.js'

export function bedrockFromEnv(env: NodeJS.ProcessEnv): Cloud | undefined {
  const region = env.AWS_REGION || env.AWS_DEFAULT_REGION
  const baseURL = env.BEDROCK_BASE_URL
  const bearerToken = env.AWS_BEARER_TOKEN_BEDROCK
  const accessKeyId = env.AWS_ACCESS_KEY_ID
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY
  if (!bearerToken && !(accessKeyId && secretAccessKey)) return undefined
  if (!region && !baseURL) return undefined
  let auth: AwsCredentials | { bearerToken: string }
  let from: string
  if (bearerToken) {
    auth = { bearerToken }
    from = 'API key from AWS_BEARER_TOKEN_BEDROCK'
  } else {
    auth = { accessKeyId: accessKeyId as string, secretAccessKey: secretAccessKey as string }
    if (env.AWS_SESSION_TOKEN) auth.sessionToken = env.AWS_SESSION_TOKEN
    from = `SigV4 with AWS_ACCESS_KEY_ID${env.AWS_SESSION_TOKEN ? ' and AWS_SESSION_TOKEN' : ''}`
  }
  const base: Omit<UpstreamOptions, 'format'> = { provider: 'bedrock', auth }
  if (region) base.region = region
  if (baseURL) base.baseURL = baseURL
  const where = [region && `region ${region}`, baseURL && `at ${baseURL}`].filter(Boolean).join(', ')
  return {
    upstreams: {
      bedrock: { format: 'messages', ...base },
      'bedrock-converse': { format: 'converse', ...base },
    },
    prefixes: ['bedrock', 'bedrock-converse'],
    route: (model, _client, prefix) => ({
      upstream: prefix === 'bedrock' && isAnthropicModel(model) ? 'bedrock' : 'bedrock-converse',
      model,
    }),
    summary: `upstream bedrock (Amazon Bedrock, ${where}) — ${from}; models bedrock/<modelId> (Anthropic → InvokeModel, others → Converse), bedrock-converse/<modelId>`,
    listed: listedIds(env.BEDROCK_MODELS, ['bedrock', 'bedrock-converse']),
    routes: [
      {
        id: 'bedrock/<modelId>',
        upstream: 'Amazon Bedrock',
        note: 'Claude (anthropic.…, us.anthropic.…) through InvokeModel, every other model through Converse',
      },
      { id: 'bedrock-converse/<modelId>', upstream: 'Amazon Bedrock', note: 'any model through Converse' },
    ],
  }
}
