/**
 * Codex's tools off OpenAI (issue 21, item 1): namespace tools flattened to portable, unique function names and
 * mapped back to `name` + `namespace` (JSON, stream, replay); hosted tools mapped to the target's equivalent or left
 * out with a warning (a 400 only under `strict`).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { convertRequest } from '../../convert.js'
import { InterlinguaError } from '../../errors.js'
import type * as ir from '../../ir/index.js'
import { responses } from './index.js'

// biome-ignore lint/suspicious/noExplicitAny: wire bodies are navigated freely in assertions
type Json = Record<string, any>

const codex = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/responses/codex-0.169.body.json', import.meta.url), 'utf8'),
) as Json

const targets = ['chat-completions', 'messages', 'content-generation'] as const
const nameRules = {
  'chat-completions': /^[a-zA-Z0-9_-]{1,64}$/,
  messages: /^[a-zA-Z0-9_-]{1,128}$/,
  'content-generation': /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
}

function functionNames(to: (typeof targets)[number], body: Json): string[] {
  if (to === 'chat-completions') return body.tools.map((tool: Json) => tool.function.name)
  if (to === 'messages') return body.tools.filter((tool: Json) => tool.input_schema).map((tool: Json) => tool.name)
  return body.tools.flatMap((tool: Json) => (tool.functionDeclarations ?? []).map((decl: Json) => decl.name))
}

function convert(body: unknown, to: ir.FormatId, strict = false) {
  const warnings: ir.Warning[] = []
  const value = convertRequest(body, { from: 'responses', to, strict, onWarning: (w) => warnings.push(w) }) as Json
  return { value, warnings }
}

describe("Codex 0.169's request off OpenAI", () => {
  it.each(targets)('→ %s: every namespace function is a unique function the target accepts', (to) => {
    const { value } = convert(codex, to)
    const names = functionNames(to, value)
    expect(names).toHaveLength(12)
    expect(new Set(names).size).toBe(12)
    for (const name of names) expect(name).toMatch(nameRules[to])
    expect(names).toContain('exec_command')
    expect(names).toContain('multi_agent_v1__spawn_agent')
  })

  it('→ messages: web_search becomes the web_search server tool; what it cannot hold is reported', () => {
    const { value, warnings } = convert(codex, 'messages')
    expect(value.tools.at(-1)).toEqual({ type: 'web_search_20250305', name: 'web_search' })
    expect(value.tools.some((tool: Json) => tool.type === 'namespace')).toBe(false)
    expect(warnings).toContainEqual({
      type: 'dropped',
      path: 'tools.webSearch.external_web_access',
      message: 'responses field external_web_access has no messages equivalent',
    })
    const spawn = value.tools.find((tool: Json) => tool.name === 'multi_agent_v1__spawn_agent')
    expect(spawn.description).toBe(
      'Spawn a sub-agent for a well-scoped task.\n\n(multi_agent_v1: Tools for spawning and managing sub-agents.)',
    )
  })

  it('→ chat-completions: web search left out with a dropped warning', () => {
    const { value, warnings } = convert(codex, 'chat-completions')
    expect(value.tools.every((tool: Json) => tool.type === 'function')).toBe(true)
    expect(warnings).toContainEqual({
      type: 'dropped',
      path: 'tools',
      message: 'web search tool left out: Chat Completions has no hosted web search',
    })
  })

  it('→ content-generation: googleSearch only without function declarations (Gemini refuses the pair)', () => {
    const { value, warnings } = convert(codex, 'content-generation')
    expect(value.tools).toHaveLength(1)
    expect(warnings.map((w) => w.message)).toContain(
      'web search tool left out: Gemini cannot combine googleSearch with function declarations in one request',
    )
    const alone = convert({ model: 'm', input: 'news?', tools: [{ type: 'web_search' }] }, 'content-generation')
    expect(alone.value.tools).toEqual([{ googleSearch: {} }])
    expect(alone.warnings).toEqual([])
  })

  it.each(targets)('→ %s with strict: the dropped field is a 400', (to) => {
    let error: unknown
    try {
      convert(codex, to, true)
    } catch (caught) {
      error = caught
    }
    expect(InterlinguaError.isInstance(error) && error.code).toBe('unsupported-feature')
    expect(InterlinguaError.isInstance(error) && error.status).toBe(400)
  })
})

describe('hosted tools with no equivalent', () => {
  const hosted = [
    { type: 'file_search', vector_store_ids: ['vs_1'] },
    { type: 'code_interpreter', container: { type: 'auto' } },
    { type: 'image_generation' },
    { type: 'mcp', server_label: 'deepwiki', server_url: 'https://mcp.deepwiki.com/mcp' },
    { type: 'local_shell' },
    { type: 'computer_use_preview', display_width: 1024, display_height: 768, environment: 'linux' },
    { type: 'shell' },
    { type: 'apply_patch' },
  ]
  const body = { model: 'm', input: 'x', tools: [{ type: 'function', name: 'f', parameters: null }, ...hosted] }

  it.each(targets)('→ %s: each left out with a dropped warning naming tools[i]; the function stays', (to) => {
    const { value, warnings } = convert(body, to)
    expect(functionNames(to, value)).toEqual(['f'])
    expect(warnings.map((w) => w.path)).toEqual(hosted.map((_, i) => `tools[${i + 1}]`))
    expect(warnings[0]?.message).toBe(
      'hosted tool "file_search" runs on OpenAI\'s servers and has no equivalent here; left out',
    )
  })

  it('a tool_choice naming a hosted tool falls back to auto with a warning', () => {
    const { value, warnings } = convert({ ...body, tool_choice: { type: 'file_search' } }, 'messages')
    expect(value.tool_choice).toBeUndefined()
    expect(warnings.at(-1)).toMatchObject({ type: 'dropped', path: 'tool_choice' })
  })

  it('a Responses → IR → Responses round trip keeps namespaces and hosted tools as sent', () => {
    const decoded = responses.decodeRequest(codex)
    const encoded = responses.encodeRequest(decoded.value).value as Json
    expect(encoded.tools).toEqual(codex.tools)
    const mixed = responses.encodeRequest(responses.decodeRequest(body).value).value as Json
    expect(mixed.tools).toEqual([
      { type: 'function', name: 'f', parameters: { type: 'object', properties: {} }, strict: false },
      ...hosted,
    ])
  })
})

describe('namespace names', () => {
  it('stay unique beside a function of the same flat name, and portable when too long or odd', () => {
    const long = 'x'.repeat(70)
    const body = {
      model: 'm',
      input: 'x',
      tools: [
        { type: 'function', name: 'ns__f', parameters: null },
        {
          type: 'namespace',
          name: 'ns',
          description: '',
          tools: [
            { type: 'function', name: 'f' },
            { type: 'function', name: long },
            { type: 'custom', name: 'patch' },
          ],
        },
        { type: 'namespace', name: 'crm.v2', description: 'CRM', tools: [{ type: 'function', name: 'find' }] },
      ],
    }
    for (const to of targets) {
      const names = functionNames(to, convert(body, to).value)
      expect(new Set(names).size).toBe(5)
      expect(names[0]).toBe('ns__f')
      for (const name of names) expect(name).toMatch(nameRules[to])
    }
  })

  it('a bad namespace is a 400 naming the member', () => {
    const body = { model: 'm', input: 'x', tools: [{ type: 'namespace', name: 'ns', tools: [{ type: 'web_search' }] }] }
    expect(() => convert(body, 'messages')).toThrow(/tools\[0\]\.tools\[0\]\.type/)
  })
})

describe('a namespace call back to the client and replayed', () => {
  const request = responses.decodeRequest(codex).value
  const call: ir.ToolCallPart = {
    type: 'tool-call',
    id: 'toolu_1',
    name: 'multi_agent_v1__spawn_agent',
    arguments: '{"message":"review src/index.ts"}',
  }
  const response: ir.Response = {
    id: 'msg_1',
    model: 'm',
    content: [call],
    finishReason: { unified: 'tool-calls' },
  }

  it('JSON: the function_call item names the function and its namespace', () => {
    const body = responses.encodeResponse(response, { request }).value as Json
    expect(body.output[0]).toMatchObject({
      type: 'function_call',
      call_id: 'toolu_1',
      name: 'spawn_agent',
      namespace: 'multi_agent_v1',
      arguments: '{"message":"review src/index.ts"}',
    })
    // Without the request (a converter with no context) the flat name is what there is.
    expect((responses.encodeResponse(response).value as Json).output[0].name).toBe('multi_agent_v1__spawn_agent')
  })

  it('stream: output_item.added, output_item.done and the terminal output carry name + namespace', () => {
    const step = responses.encodeStreamStep({ request })
    const frames: Array<{ event?: string; data?: string }> = []
    const events: ir.StreamEvent[] = [
      { type: 'message-start', id: 'msg_1', model: 'm' },
      { type: 'tool-call-start', index: 0, id: 'toolu_1', name: call.name },
      { type: 'tool-call-delta', index: 0, argumentsDelta: call.arguments },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', finishReason: { unified: 'tool-calls' } },
    ]
    for (const event of events) step.push(event, frames)
    const data = frames.filter((f) => f.data && f.data !== '[DONE]').map((f) => JSON.parse(f.data as string) as Json)
    const added = data.find((d) => d.type === 'response.output_item.added')
    const done = data.find((d) => d.type === 'response.output_item.done')
    const completed = data.find((d) => d.type === 'response.completed')
    for (const item of [added?.item, done?.item, completed?.response.output[0]])
      expect(item).toMatchObject({ type: 'function_call', name: 'spawn_agent', namespace: 'multi_agent_v1' })
  })

  it('replayed function_call + output reach every target under the flat name, with a matching result', () => {
    const replay = {
      ...codex,
      input: [
        ...codex.input,
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'spawn_agent',
          namespace: 'multi_agent_v1',
          arguments: '{"message":"review"}',
        },
        { type: 'function_call_output', call_id: 'call_1', output: 'agent a1 started' },
      ],
    }
    const messages = convert(replay, 'messages').value
    const [use, result] = messages.messages.slice(-2).map((m: Json) => m.content[0])
    expect(use).toMatchObject({ type: 'tool_use', id: 'call_1', name: 'multi_agent_v1__spawn_agent' })
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'call_1' })
    const gemini = convert(replay, 'content-generation').value
    const [model, user] = gemini.contents.slice(-2)
    expect(model.parts[0].functionCall.name).toBe('multi_agent_v1__spawn_agent')
    expect(user.parts[0].functionResponse.name).toBe('multi_agent_v1__spawn_agent')
    const chat = convert(replay, 'chat-completions').value
    expect(chat.messages.at(-2).tool_calls[0].function.name).toBe('multi_agent_v1__spawn_agent')
    expect(chat.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1' })
    // And back to a Responses upstream the item is as the client sent it.
    const back = responses.encodeRequest(responses.decodeRequest(replay).value).value as Json
    expect(back.input.at(-2)).toMatchObject({ name: 'spawn_agent', namespace: 'multi_agent_v1' })
  })
})
