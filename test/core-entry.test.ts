/**
 * `interlingua/core` (src/core.ts): the converters and streams on codec objects, without the registry. Over every
 * fixture and every pair they give what the main entry's id-based converters give (bodies, warnings, errors), the
 * codec objects are the main entry's, and a format id is refused with a TypeError.
 */
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import * as core from '../src/core.js'
import * as main from '../src/index.js'
import { formatIds, readBytes, readJson, scenarios } from './helpers/fixtures.js'

/** The result of a call, or the error it threw (class, code, message, param), as comparable data. */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() }
  } catch (error) {
    if (main.InterlinguaError.isInstance(error))
      return { error: error.code, message: error.message, param: error.param, format: error.format }
    return { threw: String(error) }
  }
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text()
}

function bytes(data: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(data)
      controller.close()
    },
  })
}

describe('interlingua/core', () => {
  it('exports the codec objects of the main entry', () => {
    expect(core.chatCompletions).toBe(main.getFormat('chat-completions'))
    expect(core.messages).toBe(main.getFormat('messages'))
    expect(core.contentGeneration).toBe(main.getFormat('content-generation'))
    expect(core.responses).toBe(main.getFormat('responses'))
    expect(core.InterlinguaError).toBe(main.InterlinguaError)
  })

  it('converts every request and response fixture, for every pair, as the main entry does', () => {
    // An answer without a time is stamped with the clock (`created`, `created_at`): the two conversions of a fixture
    // must not straddle a second, which a busy machine made them do.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T10:00:00Z') })
    onTestFinished(() => {
      vi.useRealTimers()
    })
    for (const from of formatIds) {
      for (const to of formatIds) {
        const codecs = { from: main.getFormat(from), to: main.getFormat(to) }
        const model = from === 'content-generation' ? 'some-model' : undefined
        for (const scenario of scenarios(from, '.request.json')) {
          const body = readJson(from, `${scenario}.request.json`)
          for (const strict of [false, true]) {
            const byId: unknown[] = []
            const byCodec: unknown[] = []
            const expected = outcome(() =>
              main.convertRequest(body, { from, to, model, strict, onWarning: (w) => byId.push(w) }),
            )
            const actual = outcome(() =>
              core.convertRequest(body, { ...codecs, model, strict, onWarning: (w) => byCodec.push(w) }),
            )
            expect(actual, `${from} → ${to} ${scenario}`).toEqual(expected)
            expect(byCodec).toEqual(byId)
          }
        }
        for (const scenario of scenarios(from, '.response.json')) {
          const body = readJson(from, `${scenario}.response.json`)
          expect(outcome(() => core.convertResponse(body, codecs))).toEqual(
            outcome(() => main.convertResponse(body, { from, to })),
          )
        }
        for (const scenario of scenarios(from, '.error.json')) {
          const body = readJson(from, `${scenario}.error.json`)
          expect(core.convertError(429, body, codecs)).toEqual(main.convertError(429, body, { from, to }))
        }
      }
    }
  })

  it('converts every stream fixture, for every pair (same-format forwarding included), as the main entry does', async () => {
    // A Responses stream stamps `created_at` with the clock when the source has no time: the two runs of a pair must
    // not straddle a second (a busy machine made them).
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T10:00:00Z') })
    onTestFinished(() => {
      vi.useRealTimers()
    })
    for (const from of formatIds) {
      for (const scenario of scenarios(from, '.sse')) {
        const data = readBytes(from, `${scenario}.sse`)
        for (const to of formatIds) {
          for (const includeUsage of [false, true]) {
            const expected = await text(main.convertStream(bytes(data), { from, to, includeUsage }))
            const actual = await text(
              core.convertStream(bytes(data), { from: main.getFormat(from), to: main.getFormat(to), includeUsage }),
            )
            expect(actual, `${from} → ${to} ${scenario}`).toBe(expected)
          }
        }
      }
    }
  })

  it('refuses a format id (the main entry takes ids; core takes codecs)', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }] }
    // biome-ignore lint/suspicious/noExplicitAny: a JavaScript caller passing the main entry's option shape
    const ids = { from: 'chat-completions', to: 'messages' } as any
    expect(() => core.convertRequest(body, ids)).toThrow(TypeError)
    expect(() => core.convertResponse(body, ids)).toThrow(TypeError)
    expect(() => core.convertError(500, body, ids)).toThrow(TypeError)
    expect(() => core.convertStream(bytes(new Uint8Array()), ids)).toThrow(TypeError)
    expect(() => core.convertEventStream(new ReadableStream(), ids)).toThrow(TypeError)
  })
})
