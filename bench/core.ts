/**
 * `npm run bench:core`: the gateway's core alone, in-process — no sockets: CPU µs and bytes allocated per request for
 * every pair and mode, through the exchange handler the Node adapter drives, with an instant fake upstream transport
 * answering the bench's canned bodies. What is left between this and the bench's req/s is `node:http` (server and
 * client) and GC. `npm run bench:core` runs it with `--expose-gc` and a 128 MB young generation: allocation is the
 * heap growth over a batch that fits in it (no collection in between). `CORE_REQUESTS` per batch (default 500; keep
 * batch × KB/req under the young generation), `CORE_LIB_DIR` measures another build (default `dist/`),
 * `CORE_CASES` (comma-separated `pair:mode`) a subset.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildCanned, httpRequest } from './fixtures.js'
import { benchDir, type FormatId, loadLibrary, rootDir } from './lib.js'

interface ExchangeRequest {
  method: string
  path: string
  query: string
  header(name: string): string | null
  text(maxBytes: number): Promise<string | undefined>
  onClose(listener: () => void): () => void
  toRequest(): Request
}
interface ChunkSource {
  next(): Promise<string | Uint8Array | undefined>
}
type Handler = (
  request: ExchangeRequest,
  runtime: { transport: (call: { url: string; body: string }) => Promise<unknown> },
) => Promise<{ status: number; body: unknown }>

const pairs: Array<[string, FormatId, string, FormatId]> = [
  ['cc→cc', 'chat-completions', 'bench-cc', 'chat-completions'],
  ['cc→msg', 'chat-completions', 'bench-msg', 'messages'],
  ['msg→cc', 'messages', 'bench-cc', 'chat-completions'],
  ['cc→gen', 'chat-completions', 'bench-gen', 'content-generation'],
  ['gen→msg', 'content-generation', 'bench-msg', 'messages'],
]

function pathOf(client: FormatId, model: string, sse: boolean): string {
  if (client === 'content-generation')
    return `/v1beta/models/${model}:${sse ? 'streamGenerateContent?alt=sse' : 'generateContent'}`
  return client === 'messages' ? '/v1/messages' : '/v1/chat/completions'
}

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error('run with --expose-gc')
  const dir = process.env.CORE_LIB_DIR ?? join(rootDir, 'dist')
  const { createGateway } = (await import(pathToFileURL(join(dir, 'gateway.js')).href)) as {
    createGateway: (options: unknown) => Record<symbol, Handler>
  }
  const canned = await buildCanned(await loadLibrary())
  const encoder = new TextEncoder()
  const options = (await import(pathToFileURL(join(benchDir, 'servers/gateway-options.mjs')).href)) as {
    benchGatewayOptions: (upstream: string) => unknown
  }
  const gateway = createGateway(options.benchGatewayOptions('http://127.0.0.1:9'))
  const handle = gateway[Symbol.for('interlingua.exchange')] as Handler
  const n = Number(process.env.CORE_REQUESTS ?? 500)
  const only = process.env.CORE_CASES?.split(',')
  console.log('case\tµs/req\tKB/req')
  for (const sse of [false, true]) {
    for (const [pair, client, model, upstreamFormat] of pairs) {
      if (only && !only.includes(`${pair}:${sse ? 'sse' : 'json'}`)) continue
      const body = httpRequest(client, model, sse)
      const full = pathOf(client, model, sse)
      const queryAt = full.indexOf('?')
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        ...(client === 'messages'
          ? { 'x-api-key': 'sk-bench-client', 'anthropic-version': '2023-06-01' }
          : { authorization: 'Bearer sk-bench-client' }),
      }
      const answerText = sse ? canned[upstreamFormat].sse : canned[upstreamFormat].json
      // The SSE answer arrives in 4 reads, as it would off a socket.
      const quarter = Math.ceil(answerText.length / 4)
      const chunks = sse
        ? [0, 1, 2, 3].map((i) => encoder.encode(answerText.slice(i * quarter, (i + 1) * quarter)))
        : [encoder.encode(answerText)]
      const transport = async () => {
        let at = 0
        return {
          status: 200,
          header: (name: string) =>
            name === 'content-type'
              ? sse
                ? 'text/event-stream'
                : 'application/json'
              : name === 'content-length' && !sse
                ? String(chunks[0]?.byteLength)
                : null,
          forEachHeader: (each: (value: string, name: string) => void) =>
            each(sse ? 'text/event-stream' : 'application/json', 'content-type'),
          next: async () => chunks[at++],
          text: async () => answerText,
          close() {},
        }
      }
      const one = async () => {
        const request: ExchangeRequest = {
          method: 'POST',
          path: queryAt < 0 ? full : full.slice(0, queryAt),
          query: queryAt < 0 ? '' : full.slice(queryAt + 1),
          header: (name) => headers[name] ?? null,
          text: async () => body,
          onClose: () => () => {},
          toRequest: () => {
            throw new Error('no Request in the core bench')
          },
        }
        const result = await handle(request, { transport })
        if (result.status !== 200) throw new Error(`${pair}: status ${result.status}`)
        const out = result.body
        if (typeof out === 'object' && out !== null && 'next' in out) {
          const source = out as ChunkSource
          while ((await source.next()) !== undefined) {}
        }
      }
      for (let i = 0; i < 2000; i++) await one()
      const times: number[] = []
      const allocs: number[] = []
      for (let round = 0; round < 5; round++) {
        gc()
        const heapBefore = process.memoryUsage().heapUsed
        const before = process.cpuUsage()
        for (let i = 0; i < n; i++) await one()
        const used = process.cpuUsage(before)
        allocs.push((process.memoryUsage().heapUsed - heapBefore) / n)
        times.push((used.user + used.system) / n)
      }
      times.sort((a, b) => a - b)
      allocs.sort((a, b) => a - b)
      console.log(`${pair}:${sse ? 'sse' : 'json'}\t${times[2]?.toFixed(1)}\t${((allocs[2] ?? 0) / 1024).toFixed(1)}`)
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
