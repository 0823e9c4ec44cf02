/**
 * Issue 10 §8: the embedded mock model behaves like a cooperative model — tools only when required or named (or for
 * a plain test prompt), never a deferred tool, and structured-output requests answered with schema-valid JSON —
 * checked through the gateway with each format's wire request, and the JSON validated with Ajv.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { createGateway } from '../src/gateway/create-gateway.js'
import { sampleValue } from '../src/gateway/mock-schema.js'
import type { Json } from './gateway-helpers.js'

const gateway = createGateway()
const ajv = new Ajv2020({ strict: false })

async function messages(body: Json): Promise<Json> {
  const response = await gateway.fetch(
    new Request('http://127.0.0.1/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-x', max_tokens: 1000, ...body }),
    }),
  )
  expect(response.status).toBe(200)
  return response.json()
}

const schema = (name: string) => ({ type: 'object', properties: { [name]: { type: 'string' } }, required: [name] })
const agentTools = [
  { name: 'Task', description: 'Launch a sub-agent', input_schema: schema('prompt') },
  { name: 'Bash', description: 'Run a command', input_schema: schema('command') },
  { name: 'Read', description: 'Read a file', input_schema: schema('file_path') },
  { name: 'Edit', description: 'Edit a file', input_schema: schema('file_path') },
]
const system = 'You are Claude Code, an interactive CLI tool.'

describe('tool calls like a cooperative model', () => {
  it('an agent prompt that names no tool gets text, not a call to the first tool', async () => {
    const answer = await messages({ system, tools: agentTools, messages: [{ role: 'user', content: 'hello there' }] })
    expect(answer.stop_reason).toBe('end_turn')
    expect(answer.content.map((b: Json) => b.type)).toEqual(['text'])
  })
  it('a prompt that names a tool calls that tool', async () => {
    const answer = await messages({
      system,
      tools: agentTools,
      messages: [{ role: 'user', content: 'Please read the README' }],
    })
    expect(answer.stop_reason).toBe('tool_use')
    expect(answer.content.at(-1)).toMatchObject({
      type: 'tool_use',
      name: 'Read',
      input: { file_path: expect.any(String) },
    })
  })
  it('a prompt listing what to call the tool for gets one call each, in one turn (parallel calls) unless disabled', async () => {
    const weather = { name: 'get_weather', input_schema: schema('city') }
    const content = 'Weather? Call get_weather once for each city: Paris, Tokyo and Rome.'
    const answer = await messages({ tools: [weather], messages: [{ role: 'user', content }] })
    const calls = answer.content.filter((b: Json) => b.type === 'tool_use')
    expect(calls.map((c: Json) => c.input.city)).toEqual(['Paris', 'Tokyo', 'Rome'])
    expect(new Set(calls.map((c: Json) => c.id)).size).toBe(3)
    const single = await messages({
      tools: [weather],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      messages: [{ role: 'user', content }],
    })
    expect(single.content.filter((b: Json) => b.type === 'tool_use')).toHaveLength(1)
  })
  it('tool_choice any/tool forces a call', async () => {
    const any = await messages({
      system,
      tools: agentTools,
      tool_choice: { type: 'any' },
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(any.content.at(-1)).toMatchObject({ type: 'tool_use', name: 'Task' })
    const named = await messages({
      system,
      tools: agentTools,
      tool_choice: { type: 'tool', name: 'Edit' },
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(named.content.at(-1)).toMatchObject({ type: 'tool_use', name: 'Edit' })
  })
  it('deferred tools are never called, even when named or first', async () => {
    const deferred = {
      name: 'ToolSearch_weather',
      description: 'deferred',
      input_schema: schema('q'),
      defer_loading: true,
    }
    const answer = await messages({ tools: [deferred], messages: [{ role: 'user', content: 'weather?' }] })
    expect(answer.content.map((b: Json) => b.type)).toEqual(['text'])
    const forced = await messages({
      tools: [deferred, agentTools[1]],
      tool_choice: { type: 'any' },
      messages: [{ role: 'user', content: 'go' }],
    })
    expect(forced.content.at(-1)).toMatchObject({ type: 'tool_use', name: 'Bash' })
  })
  it('a prompt naming a file calls the tool that takes a path, with that path (issue 21: Claude Code)', async () => {
    const environment = { role: 'system', content: 'Primary working directory: /home/me/project' }
    const answer = await messages({
      system,
      tools: agentTools,
      messages: [{ role: 'user', content: 'What is the secret word in notes.txt?' }, environment],
    })
    expect(answer.stop_reason).toBe('tool_use')
    expect(answer.content.at(-1)).toMatchObject({ name: 'Read', input: { file_path: '/home/me/project/notes.txt' } })
    const absolute = await messages({
      system,
      tools: [agentTools[0], agentTools[1], agentTools[3]],
      messages: [{ role: 'user', content: 'Summarize "/etc/hosts".' }],
    })
    expect(absolute.content.at(-1)).toMatchObject({ name: 'Edit', input: { file_path: '/etc/hosts' } })
  })
  it('a system entry last in messages is not a turn: after a tool result the answer is text', async () => {
    const answer = await messages({
      system,
      tools: agentTools,
      messages: [
        { role: 'user', content: 'Please read the README' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'README' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '# Title' }] },
        { role: 'system', content: 'Primary working directory: /home/me/project' },
      ],
    })
    expect(answer.stop_reason).toBe('end_turn')
    expect(answer.content.at(-1)).toEqual({ type: 'text', text: 'The tool results are in: Read returned # Title.' })
  })
  it('thinking asked to be omitted comes signed and empty', async () => {
    const answer = await messages({
      thinking: { type: 'adaptive', display: 'omitted' },
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(answer.content[0]).toEqual({
      type: 'thinking',
      thinking: '',
      signature: expect.stringMatching(/^mock-signature-/),
    })
  })
  it('a plain test prompt with one tool still calls it (SDK tests stay meaningful)', async () => {
    const answer = await messages({ tools: [agentTools[2]], messages: [{ role: 'user', content: 'Say hello' }] })
    expect(answer.content.at(-1)).toMatchObject({ type: 'tool_use', name: 'Read' })
  })
})

const routerSchema = {
  type: 'object',
  properties: {
    reasoning: { type: 'string', minLength: 3 },
    model_choice: { type: 'string', enum: ['flash', 'pro'] },
    confidence: { type: 'number', minimum: 0.5, maximum: 1 },
    steps: { type: 'array', items: { $ref: '#/$defs/step' }, minItems: 2 },
    when: { type: 'string', format: 'date-time' },
    maybe: { anyOf: [{ type: 'null' }, { type: 'integer', exclusiveMinimum: 3 }] },
  },
  required: ['reasoning', 'model_choice', 'confidence', 'steps', 'when', 'maybe'],
  additionalProperties: false,
  $defs: { step: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
}

describe('structured output is answered with schema-valid JSON', () => {
  it('chat-completions response_format json_schema', async () => {
    const response = await gateway.fetch(
      new Request('http://127.0.0.1/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'gpt-x',
          messages: [{ role: 'user', content: 'route this' }],
          response_format: { type: 'json_schema', json_schema: { name: 'route', schema: routerSchema, strict: true } },
        }),
      }),
    )
    const value = JSON.parse(((await response.json()) as Json).choices[0].message.content)
    expect(ajv.validate(routerSchema, value), JSON.stringify(ajv.errors)).toBe(true)
  })
  it('content-generation responseJsonSchema (Gemini CLI routing) and responseSchema (OpenAPI dialect)', async () => {
    for (const config of [
      { responseMimeType: 'application/json', responseJsonSchema: routerSchema },
      {
        responseMimeType: 'application/json',
        responseSchema: {
          type: 'OBJECT',
          properties: { choice: { type: 'STRING', enum: ['a', 'b'] }, n: { type: 'INTEGER' } },
          required: ['choice', 'n'],
        },
      },
    ]) {
      const response = await gateway.fetch(
        new Request('http://127.0.0.1/v1beta/models/gemini-x:generateContent', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'route' }] }], generationConfig: config }),
        }),
      )
      const text = ((await response.json()) as Json).candidates[0].content.parts[0].text
      const value = JSON.parse(text)
      if ('responseJsonSchema' in config)
        expect(ajv.validate(routerSchema, value), JSON.stringify(ajv.errors)).toBe(true)
      else expect(value).toEqual({ choice: 'a', n: 1 })
    }
  })
  it('messages output_config.format', async () => {
    const answer = await messages({
      messages: [{ role: 'user', content: 'x' }],
      output_config: { format: { type: 'json_schema', schema: routerSchema } },
    })
    expect(ajv.validate(routerSchema, JSON.parse(answer.content[0].text)), JSON.stringify(ajv.errors)).toBe(true)
  })
  it('is deterministic and survives a self-referencing schema', () => {
    const loop = { type: 'object', properties: { next: { $ref: '#' } }, required: ['next'] }
    expect(sampleValue(loop)).toEqual(sampleValue(loop))
  })
})
