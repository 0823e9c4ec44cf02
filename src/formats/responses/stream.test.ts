/**
 * Responses stream transducers: the encoder's grammar on real upstream streams (ids, indexes, sequence numbers,
 * terminal output), the signature envelope written in `output_item.done` and restored on the next request, and
 * the decoder's handling of errors, unknown events and truncation.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { convertRequest } from '../../convert.js'
import { convertStream } from '../../convert-stream.js'
import type * as ir from '../../ir/index.js'
import { decodeStreamStep } from './decode-stream.js'

// biome-ignore lint/suspicious/noExplicitAny: wire events are navigated freely in assertions
type Json = Record<string, any>

const fixture = (format: string, name: string) =>
  readFileSync(new URL(`../../../test/fixtures/${format}/${name}`, import.meta.url))

async function toResponses(format: ir.FormatId, name: string): Promise<Json[]> {
  const body = new Response(fixture(format, name)).body as ReadableStream<Uint8Array>
  const text = await new Response(convertStream(body, { from: format, to: 'responses' })).text()
  return text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => {
      const data = block.slice(block.indexOf('data: ') + 6)
      return data === '[DONE]' ? { type: '[DONE]' } : (JSON.parse(data) as Json)
    })
}

function decode(lines: Json[]): ir.StreamEvent[] {
  const step = decodeStreamStep()
  const out: ir.StreamEvent[] = []
  for (const line of lines) step.push({ data: JSON.stringify(line), event: undefined, id: undefined }, out)
  step.end(out)
  return out
}

describe('encoder grammar', () => {
  it.each([
    ['messages', 'reasoning.sse'],
    ['chat-completions', 'parallel-tool-calls.sse'],
    ['content-generation', 'parallel-tool-calls.sse'],
  ] as const)('%s %s: created first, dense indexes, item ids, full terminal output', async (format, name) => {
    const events = await toResponses(format, name)
    expect(events[0]?.type).toBe('response.created')
    expect(events.at(-1)?.type).toBe('[DONE]')
    const terminal = events.at(-2) as Json
    expect(terminal.type).toBe('response.completed')
    expect(terminal.response.id).toBe(events[0]?.response.id)
    const numbered = events.filter((event) => event.type !== '[DONE]')
    expect(numbered.map((event) => event.sequence_number)).toEqual(numbered.map((_, i) => i))
    const added = events.filter((event) => event.type === 'response.output_item.added')
    const done = events.filter((event) => event.type === 'response.output_item.done')
    expect(added.map((event) => event.output_index)).toEqual(added.map((_, i) => i))
    expect(done.map((event) => event.item.id).sort()).toEqual(added.map((event) => event.item.id).sort())
    expect(terminal.response.output).toEqual(
      [...done].sort((a, b) => a.output_index - b.output_index).map((event) => event.item),
    )
    const ids = new Map(added.map((event) => [event.output_index, event.item.id]))
    for (const event of events) if ('item_id' in event) expect(event.item_id).toBe(ids.get(event.output_index))
    for (const key of ['input_tokens', 'output_tokens', 'total_tokens']) {
      expect(Number.isInteger(terminal.response.usage[key])).toBe(true)
    }
    expect(Number.isInteger(terminal.response.usage.input_tokens_details.cached_tokens)).toBe(true)
    expect(Number.isInteger(terminal.response.usage.output_tokens_details.reasoning_tokens)).toBe(true)
  })

  it('a streamed Anthropic thinking signature goes out in output_item.done and comes back on the next request', async () => {
    const events = await toResponses('messages', 'reasoning.sse')
    const reasoning = events.find(
      (event) => event.type === 'response.output_item.done' && event.item.type === 'reasoning',
    )
    expect(reasoning?.item.encrypted_content).toMatch(/^il1\./)
    const added = events.find((event) => event.type === 'response.output_item.added' && event.item.type === 'reasoning')
    expect(added?.item).toEqual({ id: reasoning?.item.id, type: 'reasoning', summary: [] })
    const next = {
      model: 'claude',
      input: [
        { role: 'user', content: 'q' },
        { type: 'reasoning', summary: reasoning?.item.summary, encrypted_content: reasoning?.item.encrypted_content },
        { role: 'assistant', content: 'a' },
        { role: 'user', content: 'q2' },
      ],
    }
    const request = convertRequest(next, { from: 'responses', to: 'messages' }) as Json
    const signature = String(fixture('messages', 'reasoning.sse')).match(/"signature":"(Eq[^"]+)"/)?.[1]
    expect(request.messages[1].content[0]).toMatchObject({ type: 'thinking', signature })
  })
})

describe('decoder', () => {
  const created = { type: 'response.created', response: { id: 'resp_1', model: 'gpt', created_at: 5 } }

  it('flat and nested error events, and response.failed, become one IR error', () => {
    const flat = decode([created, { type: 'error', code: 'rate_limit_exceeded', message: 'slow down', param: null }])
    expect(flat.at(-1)).toMatchObject({
      type: 'error',
      error: { code: 'rate-limit', status: 429, message: 'slow down' },
    })
    const nested = decode([
      { type: 'error', error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'q' } },
    ])
    expect(nested).toMatchObject([{ type: 'error', error: { message: 'q' } }])
    const failed = decode([
      created,
      { type: 'response.failed', response: { error: { code: 'server_error', message: 'boom' } } },
    ])
    expect(failed.at(-1)).toMatchObject({ type: 'error', error: { status: 500, message: 'boom' } })
  })

  it('ignores unknown and keepalive events, accepts response.done as terminal, and fails a truncated stream', () => {
    const ok = decode([
      created,
      { type: 'keepalive' },
      { type: 'acme:trace' },
      { type: 'response.output_item.added', output_index: 0, item: { id: 'm', type: 'message', content: [] } },
      { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'hi' },
      { type: 'response.done', response: { status: 'completed', usage: { input_tokens: 1, output_tokens: 2 } } },
    ])
    expect(ok.map((event) => event.type)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'finish'])
    expect(ok.at(-1)).toMatchObject({ finishReason: { unified: 'stop' }, usage: { inputTokens: 1, outputTokens: 2 } })
    const truncated = decode([created])
    expect(truncated.at(-1)).toMatchObject({ type: 'error', error: { status: 502 } })
  })

  it('a call without argument deltas takes its arguments from output_item.done; incomplete → length', () => {
    const events = decode([
      created,
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'function_call', call_id: 'c1', name: 'f' },
      },
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"a":1}' },
      },
      {
        type: 'response.incomplete',
        response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
      },
    ])
    expect(events).toContainEqual({ type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":1}' })
    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'length' } })
  })
})

describe('a forwarded Responses stream that breaks (convertStream from responses to responses)', () => {
  it('ends with error and response.failed whose output lists the items completed so far, as they came', async () => {
    const lines = fixture('responses', 'reasoning.sse').toString().split('\n')
    // Ends in the middle of the message item: the reasoning item is done, the message item is not.
    const sent = `${lines.slice(0, 36).join('\n')}\n`
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(sent))
        controller.close()
      },
    })
    const text = await new Response(convertStream(body, { from: 'responses', to: 'responses' })).text()
    expect(text.startsWith(sent)).toBe(true)
    const events = text
      .split('\n\n')
      .filter((block) => block.includes('data: '))
      .map((block) => block.slice(block.indexOf('data: ') + 6))
      .map((data) => (data === '[DONE]' ? { type: '[DONE]' } : (JSON.parse(data) as Json)))
    const created = events[0] as Json
    const reasoningDone = events.find((event) => event.type === 'response.output_item.done') as Json
    const [error, failed, done] = events.slice(-3) as [Json, Json, Json]
    expect(error.type).toBe('error')
    expect(failed.type).toBe('response.failed')
    expect(done.type).toBe('[DONE]')
    expect(failed.response.id).toBe(created.response.id)
    expect(failed.response.status).toBe('failed')
    expect(failed.response.output).toEqual([reasoningDone.item])
    const sequence = events.slice(0, -1).map((event) => event.sequence_number)
    expect(sequence).toEqual(sequence.map((_, i) => i))
  })
})
