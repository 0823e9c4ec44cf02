/**
 * `npm run bench:latency`: added p50 at one connection (over the upstream alone) of the bare proxy and of the gateway,
 * for every pair and mode, interleaved: each round probes the upstream, the bare proxy and the gateway(s) back to back
 * for `LATENCY_SECONDS` each (default 0.6), `LATENCY_ROUNDS` rounds (default 5); the table has the medians and the
 * ratio of each added p50 to the bare proxy's (the bar: ≤ 1.35). `LATENCY_BEFORE_DIR` (comma-separated) adds
 * the gateway of other builds, as in `bench:cpu`.
 */
import { comparedPairs, median, ratioLine, runCompared, targetFor } from './compared.js'
import { type Mode, target } from './gateway.js'
import { probe } from './load.js'

const seconds = Number(process.env.LATENCY_SECONDS ?? 0.6)
const rounds = Number(process.env.LATENCY_ROUNDS ?? 5)

runCompared(process.env.LATENCY_BEFORE_DIR, async (upstream, servers) => {
  const added = new Map<string, number[]>()
  for (let round = 0; round < rounds; round++) {
    for (const mode of ['json', 'sse'] as Mode[]) {
      for (const pair of comparedPairs) {
        const [, , , [upClient, upModel]] = pair
        const direct = await probe(target(upstream.port, upClient, upModel, mode), seconds)
        for (const [name, child] of servers) {
          const result = await probe(targetFor(name, child, pair, mode), seconds)
          const key = `${name}\u0000${pair[0]}:${mode}`
          added.set(key, [...(added.get(key) ?? []), result.p50 - direct.p50])
        }
      }
    }
    console.error(`round ${round + 1}/${rounds} done`)
  }
  const names = servers.map(([name]) => name)
  console.log(['case', ...names.map((name) => `${name} added p50 ms`)].join('\t'))
  for (const mode of ['json', 'sse']) {
    for (const [pair] of comparedPairs) {
      const id = `${pair}:${mode}`
      console.log(
        ratioLine(
          id,
          names.map((name) => median(added.get(`${name}\u0000${id}`) ?? [Number.NaN])),
          3,
        ),
      )
    }
  }
})
