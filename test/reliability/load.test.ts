/**
 * Load and leaks (issue 12): runs `bench/soak.ts` in a child process (`--expose-gc`, so memory is measured after GC)
 * in a bounded mode — 300 translated streams held open at once, 200 concurrent streams (translated and mock) for
 * `SOAK_SECONDS` (10 here), 1000 streams aborted by the client — and asserts only robust properties: no errors, every
 * held stream opened, nothing left open upstream after the aborts, the heap back near its baseline after GC. The
 * figures (event-loop lag p99, RSS and heap per open stream, memory after GC) are printed, never asserted.
 */
import { execFile } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

it('hundreds of concurrent streams, then 1000 aborted: no errors, nothing left open, memory back after GC', async () => {
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', join(root, 'bench', 'soak.ts')],
      {
        cwd: root,
        env: { ...process.env, SOAK_SECONDS: process.env.SOAK_SECONDS ?? '10' },
        timeout: 150_000,
        maxBuffer: 1 << 20,
      },
      (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
    )
  })
  const figures = JSON.parse(stdout.trim().split('\n').at(-1) as string)
  console.log(`load figures: ${JSON.stringify(figures)}`)
  expect(figures.gcExposed).toBe(true)
  expect(figures.errors, JSON.stringify(figures.firstErrors)).toBe(0)
  expect(figures.streamsCompleted).toBeGreaterThan(0)
  expect(figures.heldOpened).toBe(figures.heldStreams)
  expect(figures.upstreamOpenAfterHoldAborts).toBe(0)
  expect(figures.upstreamOpenAfterAborts).toBe(0)
  // Generous: the heap after GC within 32 MB of the baseline after thousands of streams.
  expect(figures.afterGcHeapMB - figures.baselineHeapMB).toBeLessThan(32)
}, 180_000)
