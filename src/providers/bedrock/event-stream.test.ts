import { EventStreamCodec } from '@smithy/core/event-streams'
import { describe, expect, it } from 'vitest'
import { eventStreamStep } from './event-stream.js'

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
)
const header = (value: string) => ({ type: 'string' as const, value })
const event = (type: string, payload: unknown) =>
  codec.encode({
    headers: {
      ':message-type': header('event'),
      ':event-type': header(type),
      ':content-type': header('application/json'),
    },
    body: new TextEncoder().encode(JSON.stringify(payload)),
  })
const chunk = (anthropicEvent: unknown) =>
  event('chunk', { bytes: Buffer.from(JSON.stringify(anthropicEvent)).toString('base64'), p: 'abcdef' })
const exception = (type: string, message: string) =>
  codec.encode({
    headers: {
      ':message-type': header('exception'),
      ':exception-type': header(type),
      ':content-type': header('application/json'),
    },
    body: new TextEncoder().encode(JSON.stringify({ message })),
  })

function run(format: 'messages' | 'converse', pieces: Uint8Array[]): string {
  const step = eventStreamStep(format)
  const out: Uint8Array[] = []
  for (const piece of pieces) step.push(piece, out)
  step.end(out)
  return out.map((bytes) => new TextDecoder().decode(bytes)).join('')
}

function concat(frames: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(frames.reduce((n, frame) => n + frame.length, 0))
  let at = 0
  for (const frame of frames) {
    all.set(frame, at)
    at += frame.length
  }
  return all
}

/** Every way of cutting `bytes` in two, plus one byte at a time. */
function cuts(bytes: Uint8Array): Uint8Array[][] {
  const ways: Uint8Array[][] = [[...bytes].map((byte) => Uint8Array.of(byte))]
  for (let i = 1; i < bytes.length; i++) ways.push([bytes.slice(0, i), bytes.slice(i)])
  return ways
}

describe('Bedrock event stream → SSE', () => {
  const start = { type: 'message_start', message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 3 } } }
  const delta = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hé 😀' } }

  it('invoke: chunk events become Anthropic SSE events, whatever the network cuts', () => {
    const bytes = concat([chunk(start), chunk(delta)])
    const expected = `event: message_start\ndata: ${JSON.stringify(start)}\n\nevent: content_block_delta\ndata: ${JSON.stringify(delta)}\n\n`
    for (const pieces of cuts(bytes)) expect(run('messages', pieces)).toBe(expected)
  })

  it('converse: typed events become `event: <type>` with the payload', () => {
    const text = run('converse', [
      concat([event('messageStart', { role: 'assistant' }), event('messageStop', { stopReason: 'end_turn' })]),
    ])
    expect(text).toBe(
      'event: messageStart\ndata: {"role":"assistant"}\n\nevent: messageStop\ndata: {"stopReason":"end_turn"}\n\n',
    )
  })

  it('an exception frame: the format’s error event, and nothing after it', () => {
    const frames = concat([chunk(start), exception('throttlingException', 'Too many tokens'), chunk(delta)])
    const messages = run('messages', [frames])
    expect(messages).toContain(
      'event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"Too many tokens"}',
    )
    expect(messages).not.toContain('content_block_delta')
    const converse = run('converse', [concat([exception('validationException', 'Bad input')])])
    expect(converse).toBe('event: validationException\ndata: {"message":"Bad input"}\n\n')
  })

  it('a corrupted frame (CRC), an impossible length, a stream cut inside a frame: an upstream error event', () => {
    const frame = chunk(delta)
    const corrupted = frame.slice()
    corrupted[frame.length - 10] = (corrupted[frame.length - 10] as number) ^ 0xff
    expect(run('messages', [corrupted])).toMatch(/event: error\ndata: .*checksum/)
    expect(run('messages', [Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0)])).toMatch(
      /impossible length/,
    )
    expect(run('converse', [frame.slice(0, 20)])).toMatch(/ended inside a frame/)
  })
})
