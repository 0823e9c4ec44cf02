/**
 * `npm run bench:core`: the gateway's core alone, in-process — no sockets: CPU µs and bytes allocated per request for
 * every pair and mode, through the exchange handler the Node adapter drives, with an instant fake upstream transport
 * answering the bench's canned bodies. What is left between this and the bench's req/s is `node:http` (server and
 * client) and GC. `npm run bench:core` runs it with `--expose-gc` and a 128 MB young generation: allocation is the
 * heap growth over a batch that fits in it (no collection in between). `CORE_REQUESTS` per batch (default 500, 1000
 * with `CORE_HOOKS`; keep batch × KB/req under the young generation), `CORE_LIB_DIR` measures another build (default
 * `dist/`),
 * `CORE_CASES` (comma-separated `pair:mode`) a subset; `cc→mock` is the embedded mock model. `CORE_HOOKS=1` measures
 * each case on a second gateway with the hooks a service uses as well (`benchHooks`: `authenticate` returning a caller,
 * `onRequest`, `onResponse` with usage), the two interleaved over `CORE_ROUNDS` rounds (default 15), and prints the
 * median of the per-round differences: what calling the hooks costs per request (issue 22).
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

const pairs: Array<[string, FormatId, string, FormatId | 'mock']> = [
  ['cc→cc', 'chat-completions', 'bench-cc', 'chat-completions'],
  ['cc→msg', 'chat-completions', 'bench-msg', 'messages'],
  ['msg→cc', 'messages', 'bench-cc', 'chat-completions'],
  ['cc→gen', 'chat-completions', 'bench-gen', 'content-generation'],
  ['gen→msg', 'content-generation', 'bench-msg', 'messages'],
  ['cc→mock', 'chat-completions', 'interlingua-mock', 'mock'],
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
    createGateway: (options: unknown) => Record<symbol, unknown>
  }
  const canned = await buildCanned(await loadLibrary())
  const encoder = new TextEncoder()
  const options = (await import(pathToFileURL(join(benchDir, 'servers/gateway-options.mjs')).href)) as {
    benchGatewayOptions: (upstream: string) => unknown
    benchHooks: () => { hooks: Record<string, unknown>; tokens: () => number }
  }
  const hooksOn = process.env.CORE_HOOKS === '1'
  const gatewayOptions = options.benchGatewayOptions('http://127.0.0.1:9') as Record<string, unknown>
  // The mock model answers when the gateway has no upstream.
  const handlerOf = (mock: boolean, hooks: Record<string, unknown> | undefined) =>
    createGateway({ ...(mock ? {} : gatewayOptions), ...hooks })[Symbol.for('interlingua.exchange')] as Handler
  const bench = hooksOn ? options.benchHooks() : undefined
  const variants = (mock: boolean): Array<[string, Handler]> => [
    ['gateway', handlerOf(mock, undefined)],
    ...(bench ? [['+hooks', handlerOf(mock, bench.hooks)] as [string, Handler]] : []),
  ]
  const served = { upstream: variants(false), mock: variants(true) }
  const n = Number(process.env.CORE_REQUESTS ?? (hooksOn ? 1000 : 500))
  const rounds = Number(process.env.CORE_ROUNDS ?? (hooksOn ? 15 : 5))
  const only = process.env.CORE_CASES?.split(',')
  console.log(
    hooksOn ? 'case\tµs/req\tKB/req\t+hooks µs/req\tKB/req\thooks Δµs (median per round)' : 'case\tµs/req\tKB/req',
  )
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
      const mock = upstreamFormat === 'mock'
      const answerText = upstreamFormat === 'mock' ? '' : sse ? canned[upstreamFormat].sse : canned[upstreamFormat].json
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
      const one = async (handle: Handler) => {
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
      const handlers = mock ? served.mock : served.upstream
      for (const [, handle] of handlers) for (let i = 0; i < 2000; i++) await one(handle)
      const times = handlers.map((): number[] => [])
      const allocs = handlers.map((): number[] => [])
      for (let round = 0; round < rounds; round++) {
        // Interleaved, the order alternating: a drift of the machine falls on both alike.
        const order = round % 2 === 0 ? handlers.map((_, i) => i) : handlers.map((_, i) => i).reverse()
        for (const index of order) {
          const handle = (handlers[index] as [string, Handler])[1]
          gc()
          const heapBefore = process.memoryUsage().heapUsed
          const before = process.cpuUsage()
          for (let i = 0; i < n; i++) await one(handle)
          const used = process.cpuUsage(before)
          allocs[index]?.push((process.memoryUsage().heapUsed - heapBefore) / n)
          times[index]?.push((used.user + used.system) / n)
        }
      }
      const cells = handlers.flatMap((_, i) => [
        median(times[i] as number[]).toFixed(1),
        (median(allocs[i] as number[]) / 1024).toFixed(1),
      ])
      if (hooksOn) {
        const [plain, hooked] = times as [number[], number[]]
        cells.push(median(hooked.map((value, round) => value - (plain[round] as number))).toFixed(2))
      }
      console.log([`${pair}:${sse ? 'sse' : 'json'}`, ...cells].join('\t'))
    }
  }
  if (bench && bench.tokens() === 0) throw new Error('CORE_HOOKS: onResponse saw no usage')
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
