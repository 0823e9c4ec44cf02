/**
 * Codex 0.169+ with its default model sends no `tools`: its tools come in an `additional_tools` input item (recorded:
 * test/fixtures/clients/codex/). They are the request's tools — flattened like any namespace — not hosted execution
 * to leave out, or the model off OpenAI gets no tool at all.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { convertRequest } from '../../convert.js'
import type * as ir from '../../ir/index.js'
import { responses } from './index.js'

// biome-ignore lint/suspicious/noExplicitAny: wire bodies are navigated freely in assertions
type Json = Record<string, any>

const recorded = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/clients/codex/0.171.0/exec-tool-loop.1.json', import.meta.url), 'utf8'),
) as Json
const body = recorded.body as Json

describe('an additional_tools input item', () => {
  it('is what the recorded Codex request offers its tools in', () => {
    expect(body.tools).toBeUndefined()
    expect(body.input[0].type).toBe('additional_tools')
  })

  it('gives the request its tools, namespaces flattened, not left out', () => {
    const { value, warnings } = responses.decodeRequest(body)
    const names = (value.tools ?? []).map((tool) => tool.name)
    expect(names).toContain('functions__exec')
    expect(names).toContain('collaboration__spawn_agent')
    expect(names.length).toBe(
      body.input[0].tools.reduce((sum: number, group: Json) => sum + (group.tools?.length ?? 1), 0),
    )
    // Only what any custom tool off OpenAI gets: its grammar is not enforced (the path names the item's tool).
    expect(warnings.filter((warning) => warning.path.startsWith('input[0]')).map((warning) => warning.path)).toEqual([
      'input[0].tools[0].tools[0].format',
    ])
    expect(value.messages.every((message) => message.role !== 'assistant')).toBe(true)
  })

  it.each(['chat-completions', 'messages', 'content-generation'] as const)('reaches %s as function tools', (to) => {
    const warnings: ir.Warning[] = []
    const out = convertRequest(body, { from: 'responses', to, onWarning: (w) => warnings.push(w) }) as Json
    const text = JSON.stringify(out.tools)
    expect(text).toContain('functions__exec')
    expect(text).toContain('clock__sleep')
  })

  it('names the item in the path of a bad tool', () => {
    const bad = { ...body, input: [{ type: 'additional_tools', role: 'developer', tools: [{ type: 'function' }] }] }
    expect(() => responses.decodeRequest(bad)).toThrow(/input\[0\]\.tools\[0\]\.name/)
  })
})
