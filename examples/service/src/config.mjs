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
  // The clouds (Bedrock, Vertex AI, Azure OpenAI, from their own variables) are listed by their routes below.
  const firstParty = upstreams.filter(([, upstream]) => !upstream.provider)
  const configured = gatewayOptions.models
    ? Object.entries(gatewayOptions.models).map(([id, route]) => ({
        id,
        format: gatewayOptions.upstreams?.[route.upstream]?.format ?? 'mock',
        supports,
      }))
    : upstreams.length === 0
      ? [{ id: 'interlingua-mock', format: 'embedded mock model', supports: `${supports} (deterministic)` }]
      : firstParty.map(([name, upstream]) => ({
          id: defaults[name]?.id ?? `${name}/<model>`,
          format: upstream.format,
          supports,
        }))
  const models = [...configured, ...cloudModels(gatewayOptions.listedModels ?? [], cli.cloudRoutes ?? [])]
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

/**
 * The clouds' models for the console: each listed id (BEDROCK_MODELS, VERTEX_MODELS, AZURE_OPENAI_DEPLOYMENTS) with the
 * cloud and API it reaches, then each cloud's id patterns (`bedrock/<modelId>`…), which take any id.
 */
function cloudModels(listed, routes) {
  const literal = (route) => route.id.slice(route.id.indexOf('/') + 1).split('<')[0]
  const routeOf = (id) => {
    const prefix = id.slice(0, id.indexOf('/') + 1)
    const rest = id.slice(prefix.length)
    const same = routes.filter((route) => route.id.startsWith(prefix))
    return same.find((route) => literal(route) && rest.startsWith(literal(route))) ?? same.find((r) => !literal(r))
  }
  const describe = (route) => (route ? `${route.upstream} — ${route.note}` : 'cloud')
  return [
    ...listed.map((id) => ({ id, format: describe(routeOf(id)), supports })),
    ...routes.map((route) => ({ id: route.id, format: describe(route), supports, pattern: true })),
  ]
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
