/**
 * `interlingua check` against the library's own gateway (the mock model, and translated pairs over the strict
 * stand-ins): every check passes — and against a proxy that injects one defect at a time: each turns its named
 * check red and leaves the other formats green.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import { checkCommand } from '../../src/node/check/cli-check.js'
import { type CheckReport, runChecks, spliceMarkdown } from '../../src/node/check/run.js'
import { toNodeListener } from '../../src/node.js'
import {
  type StrictUpstream,
  startStrictUpstream,
  strictGatewayOptions,
  strictModels,
} from '../sdk/strict-upstreams.js'

/** Rewrites an answer (`text`) to a request (`path`, its body `sent`), or answers in its place. */
type Defect = (path: string, text: string, sent: string) => string | Response

let server: Server
let url: string
let strict: StrictUpstream
let defect: Defect | undefined
const gateway = createGateway({ apiKeys: ['client-key'] })

async function listen(handler: (request: Request) => Promise<Response>): Promise<{ server: Server; url: string }> {
  const server = createServer(toNodeListener(handler))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise((done) => server.close(done))
}

beforeAll(async () => {
  strict = await startStrictUpstream()
  const translated = createGateway(strictGatewayOptions(strict.url))
  ;({ server, url } = await listen(async (request) => {
    const path = new URL(request.url).pathname
    if (path.startsWith('/translated/')) {
      const inner = new URL(request.url)
      inner.pathname = path.slice('/translated'.length)
      return translated.fetch(new Request(inner, request))
    }
    const sent = await request.clone().text()
    const answer = await gateway.fetch(request)
    if (!defect) return answer
    const changed = defect(path + new URL(request.url).search, await answer.text(), sent)
    if (changed instanceof Response) return changed
    return new Response(changed, { status: answer.status, headers: answer.headers })
  }))
})
afterAll(async () => {
  await stop(server)
  await strict.close()
})

const failed = (report: CheckReport) => report.checks.filter((c) => !c.pass).map((c) => `${c.format}:${c.id}`)
const isChat = (path: string) => path === '/v1/chat/completions'
/** A messages endpoint that refuses requests holding `marker` with a 400 `message`. */
const refuseWhen =
  (marker: string, message: string): Defect =>
  (p, text, sent) =>
    isMessages(p) && sent.includes(marker)
      ? Response.json({ type: 'error', error: { type: 'invalid_request_error', message } }, { status: 400 })
      : text
const isMessages = (path: string) => path === '/v1/messages'
const unquote = (s: string) => JSON.parse(`"${s}"`)

