/**
 * `npm run bench:rps`: req/s at `RPS_CONNECTIONS` (default 50) of the bare proxy and of the gateway, interleaved: each
 * round loads the bare proxy then the gateway(s) for `RPS_SECONDS` each (default 3) on the cases of `RPS_CASES`
 * (default `cc→cc:json`), `RPS_ROUNDS` rounds (default 5). Prints every round's ratio (the distribution: a bimodal
 * figure shows here, not in a median), p99 and each server's CPU time per request (read from /proc: on a busy machine
 * it moves far less than req/s), then the medians — and each server's median per-round ratio to `gateway` (with
 * `BENCH_HOOKS=1`: what the hooks cost; 9 rounds by default then), in req/s and in CPU per request, with the quartiles
 * of those ratios. The gateways after `bare` take turns at going first. `RPS_BEFORE_DIR` adds other builds, as in
 * `bench:cpu`.
 */
import { comparedPairs, median, ratioLine, runCompared, targetFor } from './compared.js'
import type { Mode } from './gateway.js'
import { cannon } from './load.js'
import type { Child } from './processes.js'

const connections = Number(process.env.RPS_CONNECTIONS ?? 50)
const seconds = Number(process.env.RPS_SECONDS ?? 3)
// The hooks' cost is a few per cent: more rounds by default for it, so that one noisy round does not move the median.
const rounds = Number(process.env.RPS_ROUNDS ?? (process.env.BENCH_HOOKS === '1' ? 9 : 5))
const cases = (process.env.RPS_CASES ?? 'cc→cc:json').split(',')

runCompared(process.env.RPS_BEFORE_DIR, async (_upstream, servers) => {
  const rps = new Map<string, number[]>()
  const cpu = new Map<string, number[]>()
  const push = (map: Map<string, number[]>, key: string, value: number) =>
    map.set(key, [...(map.get(key) ?? []), value])
  for (let round = 0; round < rounds; round++) {
    for (const id of cases) {
      const [pairName, mode] = id.split(':') as [string, Mode]
      const pair = comparedPairs.find(([name]) => name === pairName)
      if (!pair) throw new Error(`unknown case ${id}`)
      const line: string[] = []
      let bare = 0
      // `bare` first (the ratios' base), then the gateways in an order that turns round every round, so that a machine
      // warming up or slowing down falls on each of them alike.
      const [first, ...rest] = servers as [[string, Child], ...Array<[string, Child]>]
      for (const [name, child] of [first, ...(round % 2 === 0 ? rest : [...rest].reverse())]) {
        const result = await cannon(targetFor(name, child, pair, mode), connections, seconds, child.process.pid)
        const key = `${name}\u0000${id}`
        push(rps, key, result.rps)
        push(cpu, key, result.cpu as number)
        if (name === 'bare') bare = result.rps
        const ratio = name === 'bare' ? '' : ` (${(result.rps / bare).toFixed(2)}×)`
        line.push(
          `${name} ${result.rps.toFixed(0)}${ratio} p99 ${result.p99} ms ${(result.cpu as number).toFixed(0)} µs/req`,
        )
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
  console.log(['case', ...names.map((name) => `${name} CPU µs/req`)].join('\t'))
  for (const id of cases)
    console.log(
      ratioLine(
        id,
        names.map((name) => median(cpu.get(`${name}\u0000${id}`) ?? [Number.NaN])),
        0,
      ),
    )
  // Against `gateway` (`…+hooks` against the same build without them), round by round (both measured within seconds
  // of each other), then the median.
  const others = names.filter((name) => name !== 'bare' && name !== 'gateway')
  for (const id of cases) {
    const of = (map: Map<string, number[]>, name: string) => map.get(`${name}\u0000${id}`) ?? []
    for (const name of others) {
      const base = name.endsWith('+hooks') ? name.slice(0, -'+hooks'.length) : 'gateway'
      const perRound = (map: Map<string, number[]>) => {
        const ratios = of(map, name).map((value, round) => value / (of(map, base)[round] as number))
        const sorted = [...ratios].sort((a, b) => a - b)
        const quartile = (q: number) => (sorted[Math.floor((sorted.length - 1) * q)] as number).toFixed(3)
        return `${median(ratios).toFixed(3)}× (quartiles ${quartile(0.25)}–${quartile(0.75)})`
      }
      console.log(
        `${id}: ${name} / ${base} — req/s ${perRound(rps)}, CPU per request ${perRound(cpu)} (medians of the per-round ratios)`,
      )
    }
  }
})
