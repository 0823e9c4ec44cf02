/**
 * Load and leaks (issue 12): hundreds of concurrent streams through the gateway (`toNodeListener(gateway)` on
 * 127.0.0.1), translated (messages client → a chat-completions upstream) and from the mock model, for a bounded time;
 * then many aborted streams. This process serves only the gateway (what is measured); a child process (`driver`) is
 * the upstream and the clients. Prints one JSON line of figures: streams, errors, event-loop lag p99
 * (`monitorEventLoopDelay`), RSS and heap per open stream, memory after GC against the baseline, and how many upstream
 * requests were still open after the aborts.
 *
 * `node --expose-gc --import tsx bench/soak.ts` (env: SOAK_SECONDS, default 10; SOAK_STREAMS held open, default 300;
 * SOAK_CONCURRENCY, default 200; SOAK_ABORTS, default 1000). `test/reliability/load.test.ts` runs it in CI.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { Agent, type ClientRequest, createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

const seconds = Number(process.env.SOAK_SECONDS ?? 10)
const held = Number(process.env.SOAK_STREAMS ?? 300)
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 200)
const aborts = Number(process.env.SOAK_ABORTS ?? 1000)

type Message = { type: string; [key: string]: unknown }
const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10

// ── the driver: upstream + clients (a child process) ────────────────────────────────────────────────────────────
async function driver(): Promise<void> {
  const send = (message: Message) => process.send?.(message)
  const replies = new Map<string, (value: Message) => void>()
  const ask = (message: Message) =>
    new Promise<Message>((resolve) => {
      replies.set(message.type, resolve)
      send(message)
    })
  let front = ''
  const gotFront = new Promise<void>((resolve) =>
    process.on('message', (message: Message) => {
      if (message.type === 'front') {
        front = message.url as string
        resolve()
      } else replies.get(message.type)?.(message)
    }),
  )

  // The upstream: chat-completions SSE. `hold-*` models send a chunk every 250 ms until the client leaves (60 s at
  // most); others send 10 chunks 10 ms apart and end.
  const upstreamState = { open: 0, total: 0 }
  const chunk = (content: string) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`
  const end = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 10, total_tokens: 11 } })}\n\ndata: [DONE]\n\n`
  const upstream: Server = createServer((req, res) => {
    upstreamState.open++
    upstreamState.total++
    let closed = false
    const done = () => {
      if (closed) return
      closed = true
      upstreamState.open--
    }
    res.on('close', done)
    const body: Buffer[] = []
    req.on('data', (c: Buffer) => body.push(c))
    req.on('end', () => {
      const model = (JSON.parse(Buffer.concat(body).toString()) as { model: string }).model
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const hold = model.startsWith('hold')
      let sent = 0
      const tick = () => {
        if (closed) return
        if (!hold && sent >= 10) {
          res.end(end)
          return
        }
        res.write(chunk(`word${sent} `))
        sent++
        if (hold && sent > 240) res.end(end)
        else setTimeout(tick, hold ? 250 : 10)
      }
      tick()
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  send({ type: 'upstream', url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` })
  await gotFront

  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY })
  const bodies = {
    translated: (model: string) =>
      JSON.stringify({ model, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    mock: JSON.stringify({ model: 'mock', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  }
  const stats = { completed: 0, errors: 0, firstErrors: [] as string[] }
  const fail = (why: string) => {
    stats.errors++
    if (stats.firstErrors.length < 5) stats.firstErrors.push(why)
  }

  /** One stream; resolves when it ends (or is aborted after `abortAfterMs` from its first chunk). */
  const stream = (
    kind: 'translated' | 'mock',
    model: string,
    options: { onFirst?: () => void; abortAfterMs?: number; track?: ClientRequest[] } = {},
  ) =>
    new Promise<void>((resolve) => {
      const translated = kind === 'translated'
      const body = translated ? bodies.translated(model) : bodies.mock
      const path = translated ? '/v1/messages' : '/v1/chat/completions'
      const req = request(`${front}${path}`, {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'anthropic-version': '2023-06-01',
          authorization: 'Bearer load-key',
        },
      })
      options.track?.push(req)
      let text = ''
      let first = true
      req.on('response', (res) => {
        res.setEncoding('utf8')
        res.on('data', (c: string) => {
          text += c
          if (first) {
            first = false
            options.onFirst?.()
            if (options.abortAfterMs !== undefined) setTimeout(() => req.destroy(), options.abortAfterMs)
          }
        })
        res.on('end', () => {
          const ended = translated ? text.includes('event: message_stop') : text.includes('data: [DONE]')
          if (res.statusCode !== 200 || !ended) fail(`${kind} ${res.statusCode} ${text.slice(-200)}`)
          else stats.completed++
          resolve()
        })
        res.on('error', () => resolve())
      })
      req.on('error', (error) => {
        if (options.abortAfterMs === undefined && !options.onFirst) fail(`${kind} ${error.message}`)
        resolve()
      })
      req.on('close', () => setImmediate(resolve))
      req.end(body)
    })
  const waitUpstreamClosed = async (ms: number) => {
    const until = Date.now() + ms
    while (upstreamState.open > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
    return upstreamState.open
  }

  // Warm-up (JIT, pools), then the baseline.
  for (let i = 0; i < 10; i++)
    await Promise.all(Array.from({ length: 20 }, (_, j) => stream(j % 2 ? 'mock' : 'translated', 'short')))
  const baseline = await ask({ type: 'measure' })

  // Hold `held` translated streams open at once.
  let opened = 0
  let allOpen!: () => void
  const open = new Promise<void>((resolve) => {
    allOpen = resolve
  })
  const heldRequests: ClientRequest[] = []
  const holding = Array.from({ length: held }, () =>
    stream('translated', 'hold', {
      track: heldRequests,
      onFirst: () => {
        opened++
        if (opened === held) allOpen()
      },
    }),
  )
  await Promise.race([open, new Promise((r) => setTimeout(r, 30_000))])
  await new Promise((r) => setTimeout(r, 500))
  const loaded = await ask({ type: 'measure' })
  // Client aborts: each held stream's upstream request must close.
  for (const req of heldRequests) req.destroy()
  await Promise.all(holding)
  const openAfterHold = await waitUpstreamClosed(10_000)

  // Churn: `concurrency` workers for `seconds`, translated and mock streams alternating.
  stats.completed = 0
  await ask({ type: 'lag-start' })
  const until = Date.now() + seconds * 1000
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let i = 0; Date.now() < until; i++) await stream((w + i) % 2 ? 'mock' : 'translated', 'short')
    }),
  )
  const lag = await ask({ type: 'lag-end' })
  const churned = stats.completed

  // Aborts: streams cut by the client 0–30 ms after their first chunk.
  for (let i = 0; i < aborts; i += concurrency) {
    await Promise.all(
      Array.from({ length: Math.min(concurrency, aborts - i) }, (_, j) =>
        stream('translated', 'hold', { abortAfterMs: (i + j) % 31 }),
      ),
    )
  }
  const openAfterAborts = await waitUpstreamClosed(10_000)
  agent.destroy()
  await new Promise((r) => setTimeout(r, 1000))
  const after = await ask({ type: 'measure' })

  send({
    type: 'result',
    figures: {
      seconds,
      concurrency,
      streamsCompleted: churned,
      errors: stats.errors,
      firstErrors: stats.firstErrors,
      lagP99Ms: lag.p99,
      lagMaxMs: lag.max,
      heldStreams: held,
      heldOpened: opened,
      rssPerOpenStreamKB: Math.round(((loaded.rss as number) - (baseline.rss as number)) / 1024 / held),
      heapPerOpenStreamKB: Math.round(((loaded.heap as number) - (baseline.heap as number)) / 1024 / held),
      abortedStreams: aborts,
      upstreamOpenAfterHoldAborts: openAfterHold,
      upstreamOpenAfterAborts: openAfterAborts,
      upstreamRequests: upstreamState.total,
      baselineRssMB: mb(baseline.rss as number),
      baselineHeapMB: mb(baseline.heap as number),
      loadedRssMB: mb(loaded.rss as number),
      afterGcRssMB: mb(after.rss as number),
      afterGcHeapMB: mb(after.heap as number),
    },
  })
  upstream.closeAllConnections()
  upstream.close()
  process.disconnect?.()
}

