/**
 * `Format.validateRequest` is `decodeRequest` without the IR: over every request fixture and every mutation of it
 * (a wrong type, an unknown discriminator, null, the field removed), both accept the same bodies and refuse the same
 * ones with the same error (code, message, JSON path). The gateway's head read (`validatedHead`) gives what decoding
 * gives for the fields a passthrough needs.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { InterlinguaError } from '../src/errors.js'
import type { RouteMatch } from '../src/formats/format.js'
import { getFormat } from '../src/formats/index.js'
import { headOf, validatedHead } from '../src/gateway/translate-request.js'
import { post, stack, wireRequest } from './gateway-helpers.js'
import { formatIds, readJson, scenarios } from './helpers/fixtures.js'
import { paths, replaced } from './helpers/mutate.js'

/** What a call did: `ok`, or the error's code, message and param. */
function outcome(run: () => unknown): string {
  try {
    run()
    return 'ok'
  } catch (error) {
    if (!InterlinguaError.isInstance(error)) return `threw ${String(error)}`
    return `${error.code} ${error.param ?? ''} ${error.message}`
  }
}

/** A value of another type (or a removal, `undefined`) for the node at a path. */
function mutations(value: unknown): unknown[] {
  const wrong =
    typeof value === 'string'
      ? 42
      : typeof value === 'number'
        ? 'forty-two'
        : typeof value === 'boolean'
          ? 'yes'
          : Array.isArray(value)
            ? { not: 'an array' }
            : 'not an object'
  return [wrong, null, undefined, 'bogus_kind', [], {}]
}

/** The fixture bodies of a format and every one-field mutation of them. */
function bodies(id: (typeof formatIds)[number]): unknown[] {
  const out: unknown[] = []
  for (const scenario of scenarios(id, '.request.json')) {
    const body = readJson(id, `${scenario}.request.json`)
    out.push(body)
    for (const path of paths(body)) {
      let node = body
      for (const key of path) node = (node as Record<string | number, unknown>)[key]
      for (const value of mutations(node)) out.push(replaced(body, path, value))
    }
  }
  return out
}

const routes: Array<Partial<RouteMatch>> = [{}, { model: 'm' }, { kind: 'count-tokens', model: 'm' }]

describe.each(formatIds)('%s validateRequest', (id) => {
  const format = getFormat(id)
  const all = bodies(id)

  it('is implemented', () => {
    expect(format.validateRequest).toBeTypeOf('function')
  })

  it('accepts and refuses exactly what decodeRequest does, with the same error (fixtures and their mutations)', () => {
    const differences: string[] = []
    let refused = 0
    for (const body of all)
      for (const route of routes) {
        const decoded = outcome(() => format.decodeRequest(body, route))
        const validated = outcome(() => format.validateRequest?.(body, route))
        if (decoded !== 'ok') refused++
        if (decoded !== validated) differences.push(`${JSON.stringify(body).slice(0, 200)}: ${decoded} ≠ ${validated}`)
      }
    expect(differences).toEqual([])
    // The mutations do reach the checks (most of them are refused).
    expect(refused).toBeGreaterThan(all.length / 2)
  })
})

describe('messages validateRequest: the checks made while decoding', () => {
  const format = getFormat('messages')
  const base = { model: 'claude', max_tokens: 16 }
  const cases: Record<string, unknown> = {
    'max_tokens missing': { model: 'claude', messages: [{ role: 'user', content: 'hi' }] },
    'an image without data': {
      ...base,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png' } }] }],
    },
    'a document without a url': {
      ...base,
      messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'url' } }] }],
    },
    'a tool result image without a file_id': {
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'x' },
            { type: 'tool_result', tool_use_id: 't', content: [{ type: 'image', source: { type: 'file' } }] },
          ],
        },
      ],
    },
    'a function tool without input_schema': {
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 'f' }],
    },
    'tool_choice tool without a name': {
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
      tool_choice: { type: 'tool' },
    },
    'two faults: the first one decoding meets is named': {
      model: 'claude',
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url' } }] }],
      tools: [{ name: 'f' }],
    },
  }
  it.each(Object.entries(cases))('%s', (_, body) => {
    const decoded = outcome(() => format.decodeRequest(body))
    expect(decoded).toMatch(/^invalid-request /)
    expect(outcome(() => format.validateRequest?.(body))).toBe(decoded)
  })
})

