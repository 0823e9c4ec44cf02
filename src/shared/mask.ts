/**
 * Masking of key-shaped text coming back from an upstream (an error message that echoes the key it was sent), the way
 * OpenAI masks keys in its own messages: first 3 and last 4 characters kept, the rest starred.
 */

// OpenAI/Anthropic/most providers' secret keys (`sk-…`, `sk-proj-…`, `sk-ant-…`), Google API keys (`AIza…`).
const keyShaped = /\b(?:sk-[A-Za-z0-9_-]{16,}|AIza[A-Za-z0-9_-]{30,})/g

function mask(secret: string): string {
  if (secret.length <= 8) return '*'.repeat(secret.length)
  return `${secret.slice(0, 3)}${'*'.repeat(secret.length - 7)}${secret.slice(-4)}`
}

/** `text` with every configured secret (8+ characters) and every key-shaped token masked. */
export function maskSecrets(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = text
  for (const secret of secrets) if (secret && secret.length >= 8) out = out.split(secret).join(mask(secret))
  return out.replace(keyShaped, mask)
}
