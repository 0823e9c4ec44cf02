/**
 * The body of Bedrock's InvokeModel for Anthropic models: the messages body without `model` and `stream` (the model is
 * in the path, the stream is the endpoint), with `anthropic_version` and the beta flags as `anthropic_beta` — what
 * `@anthropic-ai/bedrock-sdk` sends. That SDK copies the `anthropic-version` header of the Anthropic SDK it wraps
 * (`@anthropic-ai/sdk` 1.x: `2026-10-21`) into the body; the differential test pins it against the SDK.
 */

/** The `anthropic_version` `@anthropic-ai/bedrock-sdk` 1.1 sends (over `@anthropic-ai/sdk` 1.12). */
export const bedrockAnthropicVersion = '2026-10-21'

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
  record.anthropic_version ??= bedrockAnthropicVersion
  if (betas && record.anthropic_beta === undefined) record.anthropic_beta = betas
  return JSON.stringify(record)
}
