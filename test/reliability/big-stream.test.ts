/**
 * A 200 MB answer streamed in 16 KB deltas, read by a client as fast as it can (issue 21, item 5): the gateway's peak
 * RSS over its warmed-up baseline, measured by `bench/big-stream.ts` in a child process (the gateway alone in its own
 * process). A chat-completions client of a translated upstream used to grow it by ~275 MB — the reasoning store's fold
 * of the stream kept the whole answer text — where the passthrough stays near 30–50 MB. Bound: +150 MB.
 */
import { execFile } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

interface Figures {
  pair: string
  baselineMB: number
  peakMB: number
  growthMB: number
  seconds: number
  bytes: number
}

it('200 MB through passthrough and translated pairs: the peak RSS grows by less than 150 MB', async () => {
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(root, 'bench', 'big-stream.ts')],
      {
        cwd: root,
        env: {
          ...process.env,
          BIG_STREAM_MB: '200',
          BIG_STREAM_PAIRS: 'chat-completions>chat-completions,chat-completions>messages,messages>chat-completions',
        },
        timeout: 150_000,
        maxBuffer: 1 << 20,
      },
      (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
    )
  })
  const figures = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Figures)
  console.log(`big-stream figures: ${JSON.stringify(figures)}`)
  expect(figures.map((figure) => figure.pair)).toEqual([
    'chat-completions>chat-completions',
    'chat-completions>messages',
    'messages>chat-completions',
  ])
  for (const figure of figures) {
    // The whole answer reached the client (200 MB of text and its framing).
    expect(figure.bytes, figure.pair).toBeGreaterThan(200 * 2 ** 20)
    expect(figure.growthMB, figure.pair).toBeLessThan(150)
  }
}, 180_000)

/**
 * A Responses client gets the whole text five times: in its deltas and in four closing events (output_text.done,
 * content_part.done, output_item.done, response.completed). Made as whole strings those four cost ~13 copies of the
 * answer (+2007 MB at 150 MB) and, from ~140 MB, `RangeError: Invalid string length`. Now they are written in pieces
 * that share the deltas' strings, joined at most 1 Mi characters at a time, and the response store gets the response
 * from the encoder (its text a rope over the deltas, which the memory store weighs without flattening) instead of
 * parsing the terminal event back: +210–245 MB, store on. Bound: 400 MB.
 */
it('a 150 MB answer to a Responses client arrives whole; the peak RSS grows by less than 400 MB', async () => {
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(root, 'bench', 'big-stream.ts')],
      {
        cwd: root,
        env: { ...process.env, BIG_STREAM_MB: '150', BIG_STREAM_PAIRS: 'responses>chat-completions' },
        timeout: 150_000,
        maxBuffer: 1 << 20,
      },
      (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
    )
  })
  const figure = JSON.parse(stdout.trim()) as Figures
  console.log(`big-stream figures: ${JSON.stringify(figure)}`)
  // The deltas and the four closing copies of the 150 MB text.
  expect(figure.bytes).toBeGreaterThan(5 * 150 * 2 ** 20)
  expect(figure.growthMB).toBeLessThan(400)
}, 180_000)
