/**
 * HTTP fuzzing (issue 12): fast-check (fixed seed) over every endpoint of every format, through a real server on
 * 127.0.0.1 (`toNodeListener(gateway)`, raw `node:http` requests so any bytes and method can be sent) and through
 * `gateway.fetch`. Bodies: mutated request fixtures (a leaf or node replaced by an odd value, deep nesting, huge
 * strings, `__proto__`/`constructor` keys), random JSON, random bytes (invalid UTF-8); malformed percent-escapes in
 * paths, odd methods and content types. Models route to the embedded mock model and, translated, to a mock-model
 * upstream over HTTP. Only a native 4xx or a valid 2xx may come back: never a 5xx, a hang, or a polluted prototype.
 *
 * `FUZZ_RUNS` sets the runs per property (CI: the default below; locally e.g. `FUZZ_RUNS=5000`).
 */
import { createServer, METHODS, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '../../src/gateway/create-gateway.js'
import type { FormatId } from '../../src/ir/index.js'
import { toNodeListener } from '../../src/node.js'
import { authHeaders, type Json } from '../gateway-helpers.js'
import { formatIds, readJson, scenarios } from '../helpers/fixtures.js'
import { type Path, paths, replaced } from '../helpers/mutate.js'

const runs = Number(process.env.FUZZ_RUNS ?? 120)
const seed = Number(process.env.FUZZ_SEED ?? 20261124)
/** A request that takes longer than this is a hang. */
const hangMs = 15_000

const models = ['m', 'via-chat-completions', 'via-messages', 'via-content-generation', 'via-responses']

type Endpoint = { format: FormatId; method: string; path: (model: string) => string; body: boolean }
const endpoints: Endpoint[] = [
  { format: 'chat-completions', method: 'POST', path: () => '/v1/chat/completions', body: true },
  { format: 'chat-completions', method: 'GET', path: () => '/v1/models', body: false },
  { format: 'chat-completions', method: 'GET', path: (m) => `/v1/models/${m}`, body: false },
  { format: 'messages', method: 'POST', path: () => '/v1/messages', body: true },
  { format: 'messages', method: 'POST', path: () => '/v1/messages/count_tokens', body: true },
  { format: 'content-generation', method: 'POST', path: (m) => `/v1beta/models/${m}:generateContent`, body: true },
  {
    format: 'content-generation',
    method: 'POST',
    path: (m) => `/v1beta/models/${m}:streamGenerateContent?alt=sse`,
    body: true,
  },
  {
    format: 'content-generation',
    method: 'POST',
    path: (m) => `/v1beta/models/${m}:streamGenerateContent`,
    body: true,
  },
  { format: 'content-generation', method: 'POST', path: (m) => `/v1beta/models/${m}:countTokens`, body: true },
  { format: 'content-generation', method: 'GET', path: () => '/v1beta/models', body: false },
  { format: 'content-generation', method: 'GET', path: (m) => `/v1beta/models/${m}`, body: false },
  { format: 'responses', method: 'POST', path: () => '/v1/responses', body: true },
  { format: 'responses', method: 'GET', path: () => '/v1/responses/resp_123', body: false },
]

const fixtures: Record<FormatId, unknown[]> = Object.fromEntries(
  formatIds.map((format) => [
    format,
    scenarios(format, '.request.json').map((name) => readJson(format, `${name}.request.json`)),
  ]),
) as Record<FormatId, unknown[]>

const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value }
  return value
}

/** JSON text with a key that `JSON.parse` turns into an own `__proto__` property (not a prototype change). */
const protoMarker = '"__PROTO_MARKER__"'
const oddValues = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 8 }),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.constant({ type: 'bogus' }),
  fc.constant({ constructor: { prototype: { polluted: 'yes' } } }),
  fc.constant({ prototype: { polluted: 'yes' } }),
  fc.constant('__PROTO_MARKER__'),
  fc.integer({ min: 100, max: 3000 }).map((depth) => nested(depth, 'deep')),
  fc.integer({ min: 64 * 1024, max: 1024 * 1024 }).map((n) => 'x'.repeat(n)),
  fc.constant('\ud800 lone surrogate \udfff'),
  fc.constant('\u0000\u001f control'),
)

/** A fixture of the endpoint's format with one node replaced (or a key added), as JSON text. */
function mutatedBody(format: FormatId): fc.Arbitrary<string> {
  const list = fixtures[format]
  return fc
    .tuple(fc.nat(), fc.nat(), oddValues, fc.constantFrom(...models), fc.boolean(), fc.boolean())
    .map(([which, where, value, model, addKey, stream]) => {
      let body = structuredClone(list[which % list.length]) as Record<string, unknown>
      if (typeof body === 'object' && body && 'model' in body) body.model = model
      if (stream && format !== 'content-generation') body.stream = true
      const all = paths(body)
      const path = all[where % all.length] as Path
      if (addKey) {
        const target = path.length === 0 ? body : undefined
        if (target) (target as Record<string, unknown>).__KEY__ = value
        else body = replaced(body, path, { __KEY__: value, x: 1 }) as Record<string, unknown>
      } else body = replaced(body, path, value) as Record<string, unknown>
      return JSON.stringify(body)
        .replaceAll('"__KEY__"', '"__proto__"')
        .replaceAll(protoMarker, '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}')
    })
}

