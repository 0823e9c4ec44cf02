/**
 * One direction between the folders under `src/` (DESIGN "One direction": ir ← shared/stream ← formats ← converters ←
 * the answer path ← gateway ← node): no folder imports a folder that imports it back, directly or through others.
 * Every relative import of every `.ts` file under `src/` (tests included, `import type`, `export … from` and dynamic
 * `import()` too) is resolved to the top-level folder it lands in; files directly in `src/` are not a folder.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

const srcDir = resolve(import.meta.dirname, '../src')

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return tsFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/** The top-level folder under `src/` a path lies in; `undefined` for a file directly in `src/` or outside it. */
function folderOf(path: string): string | undefined {
  const parts = relative(srcDir, path).split(sep)
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined
}

const importPattern = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g

/** folder → folder → one importing file and what it imports (for the message). */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>()
  for (const file of tsFiles(srcDir)) {
    const from = folderOf(file)
    if (from === undefined) continue
    for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
      const specifier = match[1] as string
      const to = folderOf(resolve(dirname(file), specifier))
      if (to === undefined || to === from) continue
      const edges = graph.get(from) ?? new Map<string, string>()
      if (!edges.has(to)) edges.set(to, `${relative(srcDir, file)} imports '${specifier}'`)
      graph.set(from, edges)
    }
  }
  return graph
}

/** Every cycle through the folder graph, each as `a → b → … → a` with the import that makes each step. */
function cycles(graph: Map<string, Map<string, string>>): string[] {
  const found: string[] = []
  const seen = new Set<string>()
  const walk = (path: string[]) => {
    const last = path[path.length - 1] as string
    for (const next of graph.get(last)?.keys() ?? []) {
      if (next === path[0]) {
        const ring = [...path, next]
        const key = [...path].sort().join(',')
        if (seen.has(key)) continue
        seen.add(key)
        const steps = ring.slice(1).map((to, i) => `  ${ring[i]} → ${to}: ${graph.get(ring[i] as string)?.get(to)}`)
        found.push([ring.join(' → '), ...steps].join('\n'))
      } else if (!path.includes(next) && next > (path[0] as string)) walk([...path, next])
    }
  }
  for (const start of [...graph.keys()].sort()) walk([start])
  return found
}

describe('architecture: data flows one way between the folders under src/', () => {
  const graph = folderGraph()

  it('sees the folders and their imports (the check is not vacuous)', () => {
    expect(graph.get('gateway')?.has('http')).toBe(true)
    expect(graph.get('formats')?.has('stream')).toBe(true)
    expect(graph.get('node')?.has('gateway')).toBe(true)
  })

  it('finds a cycle where there is one', () => {
    const ring = new Map([
      ['a', new Map([['b', 'a/x.ts']])],
      ['b', new Map([['c', 'b/y.ts']])],
      ['c', new Map([['a', 'c/z.ts']])],
    ])
    expect(cycles(ring)).toHaveLength(1)
  })

  it('no folder imports a folder that imports it back, directly or through others', () => {
    expect(cycles(graph)).toEqual([])
  })
})
