/** Load generation: a precise one-connection latency probe (µs resolution) and autocannon for concurrency. */
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { importBenchDep } from './lib.js'

export interface Target {
  url: string
  headers: Record<string, string>
  body: string
}

export interface LoadResult {
  p50: number
  p99: number
  /** 1-connection probe only: p50 of the time to the first body chunk that carries streamed text (ms). */
  ttft?: number
  rps: number
  requests: number
  errors: number
  /** With a `pid` given to `cannon`: that process's CPU time per request (µs). */
  cpu?: number
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}

/** Streamed text in any format's chunk: `"content":"x` (chat), `"text":"x` (messages, Gemini), `"delta":"x` (Responses). */
const textChunk = /"(?:content|text|delta)":"[^"]/

function once(agent: Agent, target: Target, onText?: (at: number) => void): Promise<number> {
  return new Promise((resolve) => {
    let seen = false
    const req = request(
      target.url,
      { method: 'POST', agent, headers: { ...target.headers, 'content-length': Buffer.byteLength(target.body) } },
      (res) => {
        res.on('data', (chunk: Buffer) => {
          if (seen || !onText) return
          if (textChunk.test(chunk.toString('latin1'))) {
            seen = true
            onText(performance.now())
          }
        })
        res.on('end', () => resolve(res.statusCode ?? 0))
        res.on('error', () => resolve(0))
      },
    )
    req.on('error', () => resolve(0))
    req.end(target.body)
  })
}

/** One keep-alive connection, requests back to back for `seconds`: latency to the last byte of each response. */
export async function probe(target: Target, seconds: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const latencies: number[] = []
  const firsts: number[] = []
  let errors = 0
  try {
    const warmupEnd = performance.now() + 300
    while (performance.now() < warmupEnd) await once(agent, target)
    const start = performance.now()
    const end = start + seconds * 1000
    for (;;) {
      const t0 = performance.now()
      if (t0 >= end) break
      const status = await once(agent, target, (at) => firsts.push(at - t0))
      if (status < 200 || status >= 300) errors++
      else latencies.push(performance.now() - t0)
    }
    const elapsed = (performance.now() - start) / 1000
    latencies.sort((a, b) => a - b)
    firsts.sort((a, b) => a - b)
    return {
      ...(firsts.length > 0 ? { ttft: percentile(firsts, 50) } : {}),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      rps: latencies.length / elapsed,
      requests: latencies.length,
      errors,
    }
  } finally {
    agent.destroy()
  }
}

interface CannonResult {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number }
  errors: number
  timeouts: number
  non2xx: number
}
type Cannon = (options: Record<string, unknown>) => Promise<CannonResult>

/** utime + stime of a process, in µs (from `/proc/<pid>/stat`, in clock ticks of 10 ms). */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

/**
 * autocannon at `connections` for `seconds` (its latencies have 1 ms resolution: use them at high concurrency only),
 * after a 0.5 s warm-up. With `pid`, also the CPU time that process spent per request of the measured run (`cpu`, µs).
 */
export async function cannon(target: Target, connections: number, seconds: number, pid?: number): Promise<LoadResult> {
  const autocannon = await importBenchDep<Cannon>('autocannon')
  const options = { url: target.url, method: 'POST', headers: target.headers, body: target.body, connections }
  await autocannon({ ...options, duration: 0.5 })
  const before = pid === undefined ? 0 : cpuMicros(pid)
  const result = await autocannon({ ...options, duration: seconds })
  const loaded: LoadResult = {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  }
  if (pid !== undefined) loaded.cpu = (cpuMicros(pid) - before) / result.requests.total
  return loaded
}
