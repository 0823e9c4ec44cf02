/**
 * Section 2: events/s through convertStream versus a no-op transducer (SSE parse → JSON.parse → JSON.stringify → SSE
 * encode) built the way convertStream is: one TransformStream driving a streaming TextDecoder and eventsource-parser's
 * push parser. The four-stage web-streams no-op (the floor before convertStream became one TransformStream of
 * steps) is measured too, for context.
 */
import { createParser } from 'eventsource-parser'
import { EventSourceParserStream } from 'eventsource-parser/stream'
import { encodeStream, irStream } from './fixtures.js'
import { measure } from './harness.js'
import { type FormatId, formatIds, type Library, shortName } from './lib.js'
import type { Row } from './report.js'

const chunkSize = 4096

function chunked(text: string): Uint8Array[] {
  const bytes = new TextEncoder().encode(text)
  const chunks: Uint8Array[] = []
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize))
  return chunks
}

function source(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++] as Uint8Array)
      else controller.close()
    },
  })
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<number> {
  const reader = stream.getReader()
  let bytes = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return bytes
    bytes += value.byteLength
  }
}

/** The no-op as one TransformStream of push steps (convertStream's own shape): the ratio's baseline. */
function noopStep(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let out = ''
  const parser = createParser({
    onEvent(message) {
      const data = message.data === '[DONE]' ? message.data : JSON.stringify(JSON.parse(message.data))
      out += message.event ? `event: ${message.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`
    },
  })
  const flush = (controller: TransformStreamDefaultController<Uint8Array>) => {
    if (out === '') return
    controller.enqueue(encoder.encode(out))
    out = ''
  }
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        parser.feed(decoder.decode(chunk, { stream: true }))
        flush(controller)
      },
      flush(controller) {
        parser.feed(decoder.decode())
        flush(controller)
      },
    }),
  )
}

/** The no-op as four web-stream stages (decode, parse, transform, encode): context only. */
function noop(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  return stream
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .pipeThrough(new EventSourceParserStream())
    .pipeThrough(
      new TransformStream<{ event?: string; data: string }, string>({
        transform(message, controller) {
          const data = message.data === '[DONE]' ? message.data : JSON.stringify(JSON.parse(message.data))
          controller.enqueue(message.event ? `event: ${message.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`)
        },
      }),
    )
    .pipeThrough(new TextEncoderStream())
}

export const streamDeltas = 2000

export async function streamSection(lib: Library): Promise<Row[]> {
  const convertStream = lib.convertStream
  if (!convertStream) throw new Error('convertStream is not exported by the library yet')
  const events = irStream(streamDeltas)
  const inputs = {} as Record<FormatId, { chunks: Uint8Array[]; events: number; bytes: number }>
  for (const format of formatIds) {
    const text = await encodeStream(lib, format, events)
    inputs[format] = { chunks: chunked(text), events: text.split('\n\n').length - 1, bytes: text.length }
  }
  const rows: Row[] = []
  for (const from of formatIds) {
    const input = inputs[from]
    for (const to of formatIds) {
      const run = () => drain(convertStream(source(input.chunks), { from, to, includeUsage: true }))
      const outBytes = await run()
      if (outBytes === 0) throw new Error(`convertStream ${from}→${to} produced nothing`)
      const t = await measure(
        {
          baseline: () => drain(noopStep(source(input.chunks))),
          stages: () => drain(noop(source(input.chunks))),
          convert: run,
        },
        450,
      )
      const base = t.baseline as number
      const stages = t.stages as number
      const conv = t.convert as number
      const rate = (ms: number) => Math.round((input.events / ms) * 1000).toLocaleString('en-US')
      rows.push({
        section: '2 streams',
        name: `${shortName[from]}→${shortName[to]} (${input.events} events, ${(input.bytes / 1024).toFixed(0)} KB)`,
        ratio: conv / base,
        target: 1.5,
        detail: `${rate(conv)} ev/s vs no-op ${rate(base)} ev/s (four-stage web-streams no-op: ${rate(stages)} ev/s)`,
      })
    }
  }
  return rows
}
