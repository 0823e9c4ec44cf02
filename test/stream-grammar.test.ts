import { existsSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { FormatId, SseMessage } from '../src/formats/format.js'
import type * as ir from '../src/ir/index.js'
import { accumulateEvents } from '../src/stream/accumulate.js'
import { createSseDecodeStream } from '../src/stream/sse-decode.js'
import { createSseEncodeStream } from '../src/stream/sse-encode.js'
import { formatIds } from './helpers/fixtures.js'
import { collect, concatBytes, streamOf } from './helpers/rechunk.js'
import { grammarViolations } from './helpers/stream-grammar.js'

const formatsDir = new URL('../src/formats/', import.meta.url)
function hasTransducers(id: FormatId): boolean {
  return (
    existsSync(new URL(`${id}/encode-stream.ts`, formatsDir)) &&
    existsSync(new URL(`${id}/decode-stream.ts`, formatsDir))
  )
}

type BlockSpec =
  | { kind: 'text'; chunks: string[] }
  | { kind: 'reasoning'; chunks: string[] }
  | { kind: 'tools'; calls: { name: string; fragments: string[] }[]; interleave: boolean }

const chunkText = fc.array(fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }), { minLength: 1, maxLength: 4 })
const argsJson = fc
  .dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.boolean()), {
    maxKeys: 3,
  })
  .chain((value) => {
    const json = JSON.stringify(value)
    return fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, json.length - 1) }), { maxLength: 3 }).map((cuts) => {
      const points = [0, ...cuts.filter((cut) => cut < json.length).sort((a, b) => a - b), json.length]
      const fragments: string[] = []
      for (let i = 1; i < points.length; i++) fragments.push(json.slice(points[i - 1], points[i]))
      return fragments.filter((fragment) => fragment.length > 0)
    })
  })
const blockSpec: fc.Arbitrary<BlockSpec> = fc.oneof(
  chunkText.map((chunks): BlockSpec => ({ kind: 'text', chunks })),
  chunkText.map((chunks): BlockSpec => ({ kind: 'reasoning', chunks })),
  fc
    .record({
      calls: fc.array(fc.record({ name: fc.stringMatching(/^[a-z_]{1,10}$/), fragments: argsJson }), {
        minLength: 1,
        maxLength: 3,
      }),
      interleave: fc.boolean(),
    })
    .map((tools): BlockSpec => ({ kind: 'tools', ...tools })),
)

interface Scenario {
  blocks: BlockSpec[]
  usage: { inputTokens: number; outputTokens: number }
  ending: 'stop' | 'length' | 'error'
}

const scenario: fc.Arbitrary<Scenario> = fc.record({
  blocks: fc.array(blockSpec, { minLength: 1, maxLength: 4 }),
  usage: fc.record({ inputTokens: fc.nat(5000), outputTokens: fc.nat(5000) }),
  ending: fc.constantFrom('stop' as const, 'length' as const, 'error' as const),
})

function toEvents(spec: Scenario): ir.StreamEvent[] {
  const events: ir.StreamEvent[] = [
    { type: 'message-start', id: 'msg_prop', model: 'model-prop', usage: { inputTokens: spec.usage.inputTokens } },
  ]
  let index = 0
  let hasTools = false
  let toolId = 0
  for (const block of spec.blocks) {
    if (block.kind === 'tools') {
      hasTools = true
      const first = index
      const starts = block.calls.map(
        (call, i): ir.StreamEvent => ({
          type: 'tool-call-start',
          index: first + i,
          id: `call_${toolId++}`,
          name: call.name,
        }),
      )
      index += block.calls.length
      if (block.interleave) {
        events.push(...starts)
        const longest = Math.max(...block.calls.map((call) => call.fragments.length))
        for (let f = 0; f < longest; f++) {
          block.calls.forEach((call, i) => {
            const fragment = call.fragments[f]
            if (fragment !== undefined)
              events.push({ type: 'tool-call-delta', index: first + i, argumentsDelta: fragment })
          })
        }
        for (let i = 0; i < block.calls.length; i++) events.push({ type: 'tool-call-end', index: first + i })
      } else {
        block.calls.forEach((call, i) => {
          events.push(starts[i] as ir.StreamEvent)
          for (const fragment of call.fragments)
            events.push({ type: 'tool-call-delta', index: first + i, argumentsDelta: fragment })
          events.push({ type: 'tool-call-end', index: first + i })
        })
      }
      continue
    }
    const current = index++
    events.push({ type: `${block.kind}-start`, index: current } as ir.StreamEvent)
    for (const text of block.chunks)
      events.push({ type: `${block.kind}-delta`, index: current, text } as ir.StreamEvent)
    events.push({ type: `${block.kind}-end`, index: current } as ir.StreamEvent)
  }
  if (spec.ending === 'error') {
    events.push({ type: 'error', error: { code: 'overloaded', status: 529, message: 'Overloaded' } })
    return events
  }
  events.push({ type: 'usage', usage: { outputTokens: spec.usage.outputTokens } })
  events.push({
    type: 'finish',
    finishReason: { unified: hasTools ? 'tool-calls' : spec.ending },
    usage: { ...spec.usage, totalTokens: spec.usage.inputTokens + spec.usage.outputTokens },
  })
  return events
}

interface Transducers {
  createEncodeStream: () => TransformStream<ir.StreamEvent, import('../src/formats/format.js').SseFrame>
  createDecodeStream: () => TransformStream<SseMessage, ir.StreamEvent>
}

async function roundTrip(format: Transducers, events: ir.StreamEvent[]): Promise<ir.StreamEvent[]> {
  const bytes = concatBytes(
    await collect(streamOf(events).pipeThrough(format.createEncodeStream()).pipeThrough(createSseEncodeStream())),
  )
  return collect(streamOf([bytes]).pipeThrough(createSseDecodeStream()).pipeThrough(format.createDecodeStream()))
}

function summary(response: ir.Response) {
  return {
    text: response.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
    toolCalls: response.content.flatMap((part) =>
      part.type === 'tool-call' ? [{ name: part.name, arguments: JSON.parse(part.arguments) as unknown }] : [],
    ),
    finish: response.finishReason.unified,
  }
}

describe('stream grammar: encode → SSE bytes → decode in the same format', () => {
  for (const id of formatIds) {
    it.skipIf(!hasTransducers(id))(`${id} keeps the grammar and the content`, async () => {
      const encode = (await import(`../src/formats/${id}/encode-stream.ts`)) as Pick<Transducers, 'createEncodeStream'>
      const decode = (await import(`../src/formats/${id}/decode-stream.ts`)) as Pick<Transducers, 'createDecodeStream'>
      const format: Transducers = { ...encode, ...decode }
      await fc.assert(
        fc.asyncProperty(scenario, async (spec) => {
          const input = toEvents(spec)
          expect(grammarViolations(input)).toEqual([])
          const output = await roundTrip(format, input)
          expect(grammarViolations(output)).toEqual([])
          if (spec.ending === 'error') {
            expect(output[output.length - 1]?.type).toBe('error')
            expect(() => accumulateEvents(output)).toThrow()
            return
          }
          expect(summary(accumulateEvents(output))).toEqual(summary(accumulateEvents(input)))
        }),
        { numRuns: 60 },
      )
    })
  }
})
