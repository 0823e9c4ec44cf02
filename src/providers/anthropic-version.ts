/**
 * The `anthropic_version` a Claude body carries on Bedrock (InvokeModel) and Vertex AI (rawPredict). The official
 * clients — `@anthropic-ai/bedrock-sdk` 1.1.2/1.1.3 and `@anthropic-ai/vertex-sdk` 1.1.3, current in November 2026 —
 * copy the `anthropic-version` header of the Anthropic SDK they wrap into the body (`@anthropic-ai/sdk` 1.12 to 1.14:
 * `2026-10-21`) rather than the values the clouds' older documentation gives (`bedrock-2023-05-31`,
 * `vertex-2023-10-16`); the gateway sends what they send. The differential tests drive each SDK at the clouds' strict
 * stand-ins and compare (test/clouds/bedrock.test.ts, vertex.test.ts). A client body's own `anthropic_version` wins.
 */
export const anthropicBodyVersion = '2026-10-21'