const defects: [string, string, Defect][] = [
  [
    'chat-completions:parallel-calls-json',
    'parallel calls merged into one',
    (p, text) => {
      if (!isChat(p) || !text.startsWith('{')) return text
      const json = JSON.parse(text)
      const message = json.choices[0].message
      if (message.tool_calls?.length > 1) message.tool_calls = message.tool_calls.slice(0, 1)
      return JSON.stringify(json)
    },
  ],
  [
    'chat-completions:parallel-calls-stream',
    'streamed parallel calls on one index',
    (p, text) => (isChat(p) ? text.replaceAll('"tool_calls":[{"index":1', '"tool_calls":[{"index":0') : text),
  ],
  [
    'messages:reasoning-json',
    'a reasoning signature dropped',
    (p, text) => (isMessages(p) && text.startsWith('{') ? text.replace(/,"signature":"[^"]*"/g, '') : text),
  ],
  [
    'messages:reasoning-stream',
    'a streamed reasoning signature dropped',
    (p, text) =>
      isMessages(p) ? text.replace(/event: content_block_delta\ndata: [^\n]*"signature_delta"[^\n]*\n\n/g, '') : text,
  ],
  [
    'messages:reasoning-round-trip',
    'thinking blocks sent back refused',
    refuseWhen('"type":"thinking"', 'thinking is not supported'),
  ],
  ['messages:image-input', 'a base64 image refused', refuseWhen('"type":"image"', 'image blocks are not supported')],
  [
    'messages:request-fields',
    'a field the SDKs send refused (metadata)',
    refuseWhen('"metadata"', 'metadata: Extra inputs are not permitted'),
  ],
  [
    'chat-completions:structured-output',
    'response_format ignored (prose instead of JSON)',
    (p, text, sent) => {
      if (!isChat(p) || !sent.includes('"response_format"')) return text
      const json = JSON.parse(text)
      json.choices[0].message.content = 'Sunny, 18 degrees.'
      return JSON.stringify(json)
    },
  ],
  [
    'content-generation:auth-query-key',
    'Gemini’s ?key= query parameter not accepted',
    (p, text) =>
      /[?&]key=/.test(p)
        ? Response.json({ error: { code: 401, message: 'no key', status: 'UNAUTHENTICATED' } }, { status: 401 })
        : text,
  ],
  [
    'responses:count-tokens',
    'no Responses token counting',
    (p, text) => (p === '/v1/responses/input_tokens' ? new Response('Not Found', { status: 404 }) : text),
  ],
  ['chat-completions:stream-end', 'a dropped [DONE]', (_p, text) => text.replace('data: [DONE]\n\n', '')],
  [
    'messages:stream-end',
    'a missing end of stream (no message_stop)',
    (p, text) => (isMessages(p) ? text.replace(/event: message_stop\ndata: [^\n]*\n\n/, '') : text),
  ],
  [
    'chat-completions:tool-call-json',
    'finish_reason stop after tool calls',
    (p, text) => (isChat(p) ? text.replaceAll('"finish_reason":"tool_calls"', '"finish_reason":"stop"') : text),
  ],
  [
    'chat-completions:tool-call-stream',
    'finish_reason stop after streamed tool calls',
    (p, text) => (isChat(p) ? text.replaceAll('"finish_reason":"tool_calls"', '"finish_reason":"stop"') : text),
  ],
  [
    'chat-completions:tool-call-json',
    'arguments as an object',
    (p, text) =>
      isChat(p) && !text.startsWith('data:')
        ? text.replace(/"arguments":"((?:[^"\\]|\\.)*)"/, (_m, s: string) => `"arguments":${unquote(s)}`)
        : text,
  ],
  [
    'content-generation:stream-data-only',
    'an SSE comment in a Gemini stream',
    (p, text) => (p.includes(':streamGenerateContent') ? `: keep-alive\n\n${text}` : text),
  ],
  [
    'messages:error-invalid-body',
    'a wrong error shape',
    (p, text) => (isMessages(p) && text.includes('"type":"error"') ? '{"error":"bad request"}' : text),
  ],
  [
    'chat-completions:usage-json',
    'usage missing',
    (p, text) =>
      isChat(p) && text.startsWith('{"id"') ? JSON.stringify({ ...JSON.parse(text), usage: undefined }) : text,
  ],
  [
    'messages:json-answer',
    'a 200 carrying an error',
    (p, text) =>
      isMessages(p) && text.startsWith('{') && text.includes('"type":"message"')
        ? Response.json({ type: 'error', error: { type: 'api_error', message: 'Internal error' } })
        : text,
  ],
]

