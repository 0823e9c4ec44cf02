import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { EventSourceParserStream } from 'eventsource-parser/stream'
import { describe, expect, it } from 'vitest'
import type * as ir from '../../ir/index.js'
import type { SseMessage } from '../format.js'
import { createDecodeStream } from './decode-stream.js'

const fixtures = join(import.meta.dirname, '../../../test/fixtures/chat-completions')

function streamOf<T>(items: readonly T[]): ReadableStream<T> {
  let next = 0
  return new ReadableStream<T>({
    pull(controller) {
      if (next < items.length) controller.enqueue(items[next++] as T)
      else controller.close()
    },
  })
}

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = []
  await stream.pipeTo(new WritableStream({ write: (item) => void out.push(item) }))
  return out
}

function decode(messages: SseMessage[]): Promise<ir.StreamEvent[]> {
  return collect(streamOf(messages).pipeThrough(createDecodeStream()))
}

/** Raw bytes, delivered in the given pieces, through the real SSE parser and the decoder. */
function decodeBytes(pieces: Uint8Array<ArrayBuffer>[]): Promise<ir.StreamEvent[]> {
  return collect(
    streamOf<BufferSource>(pieces)
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream())
      .pipeThrough(createDecodeStream()),
  )
}

function split(bytes: Uint8Array, cuts: number[]): Uint8Array<ArrayBuffer>[] {
  const points = [0, ...cuts.filter((cut) => cut > 0 && cut < bytes.length).sort((a, b) => a - b), bytes.length]
  const pieces: Uint8Array<ArrayBuffer>[] = []
  for (let i = 0; i < points.length - 1; i++) pieces.push(bytes.slice(points[i], points[i + 1]))
  return pieces
}