const garbageBody = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.constantFrom(
    '',
    '{',
    '[]',
    'null',
    '{"model":',
    '{"__proto__":{"polluted":"yes"},"model":"m","messages":[]}',
    `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
    `{"model":"m","messages":[{"role":"user","content":"${'\\ud800'.repeat(1000)}"}]}`,
    '{"model":"m","messages":[{"role":"user","content":"bad \\u12 escape"}]}',
  ),
)

/** Invalid UTF-8 sequences inside an otherwise valid body. */
const invalidUtf8 = fc.constantFrom(
  Buffer.concat([
    Buffer.from('{"model":"m","messages":[{"role":"user","content":"'),
    Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
    Buffer.from('"}]}'),
  ]),
  Buffer.concat([
    Buffer.from('{"contents":[{"parts":[{"text":"'),
    Buffer.from([0xed, 0xa0, 0x80, 0xe0, 0x80]),
    Buffer.from('"}]}]}'),
  ]),
  Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
)

const oddPaths = fc.constantFrom(
  '/v1beta/models/%E0%A4%A:generateContent',
  '/v1beta/models/%:generateContent',
  '/v1beta/models/..%2F..%2Fadmin:generateContent',
  '/v1beta/models/%2e%2e:generateContent',
  '/v1/models/%E0%A4%A',
  '/v1/models/%',
  '/v1beta/models/%FF',
  '/v1/chat/completions?%zz=1',
  '/v1/responses/%E0%A4%A',
  '/v1/messages/%00',
  '//v1//chat//completions',
  '/v1/../v1/messages',
  '/',
  '/v1',
  '/v2/anything',
  `/v1/models/${'a'.repeat(8000)}`,
)
const oddMethods = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'FOO')
const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  undefined,
)

interface Sample {
  method: string
  path: string
  headers: Record<string, string>
  body?: string | Buffer
}

let gateway: Gateway
let upstreamServer: Server
let frontServer: Server
let frontPort = 0

beforeAll(async () => {
  upstreamServer = createServer(toNodeListener(createGateway()))
  await new Promise<void>((resolve) => upstreamServer.listen(0, '127.0.0.1', resolve))
  const up = `http://127.0.0.1:${(upstreamServer.address() as AddressInfo).port}`
  gateway = createGateway({
    upstreams: {
      openai: { format: 'chat-completions', baseURL: `${up}/v1`, apiKey: 'upstream-key' },
      anthropic: { format: 'messages', baseURL: up, apiKey: 'upstream-key' },
      gemini: { format: 'content-generation', baseURL: up, apiKey: 'upstream-key' },
      'openai-responses': { format: 'responses', baseURL: `${up}/v1`, apiKey: 'upstream-key' },
      mock: { format: 'mock' },
    },
    models: {
      m: { upstream: 'mock', model: 'm' },
      'via-chat-completions': { upstream: 'openai', model: 'm' },
      'via-messages': { upstream: 'anthropic', model: 'm' },
      'via-content-generation': { upstream: 'gemini', model: 'm' },
      'via-responses': { upstream: 'openai-responses', model: 'm' },
    },
    apiKeys: ['client-key'],
    timeoutMs: 10_000,
    idleTimeoutMs: 5_000,
  })
  frontServer = createServer(toNodeListener(gateway))
  await new Promise<void>((resolve) => frontServer.listen(0, '127.0.0.1', resolve))
  frontPort = (frontServer.address() as AddressInfo).port
})

afterAll(async () => {
  for (const server of [frontServer, upstreamServer]) {
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
  }
})

interface Answer {
  status: number
  contentType: string
  text: string
}

function sendNode(sample: Sample): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...sample.headers }
    if (sample.body !== undefined) headers['content-length'] = Buffer.byteLength(sample.body)
    const req = request({ host: '127.0.0.1', port: frontPort, method: sample.method, path: sample.path, headers })
    const timer = setTimeout(() => {
      req.destroy()
      reject(new Error(`hang: ${sample.method} ${sample.path}`))
    }, hangMs)
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        clearTimeout(timer)
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          text: Buffer.concat(chunks).toString('utf8'),
        })
      })
      res.on('error', (error) => {
        clearTimeout(timer)
        reject(error)
      })
    })
    req.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    req.end(sample.body)
  })
}

