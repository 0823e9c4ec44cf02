/** A thin typed view of tinybench (loaded from bench/node_modules at run time). */
import { importBenchDep } from './lib.js'

interface TinyTask {
  name: string
  result: { state: string; latency?: { p50: number; mean: number }; error?: unknown }
}
interface TinyBench {
  add(name: string, fn: () => unknown): TinyBench
  run(): Promise<TinyTask[]>
  tasks: TinyTask[]
}
type BenchCtor = new (options: {
  time: number
  warmupTime: number
  warmupIterations?: number
  iterations?: number
}) => TinyBench

/**
 * Median time per call (ms) of each function. The functions are measured adjacently, in `rounds` alternating rounds
 * (baseline first), and each figure is the median of its rounds: the baseline and the candidate share the machine's
 * noise, which is what makes their ratio meaningful on a shared machine.
 */
export async function measure(
  fns: Record<string, () => unknown | Promise<unknown>>,
  time = 150,
  rounds = 3,
): Promise<Record<string, number>> {
  const { Bench } = await importBenchDep<{ Bench: BenchCtor }>('tinybench')
  const samples: Record<string, number[]> = {}
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time: time / rounds, warmupTime: 20, warmupIterations: 3, iterations: 3 })
    for (const [name, fn] of Object.entries(fns)) bench.add(name, fn)
    await bench.run()
    for (const task of bench.tasks) {
      const latency = task.result.latency
      if (task.result.state !== 'completed' || !latency) {
        throw new Error(`${task.name}: ${task.result.state} ${String(task.result.error ?? '')}`)
      }
      samples[task.name] ??= []
      samples[task.name]?.push(latency.p50)
    }
  }
  const out: Record<string, number> = {}
  for (const [name, values] of Object.entries(samples)) {
    values.sort((a, b) => a - b)
    out[name] = values[Math.floor(values.length / 2)] as number
  }
  return out
}
