/**
 * Something a conversion could not carry exactly (policy 2: nothing is dropped silently).
 * - `dropped`: a field or part that the target cannot hold was left out.
 * - `changed`: a value was clamped, approximated or moved (e.g. a mid-conversation system prompt hoisted).
 */
export interface Warning {
  type: 'dropped' | 'changed'
  /** JSON path in the source body (e.g. `messages[2].content[0]`, `logit_bias`). */
  path: string
  message: string
}