describe('validatedHead (what a passthrough reads instead of decoding)', () => {
  it.each(['chat-completions', 'messages'] as const)('%s: the decoded model and stream flags', (id) => {
    const format = getFormat(id)
    let compared = 0
    const extra = [{ stream: true }, { stream: false }, { stream: true, stream_options: { include_usage: true } }]
    for (const scenario of scenarios(id, '.request.json')) {
      const fixture = readJson(id, `${scenario}.request.json`) as Record<string, unknown>
      for (const body of [fixture, ...extra.map((fields) => ({ ...fixture, ...fields }))]) {
        const decoded = outcome(() => format.decodeRequest(body, {}))
        if (decoded !== 'ok') continue
        expect(validatedHead(format, body, {})).toEqual(headOf(format.decodeRequest(body, {}).value))
        compared++
      }
    }
    expect(compared).toBeGreaterThan(10)
  })

  it('content-generation and responses are decoded instead (their head is not plain body fields)', () => {
    expect(validatedHead(getFormat('content-generation'), {}, {})).toBeUndefined()
    expect(validatedHead(getFormat('responses'), {}, {})).toBeUndefined()
  })
})

describe('gateway passthrough: validated, never decoded', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  /** An upstream answering every request with fixed bytes (passthrough relays them; nothing decodes them). */
  const upstream = async (request: Request) => {
    const stream = (await request.text()).includes('"stream":true')
    return stream
      ? new Response('data: {"seq":1}\n\n', { headers: { 'content-type': 'text/event-stream' } })
      : new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } })
  }

  it.each(['chat-completions', 'messages'] as const)(
    '%s → the same format forwards without decodeRequest',
    async (id) => {
      const format = getFormat(id)
      const decode = vi.spyOn(format, 'decodeRequest')
      const { gateway, calls } = stack({}, upstream)
      for (const stream of [false, true]) {
        const { path, body } = wireRequest(id, `via-${id}`, { stream })
        const response = await gateway.fetch(post(id, path, body))
        expect(response.status).toBe(200)
        expect(await response.text()).toBe(stream ? 'data: {"seq":1}\n\n' : '{"ok":true}')
        expect(JSON.parse(calls.at(-1)?.body ?? '{}')).toEqual({ ...body, model: 'upstream-model' })
      }
      expect(decode).not.toHaveBeenCalled()
      // A bad body is refused as decoding refuses it: 400, the same message naming the same path.
      const { path, body } = wireRequest(id, `via-${id}`)
      const bad = { ...body, messages: [{ role: 'bogus', content: 'x' }] }
      const refused = await gateway.fetch(post(id, path, bad))
      expect(refused.status).toBe(400)
      let message = ''
      try {
        format.decodeRequest(bad)
      } catch (error) {
        message = (error as Error).message
      }
      expect(message).toContain('messages[0]')
      expect(JSON.stringify(await refused.json())).toContain(JSON.stringify(message).slice(1, -1))
      // Translated to another format, the request is decoded.
      const other = id === 'messages' ? 'chat-completions' : 'messages'
      await (await gateway.fetch(post(id, path, { ...body, model: `via-${other}` }))).text()
      expect(decode).toHaveBeenCalled()
    },
  )

  it('translated, or routed by a resolveModel callback, the request is decoded once and never validated apart', async () => {
    const format = getFormat('chat-completions')
    const validate = vi.spyOn(format, 'validateRequest')
    const decode = vi.spyOn(format, 'decodeRequest')
    const { gateway } = stack({}, upstream)
    const translated = wireRequest('chat-completions', 'via-messages')
    await (await gateway.fetch(post('chat-completions', translated.path, translated.body))).text()
    expect([validate.mock.calls.length, decode.mock.calls.length]).toEqual([0, 1])
    // A resolveModel callback is only called once the body is known valid (as before): the passthrough decodes.
    const resolveModel = vi.fn(() => ({ upstream: 'openai' }))
    const routed = stack({ models: undefined, resolveModel }, upstream).gateway
    const passthrough = wireRequest('chat-completions', 'anything')
    expect((await routed.fetch(post('chat-completions', passthrough.path, passthrough.body))).status).toBe(200)
    expect([validate.mock.calls.length, decode.mock.calls.length]).toEqual([0, 2])
    expect(resolveModel).toHaveBeenCalledOnce()
  })
})
