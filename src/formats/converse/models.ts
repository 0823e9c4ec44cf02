/** Bedrock model ids. */

/**
 * Whether a Bedrock model id names an Anthropic model: a foundation model (`anthropic.claude-…`), a cross-region
 * inference profile (`us.anthropic.…`, `global.anthropic.…`) or an ARN of either.
 */
export function isAnthropicModel(model: string): boolean {
  return /(^|[.:/])anthropic\./.test(model)
}