/** A deterministic PRNG so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o' }
function chunk(delta: Record<string, unknown>, finish: string | null = null): SseMessage {
  return { data: JSON.stringify({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }) }
}
const done: SseMessage = { data: '[DONE]' }
const start: ir.StreamEvent = { type: 'message-start', id: 'chatcmpl-1', model: 'gpt-4o', created: 1700000000 }

describe('createDecodeStream', () => {
  it('decodes text, holding the finish until the usage chunk and [DONE]', async () => {
    const events = await decode([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo' }),
      chunk({}, 'stop'),
      {
        data: JSON.stringify({
          ...head,
          choices: [],
          usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
        }),
      },
      done,
    ])
    expect(events).toEqual([
      start,
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Hel' },
      { type: 'text-delta', index: 0, text: 'lo' },
      { type: 'text-end', index: 0 },
      {
        type: 'finish',
        finishReason: { unified: 'stop', raw: 'stop', rawFormat: 'chat-completions' },
        usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 },
      },
    ])
  })

  it('decodes reasoning_content (and `reasoning`), refusal, and interleaved parallel tool calls', async () => {
    const events = await decode([
      chunk({ role: 'assistant', reasoning_content: 'Think' }),
      chunk({ reasoning: 'ing' }),
      chunk({ refusal: 'No.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, type: 'function', function: { name: 'g', arguments: '{"b"' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: ':1}' } }] }),
      chunk({}, 'tool_calls'),
      done,
    ])
    const refusal = { 'chat-completions': { refusal: true } }
    const generated = (events[7] as ir.ToolCallStartEvent).id
    expect(generated).toMatch(/^call_[0-9a-z]+$/)
    expect(events).toEqual([
      start,
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-delta', index: 0, text: 'Think' },
      { type: 'reasoning-delta', index: 0, text: 'ing' },
      { type: 'text-start', index: 1, providerData: refusal },
      { type: 'text-delta', index: 1, text: 'No.', providerData: refusal },
      { type: 'tool-call-start', index: 2, id: 'call_a', name: 'f' },
      { type: 'tool-call-start', index: 3, id: generated, name: 'g' },
      { type: 'tool-call-delta', index: 3, argumentsDelta: '{"b"' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{}' },
      { type: 'tool-call-delta', index: 3, argumentsDelta: ':1}' },
      { type: 'reasoning-end', index: 0 },
      { type: 'text-end', index: 1, providerData: refusal },
      { type: 'tool-call-end', index: 2 },
      { type: 'tool-call-end', index: 3 },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls', rawFormat: 'chat-completions' } },
    ])
  })

  it('starts a new block when a kind resumes after another one', async () => {
    const events = await decode([
      chunk({ role: 'assistant', reasoning_content: 'a' }),
      chunk({ content: 'b' }),
      chunk({ reasoning_content: 'c' }),
      chunk({}, 'stop'),
      done,
    ])
    expect(events.map((event) => [event.type, 'index' in event ? event.index : undefined])).toEqual([
      ['message-start', undefined],
      ['reasoning-start', 0],
      ['reasoning-delta', 0],
      ['text-start', 1],
      ['text-delta', 1],
      ['reasoning-start', 2],
      ['reasoning-delta', 2],
      ['reasoning-end', 0],
      ['text-end', 1],
      ['reasoning-end', 2],
      ['finish', undefined],
    ])
  })

  it('attaches the reasoning_details carrier to the *-end events', async () => {
    const signature = { messages: { signature: 'sig-1' } }
    const thought = { 'content-generation': { thoughtSignature: 'ts-1' } }
    const events = await decode([
      chunk({ role: 'assistant', reasoning_content: 'plan' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_x', type: 'function', function: { name: 'f', arguments: '{}' } }] }),
      chunk({
        reasoning_details: [
          {
            type: 'reasoning.text',
            text: 'plan',
            index: 0,
            format: 'messages',
            signature: 'sig-1',
            provider_data: signature,
          },
          { type: 'provider-data', index: 1, id: 'call_x', provider_data: thought },
          { type: 'reasoning.encrypted', data: 'opaque', index: 2, format: 'messages' },
          'garbage',
        ],
      }),
      chunk({}, 'tool_calls'),
      done,
    ])
    expect(events.slice(5)).toEqual([
      { type: 'reasoning-start', index: 2, redactedData: 'opaque' },
      { type: 'reasoning-end', index: 0, providerData: signature },
      { type: 'tool-call-end', index: 1, providerData: thought },
      { type: 'reasoning-end', index: 2 },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls', rawFormat: 'chat-completions' } },
    ])
  })

  it('ignores choices with index > 0 and tolerates empty choices', async () => {
    const events = await decode([
      { data: JSON.stringify({ ...head, choices: [] }) },
      {
        data: JSON.stringify({
          ...head,
          choices: [
            { index: 1, delta: { content: 'other' }, finish_reason: null },
            { index: 0, delta: { content: 'mine' }, finish_reason: null },
          ],
        }),
      },
      { data: JSON.stringify({ ...head, choices: [{ index: 1, delta: {}, finish_reason: 'length' }] }) },
      chunk({}, 'stop'),
      done,
    ])
    expect(events).toEqual([
      start,
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'mine' },
      { type: 'text-end', index: 0 },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop', rawFormat: 'chat-completions' } },
    ])
  })

  it('emits a usage event when usage precedes the finish, and keeps it for the finish', async () => {
    const usage = { prompt_tokens: 3, completion_tokens: 'x', total_tokens: 3 }
    const events = await decode([{ data: JSON.stringify({ ...head, choices: [], usage }) }, chunk({}, 'length')])
    expect(events).toEqual([
      start,
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 0, totalTokens: 3 } },
      {
        type: 'finish',
        finishReason: { unified: 'length', raw: 'length', rawFormat: 'chat-completions' },
        usage: { inputTokens: 3, outputTokens: 0, totalTokens: 3 },
      },
    ])
  })

  it('turns an error chunk into one error event and ignores everything after it', async () => {
    const events = await decode([
      chunk({ role: 'assistant', content: 'x' }),
      {
        data: JSON.stringify({
          error: { message: 'Rate limited', type: 'requests', param: null, code: 'rate_limit_exceeded' },
        }),
      },
      chunk({ content: 'after' }),
      done,
    ])
    expect(events.slice(3)).toEqual([
      {
        type: 'error',
        error: {
          code: 'rate-limit',
          status: 429,
          message: 'Rate limited',
          vendorType: 'requests',
          vendorCode: 'rate_limit_exceeded',
          rawFormat: 'chat-completions',
        },
      },
    ])
  })

  it('turns invalid JSON, non-objects and truncated input into an error event, never a throw', async () => {
    const bad = { type: 'error', error: { code: 'upstream', status: 502, message: expect.any(String) } }
    expect(await decode([{ data: '{"id":' }, chunk({ content: 'x' })])).toEqual([bad])
    expect(await decode([{ data: '[1,2]' }])).toEqual([bad])
    expect(await decode([chunk({ content: 'x' })])).toEqual([
      start,
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'x' },
      {
        type: 'error',
        error: { code: 'upstream', status: 502, message: 'chat-completions stream ended before finish_reason' },
      },
    ])
    expect(await decode([])).toEqual([bad])
    // Garbage shapes inside a valid chunk are skipped, not thrown on.
    expect(
      await decode([
        { data: JSON.stringify({ choices: [null, { index: 0, delta: { content: 5, tool_calls: [null, 3] } }] }) },
        { data: JSON.stringify({ choices: 'x', usage: null }) },
        done,
      ]),
    ).toEqual([
      { type: 'message-start', id: 'chatcmpl-stream', model: '' },
      { type: 'finish', finishReason: { unified: 'stop' } },
    ])
  })

  it('emits the held finish at the end of input when [DONE] never comes', async () => {
    const events = await decode([chunk({ role: 'assistant', content: 'a' }), chunk({}, 'stop')])
    expect(events.at(-1)).toEqual({
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop', rawFormat: 'chat-completions' },
    })
  })
})

describe('chat-completions stream fixtures', () => {
  const read = (name: string) => new Uint8Array(readFileSync(join(fixtures, `${name}.sse`)))

  it('decodes text.sse', async () => {
    const events = await decodeBytes([read('text')])
    const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('')
    expect(text).toBe('Bonjour\u00a0! Ça va\u00a0? Voilà un café\u00a0☕ et un salut\u00a0👋🏽.')
    expect(events[0]).toEqual({
      type: 'message-start',
      id: 'chatcmpl-CXtext0001',
      model: 'gpt-4o-mini-2024-07-18',
      created: 1763856000,
    })
    expect(events.at(-1)).toEqual({
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop', rawFormat: 'chat-completions' },
      usage: { inputTokens: 19, outputTokens: 14, totalTokens: 33 },
    })
  })

  it('decodes reasoning.sse (DeepSeek-style reasoning_content, usage on the finish chunk)', async () => {
    const events = await decodeBytes([read('reasoning')])
    expect(events.filter((event) => event.type.endsWith('-start') || event.type.endsWith('-end'))).toEqual([
      {
        type: 'message-start',
        id: '0f6a2c1e-7b1d-4c55-9a63-2b8f1d9e4a10',
        model: 'deepseek-reasoner',
        created: 1763856100,
      },
      { type: 'reasoning-start', index: 0 },
      { type: 'text-start', index: 1 },
      { type: 'reasoning-end', index: 0 },
      { type: 'text-end', index: 1 },
    ])
    const join = (type: string) =>
      events.flatMap((event) => (event.type === type && 'text' in event ? [event.text] : [])).join('')
    expect(join('reasoning-delta')).toBe('Okay, the user asks for\u00a02+2. That is 4.')
    expect(join('text-delta')).toBe('2\u00a0+ 2\u00a0= **4**.')
    expect(events.at(-1)).toEqual({
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop', rawFormat: 'chat-completions' },
      usage: { inputTokens: 13, outputTokens: 21, reasoningTokens: 12, totalTokens: 34 },
    })
  })

  it('decodes tool-call.sse and parallel-tool-calls.sse', async () => {
    const single = await decodeBytes([read('tool-call')])
    expect(single.filter((event) => event.type !== 'tool-call-delta')).toEqual([
      { type: 'message-start', id: 'chatcmpl-CXtool0001', model: 'gpt-4o-2024-08-06', created: 1763856200 },
      { type: 'tool-call-start', index: 0, id: 'call_Vq3nK8pX2mZ7aB1cD4eF6gH9', name: 'get_weather' },
      { type: 'tool-call-end', index: 0 },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_calls', rawFormat: 'chat-completions' },
        usage: { inputTokens: 82, outputTokens: 18, totalTokens: 100 },
      },
    ])
    const parallel = await decodeBytes([read('parallel-tool-calls')])
    const args = (index: number) =>
      parallel.flatMap((e) => (e.type === 'tool-call-delta' && e.index === index ? [e.argumentsDelta] : [])).join('')
    expect(args(0)).toBe('{"city": "Paris"}')
    expect(args(1)).toBe('{"city": "Tōkyō"}')
    expect(parallel.filter((e) => e.type === 'tool-call-start')).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_Ab12Cd34Ef56Gh78Ij90Kl12', name: 'get_weather' },
      { type: 'tool-call-start', index: 1, id: 'call_Mn34Op56Qr78St90Uv12Wx34', name: 'get_weather' },
    ])
  })

  it('decodes usage-cache.sse with cached and reasoning tokens', async () => {
    const events = await decodeBytes([read('usage-cache')])
    expect(events.at(-1)).toEqual({
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop', rawFormat: 'chat-completions' },
      usage: { inputTokens: 2306, outputTokens: 340, cachedInputTokens: 1920, reasoningTokens: 320, totalTokens: 2646 },
    })
  })

  it('decodes error-midstream.sse: the text so far, then the error', async () => {
    const events = await decodeBytes([read('error-midstream')])
    expect(events.slice(1)).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Once upon' },
      { type: 'text-delta', index: 0, text: ' a time' },
      {
        type: 'error',
        error: {
          code: 'internal',
          status: 500,
          message: 'The server had an error while processing your request. Sorry about that!',
          vendorType: 'server_error',
          rawFormat: 'chat-completions',
        },
      },
    ])
  })

  for (const name of ['text', 'reasoning', 'tool-call', 'parallel-tool-calls', 'usage-cache', 'error-midstream']) {
    it(`${name}.sse decodes identically whatever the chunking (random, byte by byte, CRLF)`, async () => {
      const bytes = read(name)
      const expected = await decodeBytes([bytes])
      const next = random(name.length * 7919)
      for (let round = 0; round < 5; round++) {
        const cuts = Array.from({ length: 1 + Math.floor(next() * 40) }, () => Math.floor(next() * bytes.length))
        expect(await decodeBytes(split(bytes, cuts))).toEqual(expected)
      }
      const bytewise = Array.from({ length: bytes.length }, (_, i) => bytes.slice(i, i + 1))
      expect(await decodeBytes(bytewise)).toEqual(expected)
      const crlf = new TextEncoder().encode(new TextDecoder().decode(bytes).replaceAll('\n', '\r\n'))
      expect(await decodeBytes(split(crlf, [1, 17, 200, 201, 202, 555]))).toEqual(expected)
    })
  }
})

describe('chat-completions .sse fixtures match their .stream-response.json', () => {
  for (const name of ['text', 'tool-call', 'parallel-tool-calls']) {
    it(`${name}: the decoded stream holds what the non-streaming response holds`, async () => {
      const events = await decodeBytes([new Uint8Array(readFileSync(join(fixtures, `${name}.sse`)))])
      const body = JSON.parse(readFileSync(join(fixtures, `${name}.stream-response.json`), 'utf8'))
      const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('')
      const calls = events.flatMap((e) =>
        e.type === 'tool-call-start'
          ? [
              {
                id: e.id,
                type: 'function',
                function: {
                  name: e.name,
                  arguments: events
                    .flatMap((d) => (d.type === 'tool-call-delta' && d.index === e.index ? [d.argumentsDelta] : []))
                    .join(''),
                },
              },
            ]
          : [],
      )
      const start = events[0] as ir.MessageStartEvent
      const finish = events.at(-1) as ir.FinishEvent
      expect({ id: start.id, model: start.model, created: start.created }).toEqual({
        id: body.id,
        model: body.model,
        created: body.created,
      })
      expect(text === '' ? null : text).toEqual(body.choices[0].message.content)
      expect(calls.length === 0 ? undefined : calls).toEqual(body.choices[0].message.tool_calls)
      expect(finish.finishReason.raw).toBe(body.choices[0].finish_reason)
      expect(finish.usage).toEqual({
        inputTokens: body.usage.prompt_tokens,
        outputTokens: body.usage.completion_tokens,
        totalTokens: body.usage.total_tokens,
      })
    })
  }
})