// ── the measured process: the gateway ───────────────────────────────────────────────────────────────────────────
async function gatewayProcess(): Promise<void> {
  const { createGateway } = await import('../src/gateway/create-gateway.js')
  const { toNodeListener } = await import('../src/node.js')
  const gc = (globalThis as { gc?: () => void }).gc
  const collect = async () => {
    for (let i = 0; i < 3; i++) {
      gc?.()
      await new Promise((r) => setImmediate(r))
    }
    const usage = process.memoryUsage()
    return { rss: usage.rss, heap: usage.heapUsed }
  }
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['driver'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const kill = () => child.kill('SIGKILL')
  process.on('exit', kill)
  let server: Server | undefined
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  const result = await new Promise<Message>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`driver exited (${code})`)))
    child.on('message', async (message: Message) => {
      if (message.type === 'upstream') {
        const gateway = createGateway({
          upstreams: {
            openai: { format: 'chat-completions', baseURL: `${message.url}/v1`, apiKey: 'upstream-key' },
            mock: { format: 'mock' },
          },
          models: {
            hold: { upstream: 'openai', model: 'hold' },
            short: { upstream: 'openai', model: 'short' },
            mock: { upstream: 'mock', model: 'mock' },
          },
          apiKeys: ['load-key'],
        })
        server = createServer(toNodeListener(gateway))
        server.keepAliveTimeout = 65_000
        await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r))
        child.send({ type: 'front', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
      } else if (message.type === 'measure') {
        child.send({ type: 'measure', ...(await collect()) })
      } else if (message.type === 'lag-start') {
        histogram.reset()
        histogram.enable()
        child.send({ type: 'lag-start' })
      } else if (message.type === 'lag-end') {
        histogram.disable()
        child.send({
          type: 'lag-end',
          p99: Math.round((histogram.percentile(99) / 1e6) * 10) / 10,
          max: Math.round((histogram.max / 1e6) * 10) / 10,
        })
      } else if (message.type === 'result') resolve(message)
    })
  })
  const connections = await new Promise<number>((r) => server?.getConnections((_, count) => r(count)))
  server?.closeAllConnections()
  await new Promise((r) => server?.close(r))
  child.removeAllListeners('exit')
  kill()
  console.log(
    JSON.stringify({ ...(result.figures as object), gcExposed: gc !== undefined, frontConnectionsAtEnd: connections }),
  )
}

if (process.argv[2] === 'driver') await driver()
else await gatewayProcess()
