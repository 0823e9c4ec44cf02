/// <reference types="node" />
import { readFileSync } from 'node:fs'
import type { GatewayOptions, UpstreamOptions } from '../gateway/options.js'
import type { MemoryResponseStoreOptions } from '../gateway/response-store.js'
import { type CloudRoute, cloudsFromEnv } from './cli-clouds.js'

export type { CloudRoute } from './cli-clouds.js'

/** What the CLI was told: flags first, then the environment, then the config file, then defaults. */
export interface CliConfig {
  host: string
  port: number
  gateway: GatewayOptions
  /** Human-readable lines describing the configuration (no secrets). */
  summary: string[]
  /** True when no client key is required. */
  openAccess: boolean
  /** How clients name the clouds' models (`bedrock/<modelId>`…), for a model list page. */
  cloudRoutes: CloudRoute[]
}

interface ConfigFile {
  host?: string
  port?: number
  apiKeys?: string[]
  upstreams?: Record<string, UpstreamOptions>
  models?: GatewayOptions['models']
  defaultUpstream?: string
  timeoutMs?: number
  maxBodyBytes?: number
  /** The response store's bounds, or `false` for a stateless gateway (see `GatewayOptions.responseStore`). */
  responseStore?: MemoryResponseStoreOptions | false
}

const envUpstreams = [
  {
    name: 'openai',
    format: 'chat-completions',
    key: 'OPENAI_API_KEY',
    base: 'OPENAI_BASE_URL',
    defaultBase: 'https://api.openai.com/v1',
    prefixes: ['gpt-', 'o1', 'o3', 'o4', 'chatgpt-', 'text-', 'openai/'],
  },
  {
    name: 'anthropic',
    format: 'messages',
    key: 'ANTHROPIC_API_KEY',
    base: 'ANTHROPIC_BASE_URL',
    defaultBase: 'https://api.anthropic.com',
    prefixes: ['claude', 'anthropic/'],
  },
  {
    name: 'gemini',
    format: 'content-generation',
    key: 'GEMINI_API_KEY',
    base: 'GEMINI_BASE_URL',
    defaultBase: 'https://generativelanguage.googleapis.com',
    prefixes: ['gemini', 'gemma', 'models/gemini', 'google/'],
  },
] as const

function parseFlags(argv: readonly string[]): Record<string, string> {
  const flags: Record<string, string> = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (!arg.startsWith('--')) continue
    const eq = arg.indexOf('=')
    if (eq > 0) flags[arg.slice(2, eq)] = arg.slice(eq + 1)
    else if (i + 1 < argv.length && !(argv[i + 1] as string).startsWith('--')) flags[arg.slice(2)] = argv[++i] as string
    else flags[arg.slice(2)] = 'true'
  }
  return flags
}

/** What the startup banner says of the Responses store (on by default, bounded, per process). */
function responseStoreLine(option: MemoryResponseStoreOptions | false | undefined): string {
  if (option === false) return 'responses store: off (stateless: previous_response_id and item_reference answer 400)'
  const count = option?.maxResponses ?? 1000
  const mib = Math.round((option?.maxBytes ?? 64 * 1024 * 1024) / 1024 / 1024)
  const minutes = Math.round((option?.ttlMs ?? 3_600_000) / 60_000)
  return `responses store: in memory, per process (${count} responses, ${mib} MiB, ${minutes} min; "responseStore": false in the config file turns it off)`
}

/** Builds the gateway configuration from argv, the environment and an optional `--config file.json`. */
export function loadCliConfig(argv: readonly string[], env: NodeJS.ProcessEnv): CliConfig {
  const flags = parseFlags(argv)
  const file: ConfigFile = flags.config ? (JSON.parse(readFileSync(flags.config, 'utf8')) as ConfigFile) : {}
  const host = flags.host ?? env.HOST ?? file.host ?? '127.0.0.1'
  const port = Number(flags.port ?? env.PORT ?? file.port ?? 8787)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Invalid port: ${String(flags.port ?? env.PORT ?? file.port)}`)

  const upstreams: Record<string, UpstreamOptions> = { ...file.upstreams }
  const prefixRoutes: Array<{ prefix: string; upstream: string }> = []
  const summary: string[] = []
  for (const spec of envUpstreams) {
    const apiKey = env[spec.key]
    if (!apiKey) continue
    upstreams[spec.name] = { format: spec.format, baseURL: env[spec.base] || spec.defaultBase, apiKey }
    for (const prefix of spec.prefixes) prefixRoutes.push({ prefix, upstream: spec.name })
    summary.push(`upstream ${spec.name} (${spec.format}) at ${upstreams[spec.name]?.baseURL} — key from ${spec.key}`)
  }
  const clouds = cloudsFromEnv(env)
  for (const cloud of clouds) {
    Object.assign(upstreams, cloud.upstreams)
    summary.push(cloud.summary)
  }
  for (const [name, upstream] of Object.entries(file.upstreams ?? {})) {
    summary.push(
      `upstream ${name} (${upstream.format}) at ${upstream.baseURL ?? '(embedded mock)'} — from ${flags.config}`,
    )
  }
  const upstreamNames = Object.keys(upstreams)
  const defaultUpstream = file.defaultUpstream ?? (upstreamNames.length === 1 ? upstreamNames[0] : undefined)
  if (upstreamNames.length === 0)
    summary.push('no upstream configured: every model is served by the embedded mock model')

  const gateway: GatewayOptions = { upstreams }
  if (file.models) gateway.models = file.models
  const listed = clouds.flatMap((cloud) => cloud.listed)
  if (listed.length > 0) {
    gateway.listedModels = listed
    summary.push(`models listed: ${listed.join(', ')}`)
  }
  if (file.timeoutMs !== undefined) gateway.timeoutMs = file.timeoutMs
  if (file.maxBodyBytes !== undefined) gateway.maxBodyBytes = file.maxBodyBytes
  if (file.responseStore !== undefined) gateway.responseStore = file.responseStore
  summary.push(responseStoreLine(file.responseStore))
  if (upstreamNames.length > 0) {
    gateway.resolveModel = (model, context) => {
      const slash = model.indexOf('/')
      // "azure/<deployment>", "vertex/<model>", "bedrock/<modelId>": the cloud's route, which may depend on the
      // client's format (Azure) or the model (Bedrock's Anthropic ids).
      const prefix = slash > 0 ? model.slice(0, slash) : ''
      const cloud = slash > 0 ? clouds.find((entry) => entry.prefixes.includes(prefix)) : undefined
      if (cloud) return cloud.route(model.slice(slash + 1), context.format, prefix)
      // "upstream/model" names the upstream explicitly.
      if (slash > 0 && upstreams[model.slice(0, slash)])
        return { upstream: model.slice(0, slash), model: model.slice(slash + 1) }
      const lower = model.toLowerCase()
      const byPrefix = prefixRoutes.find((route) => lower.startsWith(route.prefix))
      if (byPrefix) return { upstream: byPrefix.upstream }
      return defaultUpstream ? { upstream: defaultUpstream } : undefined
    }
  }
  const keys = (env.INTERLINGUA_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean)
  const apiKeys = [...keys, ...(file.apiKeys ?? [])]
  if (apiKeys.length > 0) gateway.apiKeys = apiKeys
  const cloudRoutes = clouds.flatMap((cloud) => cloud.routes)
  return { host, port, gateway, summary, openAccess: apiKeys.length === 0, cloudRoutes }
}