async function sendWeb(sample: Sample): Promise<Answer | undefined> {
  let req: Request
  try {
    const withBody = sample.body !== undefined && sample.method !== 'GET' && sample.method !== 'HEAD'
    req = new Request(`http://gateway.test${sample.path}`, {
      method: sample.method,
      headers: sample.headers,
      ...(withBody ? { body: sample.body as BodyInit } : {}),
    })
  } catch {
    return undefined // not a request the Fetch API can express
  }
  const response = await Promise.race([
    gateway.fetch(req),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('hang')), hangMs)),
  ])
  const text = await response.text()
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text }
}

/** Only a native 4xx (a JSON error body of some format) or a complete 2xx. */
function expectSane(answer: Answer, sample: Sample): void {
  const where = `${sample.method} ${sample.path.slice(0, 120)} → ${answer.status} ${answer.text.slice(0, 300)}`
  if (!METHODS.includes(sample.method) && answer.text === '') {
    // node:http's own parser refuses a method it does not know (400, empty body): the listener never runs.
    expect(answer.status, where).toBe(400)
    return
  }
  expect(answer.status, where).toBeGreaterThanOrEqual(200)
  expect(answer.status, where).toBeLessThan(500)
  expect(answer.status === 413 || answer.status < 300 || answer.status >= 400, where).toBe(true)
  if (sample.method === 'HEAD') return
  if (answer.status >= 400) {
    const body = JSON.parse(answer.text) as Json
    const error = body.error
    expect(error, where).toBeDefined()
    expect(typeof error.message, where).toBe('string')
    expect(answer.text, where).not.toContain('upstream-key')
    return
  }
  if (answer.contentType.includes('text/event-stream')) {
    expect(answer.text.endsWith('\n\n'), where).toBe(true)
  } else if (answer.text !== '') {
    JSON.parse(answer.text)
  }
}

function expectCleanPrototypes(): void {
  expect(Object.keys(Object.prototype)).toEqual([])
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  expect(Object.keys(Array.prototype)).toEqual([])
  expect(Object.keys(Function.prototype)).toEqual([])
}

const endpointSample = (endpoint: Endpoint, body: fc.Arbitrary<string | Buffer>): fc.Arbitrary<Sample> =>
  fc.tuple(fc.constantFrom(...models), body, contentTypes, fc.boolean()).map(([model, text, type, keyed]) => ({
    method: endpoint.method,
    path: endpoint.path(model),
    headers: {
      ...(type ? { 'content-type': type } : {}),
      ...(keyed || endpoint.method === 'GET' ? authHeaders(endpoint.format, 'client-key') : {}),
      ...(endpoint.format === 'messages' ? { 'anthropic-version': '2023-06-01' } : {}),
    },
    ...(endpoint.body ? { body: text } : {}),
  }))

const fuzzers = {
  'mutated fixtures': (endpoint: Endpoint) => endpointSample(endpoint, mutatedBody(endpoint.format)),
  'random JSON and bytes': (endpoint: Endpoint) => endpointSample(endpoint, fc.oneof(garbageBody, invalidUtf8)),
}

const transports = {
  'node (toNodeListener, 127.0.0.1)': sendNode,
  'web (gateway.fetch)': sendWeb,
}

describe.each(Object.entries(transports))('%s', (_, send) => {
  describe.each(Object.entries(fuzzers))('%s', (_, fuzzer) => {
    it.each(endpoints.filter((e) => e.body).map((e) => [`${e.method} ${e.path('{model}')}`, e] as const))(
      '%s: native 4xx or valid 2xx, never 5xx or a hang',
      async (_, endpoint) => {
        await fc.assert(
          fc.asyncProperty(fuzzer(endpoint), async (sample) => {
            const answer = await send(sample)
            if (answer) expectSane(answer, sample)
          }),
          { seed, numRuns: runs },
        )
        expectCleanPrototypes()
      },
      120_000,
    )
  })

  it('odd paths, methods and content types on every route', async () => {
    const sample = fc
      .tuple(
        fc.oneof(oddPaths, fc.constantFrom(...endpoints.map((e) => e.path('m')))),
        oddMethods,
        contentTypes,
        fc.constantFrom(...formatIds),
        fc.oneof(fc.constant(undefined), garbageBody),
      )
      .map(
        ([path, method, type, format, body]): Sample => ({
          method,
          path,
          headers: { ...(type ? { 'content-type': type } : {}), ...authHeaders(format, 'client-key') },
          ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
        }),
      )
    await fc.assert(
      fc.asyncProperty(sample, async (s) => {
        const answer = await send(s)
        if (answer) expectSane(answer, s)
      }),
      { seed, numRuns: runs * 2 },
    )
    expectCleanPrototypes()
  }, 120_000)
})
