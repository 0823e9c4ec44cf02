import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SseFrame, SseMessage } from '../src/formats/format.js'
import { formats } from '../src/formats/index.js'
import type * as ir from '../src/ir/index.js'
import { createSseDecodeStep } from '../src/stream/sse-decode.js'
import { createSseEncodeStep, formatSseFrame } from '../src/stream/sse-encode.js'
import {
  chainSteps,
  MAX_JOINED_TEXT,
  mapStep,
  type StreamStep,
  stepToTransformStream,
  takeJoined,
} from '../src/stream/step.js'
import { collect, randomChunks, streamOf } from './helpers/rechunk.js'

const fixtures = join(import.meta.dirname, 'fixtures')

/** Drives a step over inputs; returns the outputs of each push (and of end) separately. */
function drive<I, O>(step: StreamStep<I, O>, inputs: I[]): O[][] {
  const batches: O[][] = []
  for (const input of inputs) {
    const out: O[] = []
    step.push(input, out)
    batches.push(out)
  }
  const out: O[] = []
  step.end(out)
  batches.push(out)
  return batches
}

describe('stepToTransformStream', () => {
  it('enqueues what each push produced, in order, and what end produced on flush', async () => {
    const step: StreamStep<number, string> = {
      push(n, out) {
        for (let i = 0; i < n; i++) out.push(`${n}.${i}`)
      },
      end(out) {
        out.push('end')
      },
    }
    expect(await collect(streamOf([2, 0, 1]).pipeThrough(stepToTransformStream(step)))).toEqual([
      '2.0',
      '2.1',
      '1.0',
      'end',
    ])
  })

  it('errors the stream when the step throws', async () => {
    const step: StreamStep<number, number> = {
      push() {
        throw new Error('boom')
      },
      end() {},
    }
    await expect(collect(streamOf([1]).pipeThrough(stepToTransformStream(step)))).rejects.toThrow('boom')
  })
})

describe('chainSteps', () => {
  it('feeds every output of the first step through the second, then ends both in order', () => {
    const log: string[] = []
    const split: StreamStep<string, string> = {
      push(text, out) {
        out.push(...text.split(''))
      },
      end(out) {
        log.push('first end')
        out.push('!')
      },
    }
    const upper: StreamStep<string, string> = {
      push(letter, out) {
        out.push(letter.toUpperCase())
      },
      end(out) {
        log.push('second end')
        out.push('.')
      },
    }
    expect(drive(chainSteps(split, upper), ['ab', '', 'c'])).toEqual([['A', 'B'], [], ['C'], ['!', '.']])
    expect(log).toEqual(['first end', 'second end'])
    expect(
      drive(
        mapStep((n: number) => n * 2),
        [1, 2],
      ),
    ).toEqual([[2], [4], []])
  })
})

describe('createSseDecodeStep', () => {
  it('decodes bytes split inside a multi-byte character and text chunks alike', () => {
    const bytes = new TextEncoder().encode('data: 日本🎉\n\nevent: x\ndata: a\r\n\r\n')
    const byteOut = drive(createSseDecodeStep(), [...randomChunks(bytes, 3, 3)]).flat()
    const textOut = drive(createSseDecodeStep(), ['data: 日本🎉\n', '\nevent: x\ndata: a\r\n\r\n']).flat()
    const expected: SseMessage[] = [
      { event: undefined, id: undefined, data: '日本🎉' },
      { event: 'x', id: undefined, data: 'a' },
    ]
    expect(byteOut).toEqual(expected)
    expect(textOut).toEqual(expected)
  })

  it('ends a final line that stops on a bare CR, and drops an unterminated last message', () => {
    expect(drive(createSseDecodeStep(), ['data: a\r\r']).flat()).toEqual([
      { event: undefined, id: undefined, data: 'a' },
    ])
    expect(drive(createSseDecodeStep(), ['data: a\n']).flat()).toEqual([])
  })

  it('throws a max-buffer-size-exceeded ParseError for an oversized message', () => {
    const step = createSseDecodeStep({ maxBufferSize: 16 })
    expect(() => step.push(`data: ${'x'.repeat(64)}`, [])).toThrow(
      expect.objectContaining({ type: 'max-buffer-size-exceeded' }),
    )
  })
})

describe('createSseEncodeStep', () => {
  it('writes one SSE text per frame, identical to formatSseFrame', () => {
    const frames: SseFrame[] = [{ event: 'a', data: '1\n2' }, { comment: 'ping' }, { data: '[DONE]' }]
    expect(drive(createSseEncodeStep(), frames)).toEqual([...frames.map((f) => [formatSseFrame(f)]), []])
  })
})

describe('every format: the step and the Web stream are the same transducer', () => {
  for (const format of formats) {
    const dir = join(fixtures, format.id)
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.sse'))) {
      it(`${format.id}/${file}: decode and re-encode give identical output both ways`, async () => {
        const bytes = readFileSync(join(dir, file))
        const messages = drive(createSseDecodeStep(), [bytes]).flat()
        const stepEvents = drive(format.decodeStreamStep(), messages).flat()
        const streamEvents = await collect(streamOf(messages).pipeThrough(format.createDecodeStream()))
        expect(stepEvents).toEqual(streamEvents)
        expect(stepEvents.length).toBeGreaterThan(1)
        for (const target of formats) {
          const stepFrames = drive(target.encodeStreamStep({ includeUsage: true }), stepEvents).flat()
          const streamFrames = await collect(
            streamOf<ir.StreamEvent>(streamEvents).pipeThrough(target.createEncodeStream({ includeUsage: true })),
          )
          // Ids and timestamps a format invents (no upstream id) differ per run: compare the frame shapes.
          const shape = (frames: SseFrame[]) => frames.map((f) => [f.event, f.comment, f.data?.length])
          expect(shape(stepFrames)).toEqual(shape(streamFrames))
          expect(stepFrames.length).toBeGreaterThan(0)
        }
      })
    }
  }
})

describe('takeJoined', () => {
  it('joins everything under the limit, and past it hands the strings out over several calls', () => {
    const small = ['a', 'b', 'c']
    expect(takeJoined(small)).toBe('abc')
    expect(small).toEqual([])
    const half = 'x'.repeat(MAX_JOINED_TEXT / 2 + 1)
    const texts = [half, half, 'tail']
    const first = takeJoined(texts)
    expect(first.length).toBe(half.length)
    expect(texts.length).toBe(2)
    expect(takeJoined(texts)).toBe(`${half}tail`)
    expect(texts).toEqual([])
  })
})
