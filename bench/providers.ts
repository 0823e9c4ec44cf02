/**
 * `npx tsx bench/providers.ts`: the latency a cloud provider adds over the same format's first-party upstream, through
 * the gateway served with `toNodeListener`, in front of one canned upstream (same answer bodies for both): Azure
 * (api-key, v1 path) vs OpenAI; Vertex AI Claude (service-account token, body rewritten) vs Anthropic; Vertex AI Gemini
 * vs Gemini. Same-format clients (passthrough), requests interleaved, one at a time. `PROVIDERS_N` (default 1500)
 * requests per route. Prints p50/p90 in µs per route, the difference and the ratio to the first-party upstream's p50.
 */
import { generateKeyPairSync } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createGateway } from '../src/gateway/create-gateway.js'
import { toNodeListener } from '../src/node.js'

const n = Number(process.env.PROVIDERS_N ?? 1500)
const chat = JSON.stringify({
  id: 'c1',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
})
const message = JSON.stringify({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'm',
  content: [{ type: 'text', text: 'Hello there.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 5, output_tokens: 3 },
})
const gemini = JSON.stringify({
  candidates: [{ content: { role: 'model', parts: [{ text: 'Hello there.' }] }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 },
})

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler)
  server.keepAliveTimeout = 60_000
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  )
}

const upstream = await listen((req, res) => {
  req.resume()
  req.on('end', () => {
    const url = req.url ?? ''
    const body =
      url === '/token'
        ? JSON.stringify({ access_token: 'ya29.bench', expires_in: 3599 })
        : url.includes('chat/completions')
          ? chat
          : url.includes('generateContent')
            ? gemini
            : message
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  })
})

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const serviceAccount = {
  type: 'service_account',
  client_email: 'bench@p.iam.gserviceaccount.com',
  private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  token_uri: `${upstream}/token`,
}
const vertex = {
  provider: 'vertex' as const,
  project: 'p',
  location: 'us-east5',
  baseURL: upstream,
  auth: { serviceAccount },
}
const gateway = createGateway({
  upstreams: {
    openai: { format: 'chat-completions', baseURL: `${upstream}/v1`, apiKey: 'k' },
    azure: { format: 'chat-completions', provider: 'azure', baseURL: upstream, apiKey: 'k' },
    anthropic: { format: 'messages', baseURL: upstream, apiKey: 'k' },
    'vertex-claude': { format: 'messages', ...vertex },
    gemini: { format: 'content-generation', baseURL: upstream, apiKey: 'k' },
    'vertex-gemini': { format: 'content-generation', ...vertex },
  },
  models: Object.fromEntries(
    ['openai', 'azure', 'anthropic', 'vertex-claude', 'gemini', 'vertex-gemini'].map((name) => [
      name,
      { upstream: name },
    ]),
  ),
})
const base = await listen(toNodeListener(gateway))

const text = [{ role: 'user', content: 'Say hello' }]
const requests: Record<string, [string, string]> = {}
for (const model of ['openai', 'azure'])
  requests[model] = ['/v1/chat/completions', JSON.stringify({ model, messages: text })]
for (const model of ['anthropic', 'vertex-claude'])
  requests[model] = ['/v1/messages', JSON.stringify({ model, max_tokens: 64, messages: text })]
for (const model of ['gemini', 'vertex-gemini'])
  requests[model] = [
    `/v1beta/models/${model}:generateContent`,
    JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }] }),
  ]

async function once(model: string): Promise<number> {
  const [path, body] = requests[model] as [string, string]
  const started = process.hrtime.bigint()
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer c', 'x-goog-api-key': 'c' },
    body,
  })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`${model}: HTTP ${response.status}`)
  return Number(process.hrtime.bigint() - started) / 1000
}

const names = Object.keys(requests)
const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]))
for (const name of names) for (let i = 0; i < 50; i++) await once(name)
for (let i = 0; i < n; i++) for (const name of names) times[name]?.push(await once(name))
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * p)] as number
console.log(`route\tp50 µs\tp90 µs\t(n=${n}, interleaved, passthrough)`)
for (const [first, cloud] of [
  ['openai', 'azure'],
  ['anthropic', 'vertex-claude'],
  ['gemini', 'vertex-gemini'],
] as const) {
  const a = times[first] as number[]
  const b = times[cloud] as number[]
  console.log(`${first}\t${pct(a, 0.5).toFixed(0)}\t${pct(a, 0.9).toFixed(0)}`)
  console.log(
    `${cloud}\t${pct(b, 0.5).toFixed(0)}\t${pct(b, 0.9).toFixed(0)}\t(${pct(b, 0.5) >= pct(a, 0.5) ? '+' : ''}${(pct(b, 0.5) - pct(a, 0.5)).toFixed(0)} µs p50, ${(pct(b, 0.5) / pct(a, 0.5)).toFixed(2)}× the first-party p50)`,
  )
}
process.exit(0)