describe('interlingua check', () => {
  it('the gateway with the mock model passes every check of every format', async () => {
    const report = await runChecks({ endpoint: url, key: 'client-key' })
    expect(failed(report)).toEqual([])
    expect(new Set(report.checks.map((c) => c.format)).size).toBe(4)
    expect(report.checks.length).toBeGreaterThanOrEqual(70)
    // Read by the official SDKs (devDependencies here), and said so per check.
    expect(report.judges).toEqual({
      'chat-completions': expect.stringMatching(/^openai \d/),
      responses: expect.stringMatching(/^openai \d/),
      messages: expect.stringMatching(/^@anthropic-ai\/sdk \d/),
      'content-generation': expect.stringMatching(/^@google\/genai \d/),
    })
    expect(report.checks.find((c) => c.id === 'parallel-calls-stream')?.judge).toMatch(/^openai/)
    // Without them (the SDKs not installed, or --no-sdk): the library's decoders read the same answers, as green.
    const library = await runChecks({ endpoint: url, key: 'client-key', sdks: false })
    expect(failed(library)).toEqual([])
    expect(new Set(Object.values(library.judges))).toEqual(new Set(['interlingua decoders']))
    expect(library.checks.length).toBe(report.checks.length)
  })

  it('translated pairs over the strict stand-ins pass the answer checks', async () => {
    for (const [format, model] of [
      ['chat-completions', strictModels.messages],
      // Reasoning without a signature (chat-completions) still comes with encrypted_content for a stateless client.
      ['responses', strictModels['chat-completions']],
      ['messages', strictModels['content-generation']],
      ['content-generation', strictModels['chat-completions']],
    ] as const) {
      const report = await runChecks({
        endpoint: `${url}/translated`,
        key: 'client-key',
        formats: [format],
        models: { [format]: model },
      })
      // Parallel calls and structured output need a scripted answer: the next test.
      const scripted = ['parallel calls', 'request fields:structured-output']
      const answerChecks = report.checks.filter(
        (c) =>
          !['models-list', 'count-tokens'].includes(c.id) &&
          !scripted.some((s) => [c.feature, `${c.feature}:${c.id}`].includes(s)),
      )
      expect(answerChecks.filter((c) => !c.pass)).toEqual([])
      expect(answerChecks.length).toBeGreaterThanOrEqual(8)
    }
  })

  it('translated pairs pass parallel calls and structured output over stand-ins scripted to answer them', async () => {
    const scripts = {
      'parallel calls': [
        { toolCalls: ['Paris', 'Tokyo'].map((city) => ({ name: 'get_weather', arguments: { city } })) },
      ],
      'structured-output': [{ text: '{"city":"Paris","temperature":18}' }],
    }
    for (const [only, script] of Object.entries(scripts)) {
      const upstream = await startStrictUpstream({ script })
      const translated = await listen(createGateway(strictGatewayOptions(upstream.url)).fetch)
      for (const [format, model] of [
        ['chat-completions', strictModels.messages],
        ['responses', strictModels['content-generation']],
        ['messages', strictModels['content-generation']],
        ['content-generation', strictModels['chat-completions']],
      ] as const) {
        const report = await runChecks({
          endpoint: translated.url,
          key: 'client-key',
          formats: [format],
          models: { [format]: model },
          only,
        })
        expect(report.checks.filter((c) => !c.pass)).toEqual([])
        expect(report.checks.length).toBe(only === 'parallel calls' ? 2 : 1)
      }
      await stop(translated.server)
      await upstream.close()
    }
  })

  for (const [name, what, inject] of defects)
    it(`${what}: ${name} is red, every other format stays green`, async () => {
      defect = inject
      try {
        const red = failed(await runChecks({ endpoint: url, key: 'client-key' }))
        expect(red).toContain(name)
        const format = name.split(':')[0]
        expect(red.filter((id) => !id.startsWith(`${format}:`))).toEqual([])
      } finally {
        defect = undefined
      }
    })

  it('authentication not enforced: auth-missing-key is red for each format, nothing else', async () => {
    const open = createGateway({})
    const running = await listen(open.fetch)
    const report = await runChecks({ endpoint: running.url, key: 'any-key' })
    await stop(running.server)
    expect(failed(report).sort()).toEqual(
      ['chat-completions', 'content-generation', 'messages', 'responses'].flatMap((f) => [
        `${f}:auth-missing-key`,
        `${f}:auth-wrong-key`,
      ]),
    )
  })

  it('the command: exit 0 on a full pass, a JSON report, 2 with a clear message for a 401 or an unreachable URL', async () => {
    let out = ''
    let err = ''
    const run = (args: string[]) =>
      checkCommand(
        args,
        (t) => {
          out += t
        },
        (t) => {
          err += t
        },
      ).catch((e: Error) => {
        err += e.message
        return 2
      })
    expect(await run([url, '--key', 'client-key', '--json', '--only', 'tool calls'])).toBe(0)
    expect(JSON.parse(out)).toMatchObject({ endpoint: url, failed: 0, passed: 8 })
    expect(err).toContain('[1/8]')
    expect(await run([url, '--format', 'messages'])).toBe(2)
    expect(err).toContain('answered 401 to a messages request: pass its key with --key')
    expect(await run(['http://127.0.0.1:1'])).toBe(2)
    expect(err).toContain('cannot reach http://127.0.0.1:1')
  })
})

it('docs/conformance.md holds, between its markers, what `interlingua check --markdown` writes', async () => {
  const { readFileSync } = await import('node:fs')
  let out = ''
  await checkCommand(
    ['--markdown'],
    (t) => {
      out += `${t}\n`
    },
    () => {},
  )
  const page = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8')
  expect(page.startsWith('# Conformance checks')).toBe(true)
  // `npm run docs:conformance` regenerates it; the hand-written part (peers) outside the markers is kept.
  expect(spliceMarkdown(page, out), 'run npm run docs:conformance').toBe(page)
  expect(spliceMarkdown(`${page}\n## Peers\n\nhand-written\n`, out)).toBe(`${page}\n## Peers\n\nhand-written\n`)
})
