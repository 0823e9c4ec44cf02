#!/usr/bin/env node
/// <reference types="node" />
/**
 * `interlingua` — serve the gateway on 127.0.0.1:8787 (flags `--host`, `--port`, `--config file.json`;
 * env `HOST`, `PORT`, `OPENAI_API_KEY`/`OPENAI_BASE_URL`, `ANTHROPIC_API_KEY`/`ANTHROPIC_BASE_URL`,
 * `GEMINI_API_KEY`/`GEMINI_BASE_URL`, the clouds' own variables (see `cli-clouds.ts`), `INTERLINGUA_API_KEYS`). With
 * no upstream it serves the embedded mock model.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createGateway } from '../gateway/create-gateway.js'
import { toNodeListener } from '../node.js'
import { runCheckCommand } from './check/cli-check.js'
import { loadCliConfig } from './cli-config.js'

const usage = `Usage: interlingua [--host 127.0.0.1] [--port 8787] [--config file.json]
       interlingua check <baseURL> [--format F] [--key K] [--model [F=]ID] [--only FEATURE] [--json]   (see check --help)

Serves OpenAI Chat Completions, Anthropic Messages and Gemini generateContent on one address.
Environment: HOST, PORT; OPENAI_API_KEY / OPENAI_BASE_URL, ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL,
GEMINI_API_KEY / GEMINI_BASE_URL route models to real upstreams (gpt-*/o* → OpenAI, claude* → Anthropic,
gemini* → Gemini, or "upstream/model"); with none, every model is served by the embedded mock model.
Clouds: AZURE_OPENAI_ENDPOINT / AZURE_OPENAI_API_KEY [/ OPENAI_API_VERSION] route azure/<deployment>;
GOOGLE_APPLICATION_CREDENTIALS (a service-account key file) [/ GOOGLE_CLOUD_PROJECT / GOOGLE_CLOUD_LOCATION /
VERTEX_BASE_URL] route vertex/<model> (claude-… → Anthropic on Vertex, else Gemini); AWS_REGION,
AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY [/ AWS_SESSION_TOKEN] or AWS_BEARER_TOKEN_BEDROCK [/ BEDROCK_BASE_URL] route
bedrock/<modelId> (Anthropic ids → InvokeModel, else Converse) and bedrock-converse/<modelId>. AZURE_OPENAI_DEPLOYMENTS,
VERTEX_MODELS, BEDROCK_MODELS (comma-separated) list those models in GET /v1/models.
INTERLINGUA_API_KEYS (comma-separated) requires one of those keys from clients.
The config file may set host, port, apiKeys, upstreams, models, defaultUpstream, timeoutMs, maxBodyBytes,
responseStore ({ maxResponses, maxBytes, ttlMs } for the in-memory Responses store, on by default; false: stateless).`

function main(): void {
  if (process.argv[2] === 'check') {
    runCheckCommand(process.argv.slice(3))
    return
  }
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(usage)
    return
  }
  const config = loadCliConfig(process.argv.slice(2), process.env)
  const gateway = createGateway(config.gateway)
  const server = createServer(toNodeListener(gateway))
  server.keepAliveTimeout = 65_000
  server.on('error', (error) => {
    console.error(`interlingua: ${error.message}`)
    process.exit(1)
  })
  server.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo
    const host = config.host.includes(':') ? `[${config.host}]` : config.host
    const base = `http://${host}:${port}`
    const lines = [
      `interlingua gateway listening on ${base}`,
      ...config.summary.map((line) => `  ${line}`),
      config.openAccess
        ? '  client keys: none required (INTERLINGUA_API_KEYS is unset, so any key is accepted)'
        : '  client keys: required (INTERLINGUA_API_KEYS / config apiKeys)',
      'Point the official SDKs at it:',
      `  openai         new OpenAI({ baseURL: '${base}/v1', apiKey })`,
      `  anthropic      new Anthropic({ baseURL: '${base}', apiKey })`,
      `  @google/genai  new GoogleGenAI({ apiKey, httpOptions: { baseUrl: '${base}' } })`,
    ]
    console.log(lines.join('\n'))
  })
  let closing = false
  const shutdown = (signal: string) => {
    if (closing) return
    closing = true
    console.log(`interlingua: ${signal} received, shutting down`)
    server.close(() => process.exit(0))
    server.closeIdleConnections()
    // Streams still open after a grace period are cut.
    setTimeout(() => {
      server.closeAllConnections()
      process.exit(0)
    }, 2_000).unref()
  }
  process.on('SIGINT', () => shutdown('SIGINT'))
  process.on('SIGTERM', () => shutdown('SIGTERM'))
}

main()
