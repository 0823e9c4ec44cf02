/**
 * Every (from, to) pair over the `.sse` fixtures: convert the upstream bytes (whole and byte by byte → identical
 * output), serve them on 127.0.0.1 and read them with the official SDK of `to`; the SDK's answer must match the
 * IR of the source stream (and of the non-streaming `stream-response.json` of the same exchange when present).
 */
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Converted, Format, FormatId, SseFrame, SseMessage } from '../src/formats/format.js'
import type * as ir from '../src/ir/index.js'
import { accumulate } from '../src/stream/accumulate.js'
import { convertStreamWith } from '../src/stream/pipeline.js'
import { createSseDecodeStream } from '../src/stream/sse-decode.js'
import { fixtureExists, formatIds, readBytes, readJson, scenarios } from './helpers/fixtures.js'
import { collect, concatBytes, fixedChunks, streamOf } from './helpers/rechunk.js'
import { readWithSdk, type Summary, summarize, withSseServer } from './helpers/sdk-stream.js'

interface StreamFormat extends Pick<Format, 'decodeStreamStep' | 'encodeStreamStep'> {
  createDecodeStream: () => TransformStream<SseMessage, ir.StreamEvent>
  createEncodeStream: (options?: { includeUsage?: boolean }) => TransformStream<ir.StreamEvent, SseFrame>
  decodeResponse?: (body: unknown) => Converted<ir.Response>
}

const formatsDir = new URL('../src/formats/', import.meta.url)
const ready = (id: FormatId) =>
  existsSync(new URL(`${id}/encode-stream.ts`, formatsDir)) && existsSync(new URL(`${id}/decode-stream.ts`, formatsDir))

async function load(id: FormatId): Promise<StreamFormat> {
  const format = {
    ...((await import(`../src/formats/${id}/decode-stream.ts`)) as object),
    ...((await import(`../src/formats/${id}/encode-stream.ts`)) as object),
  } as StreamFormat
  if (existsSync(new URL(`${id}/decode-response.ts`, formatsDir))) {
    const { decodeResponse } = (await import(`../src/formats/${id}/decode-response.ts`)) as StreamFormat
    if (decodeResponse) format.decodeResponse = decodeResponse
  }
  return format
}

interface Registry {
  convertStream: typeof import('../src/convert-stream.js').convertStream
  convertResponse: typeof import('../src/convert.js').convertResponse
  getFormat: typeof import('../src/formats/index.js').getFormat
}

/** The registry-based API, once every format's files exist (until then `src/formats/index.ts` cannot load). */
async function registry(): Promise<Registry | undefined> {
  try {
    const { convertStream } = await import('../src/convert-stream.js')
    const { convertResponse } = await import('../src/convert.js')
    const { getFormat } = await import('../src/formats/index.js')
    return { convertStream, convertResponse, getFormat }
  } catch {
    return undefined
  }
}

async function convert(chunks: Uint8Array[], from: StreamFormat, to: StreamFormat): Promise<Uint8Array> {
  return concatBytes(await collect(convertStreamWith(streamOf(chunks), from, to, { includeUsage: true })))
}

function withoutUsage(summary: Summary): Omit<Summary, 'usage'> {
  const { usage: _usage, ...rest } = summary
  return rest
}

/**
 * The output as text, with `created` masked: when the source has no timestamp (messages, content-generation) the
 * chat-completions encoder stamps the current second, which may tick between two conversions.
 */
const text = (bytes: Uint8Array) =>
  Buffer.from(bytes)
    .toString()
    .replace(/"(created|created_at|completed_at)":\d+/g, '"$1":0')

for (const from of formatIds) {
  for (const to of formatIds) {
    describe.skipIf(!ready(from) || !ready(to))(`${from} → ${to}`, () => {
      for (const scenario of scenarios(from, '.sse')) {
        it(scenario, async () => {
          const [source, target] = [await load(from), await load(to)]
          const bytes = readBytes(from, `${scenario}.sse`)
          let output = await convert([bytes], source, target)
          expect(text(await convert(fixedChunks(bytes), source, target))).toBe(text(output))
          const api = await registry()
          if (api) {
            const viaRegistry = concatBytes(
              await collect(api.convertStream(streamOf(fixedChunks(bytes, 7)), { from, to, includeUsage: true })),
            )
            if (from === to) {
              // Same format: validated and forwarded as it came (not re-encoded); whole or rechunked alike. The SDK
              // checks below read this output.
              output = concatBytes(
                await collect(api.convertStream(streamOf([bytes]), { from, to, includeUsage: true })),
              )
              expect(Buffer.from(viaRegistry).toString()).toBe(Buffer.from(output).toString())
              const messages = await collect(streamOf([bytes]).pipeThrough(createSseDecodeStream()))
              const asSent = (list: SseMessage[]) =>
                list.map((m) => `${m.event ? `event: ${m.event}\n` : ''}data: ${m.data}\n\n`).join('')
              // error-midstream: what came before the error is forwarded, the error is the format's own (SDK below).
              if (scenario === 'error-midstream')
                expect(
                  Buffer.from(output)
                    .toString()
                    .startsWith(asSent(messages.slice(0, 2))),
                ).toBe(true)
              else expect(Buffer.from(output).toString()).toBe(asSent(messages))
            } else expect(text(viaRegistry)).toBe(text(output))
          }
          const result = await withSseServer(output, (origin) => readWithSdk(to, origin))

          if (scenario === 'error-midstream') {
            expect(result.error).toBeInstanceOf(Error)
            expect(result.partialText.length).toBeGreaterThan(0)
            return
          }
          expect(result.error).toBeUndefined()
          const events = streamOf([bytes]).pipeThrough(createSseDecodeStream()).pipeThrough(source.createDecodeStream())
          const expected = summarize(await accumulate(events))
          if (fixtureExists(from, `${scenario}.stream-response.json`) && source.decodeResponse) {
            const nonStreaming = summarize(
              source.decodeResponse(readJson(from, `${scenario}.stream-response.json`)).value,
            )
            expect(nonStreaming).toEqual(expected)
          }
          if (fixtureExists(from, `${scenario}.stream-response.json`) && api) {
            const converted = api.convertResponse(readJson(from, `${scenario}.stream-response.json`), { from, to })
            expect(summarize(api.getFormat(to).decodeResponse(converted).value)).toEqual(expected)
          }
          expect(result.summaries.length).toBeGreaterThan(0)
          for (const summary of result.summaries) {
            expect(withoutUsage(summary)).toEqual(withoutUsage(expected))
            if (expected.usage) expect(summary.usage).toEqual(expected.usage)
          }
        })
      }
    })
  }
}
