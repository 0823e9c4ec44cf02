/**
 * `npm run bench:rps`: req/s at `RPS_CONNECTIONS` (default 50) of the bare proxy and of the gateway, interleaved: each
 * round loads the bare proxy then the gateway(s) for `RPS_SECONDS` each (default 3) on the cases of `RPS_CASES`
 * (default `cc→cc:json`), `RPS_ROUNDS` rounds (default 5). Prints every round's ratio (the distribution: a bimodal
 * figure shows here, not in a median) and p99, then the medians. `RPS_BEFORE_DIR` adds other builds, as in `bench:cpu`.
 */
import { comparedPairs, median, ratioLine, runCompared, targetFor } from './compared.js'
import type { Mode } from './gateway.js'
import { cannon } from './load.js'

const connections = Number(process.env.RPS_CONNECTIONS ?? 50)
const seconds = Number(process.env.RPS_SECONDS ?? 3)
const rounds = Number(process.env.RPS_ROUNDS ?? 5)
const cases = (process.env.RPS_CASES ?? 'cc→cc:json').split(',')

runCompared(process.env.RPS_BEFORE_DIR, async (_upstream, servers) => {
  const rps = new Map<string, number[]>()
  for (let round = 0; round < rounds; round++) {
    for (const id of cases) {
      const [pairName, mode] = id.split(':') as [string, Mode]
      const pair = comparedPairs.find(([name]) => name === pairName)
      if (!pair) throw new Error(`unknown case ${id}`)
      const line: string[] = []
      let bare = 0
      for (const [name, child] of servers) {
        const result = await cannon(targetFor(name, child, pair, mode), connections, seconds)
        const key = `${name}\u0000${id}`
        rps.set(key, [...(rps.get(key) ?? []), result.rps])
        if (name === 'bare') bare = result.rps
        const ratio = name === 'bare' ? '' : ` (${(result.rps / bare).toFixed(2)}×)`
        line.push(`${name} ${result.rps.toFixed(0)}${ratio} p99 ${result.p99} ms`)
      }
      console.error(`round ${round + 1}/${rounds} ${id}: ${line.join('; ')}`)
    }
  }
  const names = servers.map(([name]) => name)
  console.log(['case', ...names.map((name) => `${name} req/s @${connections}`)].join('\t'))
  for (const id of cases) {
    console.log(
      ratioLine(
        id,
        names.map((name) => median(rps.get(`${name}\u0000${id}`) ?? [Number.NaN])),
        0,
      ),
    )
  }
})
