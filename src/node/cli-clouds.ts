/// <reference types="node" />
/**
 * The CLI's cloud upstreams, read from each cloud's own environment variables so that a user who has them set needs
 * nothing new (issue 23 §5). Each cloud is one reader: the upstreams it configures and the `<prefix>/<model>` routes it
 * serves (the client's format may choose the upstream: an Azure deployment serves Responses clients on `/responses`).
 * A cloud is added by adding its reader to `readers`.
 */
import { readFileSync } from 'node:fs'
import type { FormatId } from '../formats/format.js'
import type { ModelRoute, UpstreamOptions } from '../gateway/options.js'
import type { ServiceAccountKey } from '../providers/provider.js'
import { bedrockFromEnv } from './cli-bedrock.js'

/** One cloud as the environment configures it. */
export interface Cloud {
  upstreams: Record<string, UpstreamOptions>
  /** Model ids `<prefix>/<model>` are this cloud's, for each of these prefixes. */
  prefixes: readonly string[]
  /** The route of `<prefix>/<model>` for a client of `client`'s format. */
  route(model: string, client: FormatId, prefix: string): ModelRoute
  /** What was configured, for the start-up lines (no secrets). */
  summary: string
  /** The `<prefix>/<model>` ids the model listings show (each cloud's `…_MODELS`/`…_DEPLOYMENTS` variable). */
  listed: string[]
  /** How clients name this cloud's models: `bedrock/<modelId>`…, with what each reaches (for a model list page). */
  routes: CloudRoute[]
}

/** One way of naming a cloud's models, for people: `{ id: 'vertex/<model>', upstream: 'Google Vertex AI', note }`. */
export interface CloudRoute {
  id: string
  upstream: string
  note: string
}

type Env = NodeJS.ProcessEnv

/**
 * `a, b` → `['<prefix>/a', '<prefix>/b']`: the ids a comma-separated variable names, with the cloud's first prefix
 * unless they carry one of its prefixes already (`bedrock-converse/<id>`).
 */
export function listedIds(value: string | undefined, prefixes: readonly string[]): string[] {
  return (value ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '')
    .map((id) => (prefixes.some((prefix) => id.startsWith(`${prefix}/`)) ? id : `${prefixes[0]}/${id}`))
}

/**
 * Azure OpenAI: `AZURE_OPENAI_ENDPOINT` and `AZURE_OPENAI_API_KEY` (`OPENAI_API_VERSION` selects the classic
 * deployments API). `azure/<deployment>`: Responses clients → `/responses`, every other client → `/chat/completions`.
 * `AZURE_OPENAI_DEPLOYMENTS` (comma-separated) lists deployments in the model listings.
 */
function azureFromEnv(env: Env): Cloud | undefined {
  const endpoint = env.AZURE_OPENAI_ENDPOINT
  const apiKey = env.AZURE_OPENAI_API_KEY
  if (!endpoint || !apiKey) return undefined
  const base: Omit<UpstreamOptions, 'format'> = { provider: 'azure', baseURL: endpoint, apiKey }
  if (env.OPENAI_API_VERSION) base.apiVersion = env.OPENAI_API_VERSION
  const api = base.apiVersion ? `classic API, api-version ${base.apiVersion}` : 'v1 API'
  return {
    upstreams: {
      azure: { format: 'chat-completions', ...base },
      'azure-responses': { format: 'responses', ...base },
    },
    prefixes: ['azure'],
    route: (model, client) => ({ upstream: client === 'responses' ? 'azure-responses' : 'azure', model }),
    summary: `upstream azure (Azure OpenAI, ${api}) at ${endpoint} — key from AZURE_OPENAI_API_KEY; models azure/<deployment>`,
    listed: listedIds(env.AZURE_OPENAI_DEPLOYMENTS, ['azure']),
    routes: [
      {
        id: 'azure/<deployment>',
        upstream: 'Azure OpenAI',
        note: 'Responses clients to /responses, the others to /chat/completions',
      },
    ],
  }
}

/**
 * Google Vertex AI: `GOOGLE_APPLICATION_CREDENTIALS` (a service-account key file), `GOOGLE_CLOUD_PROJECT` (default: the
 * key's project), `GOOGLE_CLOUD_LOCATION` (default `global`), `VERTEX_BASE_URL`. `vertex/claude-…` → the Anthropic
 * publisher (messages), every other `vertex/<model>` → Google's (content-generation). `VERTEX_MODELS` (comma-separated)
 * lists models in the model listings.
 */
function vertexFromEnv(env: Env): Cloud | undefined {
  const file = env.GOOGLE_APPLICATION_CREDENTIALS
  if (!file) return undefined
  let key: ServiceAccountKey & { type?: string }
  try {
    key = JSON.parse(readFileSync(file, 'utf8')) as ServiceAccountKey
  } catch (error) {
    throw new Error(`GOOGLE_APPLICATION_CREDENTIALS: cannot read ${file} as JSON (${(error as Error).message})`)
  }
  if (key.type !== 'service_account')
    throw new Error(
      `GOOGLE_APPLICATION_CREDENTIALS: ${file} is a "${String(key.type)}" credential; a service-account key is needed`,
    )
  const project = env.GOOGLE_CLOUD_PROJECT || key.project_id
  if (!project) throw new Error('GOOGLE_CLOUD_PROJECT is required (the key file names no project)')
  const location = env.GOOGLE_CLOUD_LOCATION || 'global'
  const base: Omit<UpstreamOptions, 'format'> = { provider: 'vertex', project, location, auth: { serviceAccount: key } }
  if (env.VERTEX_BASE_URL) base.baseURL = env.VERTEX_BASE_URL
  return {
    upstreams: {
      vertex: { format: 'content-generation', ...base },
      'vertex-anthropic': { format: 'messages', ...base },
    },
    prefixes: ['vertex'],
    route: (model) => ({ upstream: model.startsWith('claude-') ? 'vertex-anthropic' : 'vertex', model }),
    summary: `upstream vertex (Vertex AI, project ${project}, location ${location}${env.VERTEX_BASE_URL ? ` at ${env.VERTEX_BASE_URL}` : ''}) — service account ${key.client_email}; models vertex/<model> (claude-… → Anthropic)`,
    listed: listedIds(env.VERTEX_MODELS, ['vertex']),
    routes: [
      { id: 'vertex/<model>', upstream: 'Google Vertex AI', note: 'Gemini models (generateContent)' },
      { id: 'vertex/claude-<model>', upstream: 'Google Vertex AI', note: 'Claude models (rawPredict)' },
    ],
  }
}

const readers = [azureFromEnv, vertexFromEnv, bedrockFromEnv]

/** Every cloud the environment configures. */
export function cloudsFromEnv(env: Env): Cloud[] {
  const clouds: Cloud[] = []
  for (const read of readers) {
    const cloud = read(env)
    if (cloud) clouds.push(cloud)
  }
  return clouds
}
