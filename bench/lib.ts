/**
 * Loads the library under test: the built `dist/` by default (what users run), or `src/` with `BENCH_FROM_SRC=1`
 * (while developing the bench). Loaded dynamically so the bench typechecks on a fresh clone without `dist/`.
 */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type * as api from '../src/index.js'
import type { FormatId, SseFrame } from '../src/index.js'

export type { FormatId, SseFrame }

export const benchDir = dirname(fileURLToPath(import.meta.url))
export const rootDir = dirname(benchDir)
export const formatIds: readonly FormatId[] = ['chat-completions', 'messages', 'content-generation', 'responses']
export const shortName: Record<FormatId, string> = {
  'chat-completions': 'cc',
  messages: 'msg',
  'content-generation': 'gen',
  responses: 'resp',
}

export type ConvertStream = (
  stream: ReadableStream<Uint8Array>,
  options: { from: FormatId; to: FormatId; model?: string; includeUsage?: boolean },
) => ReadableStream<Uint8Array>

export type Library = typeof api & { convertStream?: ConvertStream }

let loaded: Promise<Library> | undefined

/** The library's public API. */
export function loadLibrary(): Promise<Library> {
  loaded ??= (async () => {
    const fromSrc = process.env.BENCH_FROM_SRC === '1'
    const entry = fromSrc ? join(rootDir, 'src/index.ts') : join(rootDir, 'dist/index.js')
    if (!existsSync(entry)) throw new Error(`${entry} is missing (run npm run build)`)
    const lib = (await import(pathToFileURL(entry).href)) as Library
    if (!lib.convertStream && fromSrc) {
      // While the stream module is in progress it may not be exported yet.
      const file = join(rootDir, 'src/convert-stream.ts')
      if (existsSync(file)) {
        const mod = (await import(pathToFileURL(file).href)) as { convertStream?: ConvertStream }
        if (mod.convertStream) return { ...lib, convertStream: mod.convertStream }
      }
    }
    return lib
  })()
  return loaded
}

/** Imports a package installed in `bench/node_modules` (untyped here: the bench's own deps may be absent at typecheck time). */
export async function importBenchDep<T>(name: string): Promise<T> {
  const { createRequire } = await import('node:module')
  const require = createRequire(join(benchDir, 'package.json'))
  const resolved = require.resolve(name)
  const mod = (await import(pathToFileURL(resolved).href)) as { default?: unknown }
  return (mod.default ?? mod) as T
}

/** Serialises SSE frames the way a server writes them. */
export function sseBytes(frames: readonly SseFrame[]): string {
  let out = ''
  for (const frame of frames) {
    if (frame.comment !== undefined && frame.data === undefined) {
      out += `: ${frame.comment}\n\n`
      continue
    }
    if (frame.event !== undefined) out += `event: ${frame.event}\n`
    out += `data: ${frame.data ?? ''}\n\n`
  }
  return out
}
