/**
 * The body of Bedrock's InvokeModel for Anthropic models: the messages body without `model` and `stream` (the model is
 * in the path, the stream is the endpoint), with `anthropic_version` and the beta flags as `anthropic_beta` — what
 * `@anthropic-ai/bedrock-sdk` sends. That SDK copies the `anthropic-version` header of the Anthropic SDK it wraps
 * into the body (`../anthropic-version.ts`); the differential test pins it against the SDK.
 */

import { anthropicBodyVersion } from '../anthropic-version.js'

/** The beta flags of an `anthropic-beta` header value (`a, b` → `['a', 'b']`). */
export function betaFlags(header: string | undefined): string[] | undefined {
  if (header === undefined) return undefined
  const flags = header
    .split(',')
    .map((flag) => flag.trim())
    .filter((flag) => flag !== '')
  return flags.length > 0 ? flags : undefined
}

/** The messages body text → the invoke body text. A body that is not a JSON object is sent as it is (the API says why). */
export function invokeBody(text: string, betas: string[] | undefined): string {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return text
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return text
  const record = body as Record<string, unknown>
  delete record.model
  delete record.stream
  record.anthropic_version ??= anthropicBodyVersion
  if (betas && record.anthropic_beta === undefined) record.anthropic_beta = betas
  return JSON.stringify(record)
}

/**
 * CountTokens (`/model/{modelId}/count-tokens`) of an invoke body: `{input: {invokeModel: {body}}}`, the body as the
 * AWS SDKs send a blob (base64). It must be a valid InvokeModel body, so `max_tokens` (which a token count has no use
 * for, and a messages count_tokens body does not carry) is set to the least it may be.
 */
export function countTokensBody(invoke: string): string {
  let text = invoke
  try {
    const body = JSON.parse(invoke) as Record<string, unknown>
    if (body.max_tokens === undefined) {
      const thinking = body.thinking as { budget_tokens?: unknown } | undefined
      const budget = typeof thinking?.budget_tokens === 'number' ? thinking.budget_tokens : 0
      body.max_tokens = budget + 1
      text = JSON.stringify(body)
    }
  } catch {}
  const bytes = new TextEncoder().encode(text)
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return JSON.stringify({ input: { invokeModel: { body: btoa(binary) } } })
}
