/** Issue 21 §2: what a messages request says beyond the IR, through the real encoders of every other format. */
import { describe, expect, it } from 'vitest'
import { convertRequest } from '../convert.js'
import type * as ir from '../ir/index.js'

type Json = Record<string, unknown>
const targets = ['chat-completions', 'responses', 'content-generation'] as const

function convert(body: Json, to: (typeof targets)[number], model = 'm'): { out: Json; warnings: ir.Warning[] } {
  const warnings: ir.Warning[] = []
  const out = convertRequest(body, { from: 'messages', to, model, onWarning: (w) => warnings.push(w) }) as Json
  return { out, warnings }
}

const signed = (thinking: string) => ({ type: 'thinking', thinking, signature: `sig-${thinking}` })
/** Three assistant turns, each thinking before a tool call, then the last tool result. */
function history(extra: Json = {}): Json {
  const messages: Json[] = [{ role: 'user', content: 'go' }]
  for (const n of [1, 2, 3]) {
    messages.push({
      role: 'assistant',
      content: [signed(`t${n}`), { type: 'tool_use', id: `toolu_${n}`, name: 'Read', input: { file_path: '/a' } }],
    })
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${n}`, content: 'ok' }] })
  }
  const tools = [{ name: 'Read', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } }]
  return { model: 'claude-x', max_tokens: 1000, thinking: { type: 'adaptive' }, tools, messages, ...extra }
}

/** The reasoning texts the chat-completions encoder carried on each assistant message. */
const carried = (out: Json) =>
  (out.messages as Json[]).filter((m) => m.role === 'assistant').map((m) => m.reasoning_content ?? null)

describe('context_management clear_thinking_20251015, applied by the gateway', () => {
  it('keep: "all" keeps every turn\'s thinking, with no warning', () => {
    const edits = [{ type: 'clear_thinking_20251015', keep: 'all' }]
    const { out, warnings } = convert(history({ context_management: { edits } }), 'chat-completions')
    expect(carried(out)).toEqual(['t1', 't2', 't3'])
    expect(warnings).toEqual([])
  })

  it('keep thinking_turns N keeps the last N turns that think; no keep means the last one', () => {
    const keep = (value: number) => ({
      edits: [{ type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value } }],
    })
    expect(carried(convert(history({ context_management: keep(2) }), 'chat-completions').out)).toEqual([
      null,
      't2',
      't3',
    ])
    expect(carried(convert(history({ context_management: keep(0) }), 'chat-completions').out)).toEqual([
      null,
      null,
      null,
    ])
    const bare = { edits: [{ type: 'clear_thinking_20251015' }] }
    const { out, warnings } = convert(history({ context_management: bare }), 'chat-completions')
    expect(carried(out)).toEqual([null, null, 't3'])
    expect(warnings).toEqual([])
  })

  it('an edit the gateway cannot apply is dropped with a warning naming it; the rest still applies', () => {
    const edits = [
      { type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 1000 } },
      { type: 'clear_thinking_20251015' },
    ]
    for (const to of targets) {
      const { warnings } = convert(history({ context_management: { edits } }), to)
      expect(warnings).toContainEqual(
        expect.objectContaining({
          type: 'dropped',
          path: 'context_management.edits[0]',
          message: expect.stringContaining('clear_tool_uses_20250919'),
        }),
      )
      expect(warnings.filter((w) => w.path.startsWith('context_management'))).toHaveLength(1)
    }
    const { out } = convert(history({ context_management: { edits } }), 'chat-completions')
    expect(carried(out)).toEqual([null, null, 't3'])
  })
})

describe("per-turn effort (a system entry's output_config.effort)", () => {
  const body = (entries: Json[]) => ({
    model: 'claude-x',
    max_tokens: 1000,
    output_config: { effort: 'high' },
    messages: [
      { role: 'user', content: 'plan it' },
      { role: 'assistant', content: 'done' },
      ...entries,
      { role: 'user', content: 'summarize' },
    ],
  })

  it('the last one is the effort of the answer asked for; an effort-only entry is not sent as a message', () => {
    const entries = [
      { role: 'system', content: [], output_config: { effort: 'low' } },
      { role: 'system', content: [], output_config: { effort: 'minimal' } },
    ]
    const chat = convert(body(entries), 'chat-completions')
    expect(chat.out.reasoning_effort).toBe('minimal')
    expect((chat.out.messages as Json[]).map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(chat.warnings).toEqual([])
    expect(convert(body(entries), 'responses').out.reasoning).toEqual({ effort: 'minimal' })
    const gemini = convert(body(entries), 'content-generation', 'gemini-2.5-flash').out
    expect((gemini.generationConfig as Json).thinkingConfig).toEqual({ thinkingBudget: 512 })
    expect(gemini.systemInstruction).toBeUndefined()
  })

  it('an entry with text keeps its text in place', () => {
    const { out } = convert(
      body([{ role: 'system', content: 'be terse', output_config: { effort: 'low' } }]),
      'chat-completions',
    )
    expect(out.reasoning_effort).toBe('low')
    expect(out.messages).toContainEqual({ role: 'system', content: 'be terse' })
  })
})

describe('deferred tools (tool search) for targets without it', () => {
  const placeholder = {
    name: 'DeferredToolPlaceholder',
    description: 'Reserved placeholder that keeps deferred tool loading active; never call this tool.',
    input_schema: { type: 'object', properties: {} },
    defer_loading: true,
  }
  const deferred = { name: 'WebFetch', input_schema: { type: 'object', properties: {} }, defer_loading: true }
  const body = (tools: Json[], extra: Json = {}) => ({
    model: 'claude-x',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'hi' }],
    tools,
    ...extra,
  })

  it('the placeholder is left out with a warning; another deferred tool is sent as an ordinary function', () => {
    for (const to of targets) {
      const { out, warnings } = convert(body([placeholder, deferred]), to)
      expect(JSON.stringify(out.tools)).not.toContain('DeferredToolPlaceholder')
      expect(JSON.stringify(out.tools)).toContain('WebFetch')
      expect(warnings).toContainEqual(expect.objectContaining({ type: 'dropped', path: 'tools[0]' }))
      expect(warnings).toContainEqual(
        expect.objectContaining({ type: 'dropped', message: expect.stringContaining('sent as an ordinary function') }),
      )
    }
  })

  it('a placeholder alone leaves no tool list and no tool choice (OpenAI refuses an empty one)', () => {
    const { out } = convert(body([placeholder], { tool_choice: { type: 'auto' } }), 'chat-completions')
    expect(out.tools).toBeUndefined()
    expect(out.tool_choice).toBeUndefined()
  })
})

describe('metadata.user_id to OpenAI', () => {
  const body = (user_id: string) => ({
    model: 'claude-x',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'hi' }],
    metadata: { user_id },
  })

  it('a short id is sent as it is', () => {
    expect(convert(body('user_123'), 'chat-completions').out.user).toBe('user_123')
    expect(convert(body('user_123'), 'responses').out.safety_identifier).toBe('user_123')
  })

  it("Claude Code's JSON document (over 64 characters) becomes a stable digest, with a warning", () => {
    const id = JSON.stringify({
      device_id: 'a'.repeat(64),
      account_uuid: '',
      session_id: '6b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
    })
    const chat = convert(body(id), 'chat-completions')
    const responses = convert(body(id), 'responses')
    expect(chat.out.user).toMatch(/^il-[0-9a-f]{16}$/)
    expect(responses.out.safety_identifier).toBe(chat.out.user)
    expect(convert(body(`${id} `), 'responses').out.safety_identifier).not.toBe(chat.out.user)
    expect(chat.warnings).toEqual([expect.objectContaining({ type: 'changed', path: 'user' })])
  })
})
