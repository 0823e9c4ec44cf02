/** The service's configuration from the environment (and the library CLI's `--config file.json`). */
import { loadCliConfig } from 'interlingua/node'

const defaults = {
  openai: { id: 'gpt-4o-mini', format: 'chat-completions' },
  anthropic: { id: 'claude-sonnet-4-5', format: 'messages' },
  gemini: { id: 'gemini-2.5-flash', format: 'content-generation' },
}
const supports = 'text, images, tools, reasoning, streaming'

export function loadConfig(argv = process.argv.slice(2), env = process.env) {
  const cli = loadCliConfig(argv, { ...env, PORT: env.PORT ?? '8788' })
  const publicUrl = (env.PUBLIC_URL ?? `http://${cli.host}:${cli.port}`).replace(/\/+$/, '')
  const gatewayOptions = { ...cli.gateway }
  delete gatewayOptions.apiKeys // the service's own keys are the only client keys
  // The service keeps conversation state in its database (src/stores.mjs), shared by every instance.
  delete gatewayOptions.responseStore
  delete gatewayOptions.reasoningStore
  const upstreams = Object.entries(gatewayOptions.upstreams ?? {})
  const models = gatewayOptions.models
    ? Object.entries(gatewayOptions.models).map(([id, route]) => ({
        id,
        format: gatewayOptions.upstreams?.[route.upstream]?.format ?? 'mock',
        supports,
      }))
    : upstreams.length === 0
      ? [{ id: 'interlingua-mock', format: 'embedded mock model', supports: `${supports} (deterministic)` }]
      : upstreams.map(([name, upstream]) => ({
          id: defaults[name]?.id ?? `${name}/<model>`,
          format: upstream.format,
          supports,
        }))
  return {
    host: cli.host,
    port: cli.port,
    publicUrl,
    dataDir: env.DATA_DIR ?? './data',
    databaseUrl: env.DATABASE_URL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? 'interlingua <no-reply@localhost>',
    keyRateLimit: positiveInteger(env.KEY_RATE_LIMIT, 'KEY_RATE_LIMIT') ?? 600,
    keyTokenLimit: positiveInteger(env.KEY_TOKEN_LIMIT, 'KEY_TOKEN_LIMIT'),
    usageFlushMs: positiveInteger(env.USAGE_FLUSH_MS, 'USAGE_FLUSH_MS') ?? 1000,
    metricsToken: env.METRICS_TOKEN || undefined,
    logRetentionDays:
      env.LOG_RETENTION_DAYS === '0' ? 0 : (positiveInteger(env.LOG_RETENTION_DAYS, 'LOG_RETENTION_DAYS') ?? 7),
    logLevel: logLevelOf(env.LOG_LEVEL),
    gatewayOptions,
    models,
    summary: [
      ...cli.summary.filter((line) => !/^respon?ses store/i.test(line)),
      'conversation state (Responses store, reasoning): in the database, shared by every instance',
    ],
  }
}

function logLevelOf(value) {
  if (value === undefined || value === '') return 'info'
  const level = value.toLowerCase()
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(level))
    throw new Error(`LOG_LEVEL must be debug, info, warn, error or silent, not "${value}"`)
  return level
}

function positiveInteger(value, name) {
  if (value === undefined || value === '') return undefined
  const number = Number(value)
  if (!Number.isSafeInteger(number) || number < 1) throw new Error(`${name} must be a positive integer, not "${value}"`)
  return number
}
