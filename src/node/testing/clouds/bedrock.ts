/**
 * A strict Amazon Bedrock runtime stand-in on 127.0.0.1. It checks what Bedrock checks before a model runs — the
 * SigV4 signature recomputed with the known secret (`./bedrock-sigv4.ts`) or a Bedrock API key as Bearer, the
 * operation and model id in the path (one URL-encoded segment), the body (InvokeModel: the messages body with
 * `anthropic_version`, without `model`/`stream`; Converse: `./bedrock-converse-answer.ts`) — and answers in Bedrock's
 * own shapes: errors as `{"message"}` with `x-amzn-errortype`, streams as `application/vnd.amazon.eventstream` frames
 * encoded by the AWS SDKs' codec (invoke: `chunk` events of base64 Anthropic events; converse: typed events; both with
 * Bedrock's `p` padding), cut into odd-sized network chunks. InvokeModel answers come from the library's mock model
 * (the messages format is first-party there); Converse answers from the scripted model.
 */
import { EventStreamCodec } from '@smithy/core/event-streams'
import { createGateway } from '../../src/gateway/create-gateway.js'
import type { Json } from '../gateway-helpers.js'
import { parseSse } from '../gateway-helpers.js'
import { type Running, serve } from '../sdk/servers.js'
import { answerConverse, converseEvents } from './bedrock-converse-answer.js'
import { type Credential, verifySigV4 } from './bedrock-sigv4.js'

export interface BedrockReceived {
  method: string
  /** The raw path (percent-encoding as sent) and query. */
  path: string
  headers: Record<string, string>
  body: Json
}

export interface BedrockStandIn extends Running {
  region: string
  received: BedrockReceived[]
  /** The next call answers 429 ThrottlingException. */
  throttleOnce(): void
  /** The next stream sends `frames` frames, then an exception frame of `type` (`throttlingException`, …). */
  failStreamOnce(type: string, frames: number): void
}

export const region = 'us-west-2'
export const awsCredentials = {
  accessKeyId: 'AKIASTANDINEXAMPLE01',
  secretAccessKey: 'stand+in/SecretAccessKeyEXAMPLEKEY0123456',
}
export const sessionCredentials = {
  accessKeyId: 'ASIASTANDINSESSION01',
  secretAccessKey: 'stand+in/SessionSecretEXAMPLEKEY01234567',
  sessionToken: 'IQoJb3JpZ2luX2VjEStandInSessionToken//////////wEaCXVzLWVhc3QtMSJHMEUCIQ',
}
export const expiredCredentials = {
  accessKeyId: 'ASIASTANDINEXPIRED01',
  secretAccessKey: 'stand+in/ExpiredSecretEXAMPLEKEY0123456',
  sessionToken: 'IQoJb3JpZ2luX2VjEStandInExpiredToken',
}
export const bedrockApiKey = 'ABSKQmVkcm9ja0FQSUtleS1zdGFuZGluLWtleS0wMTIzNDU2Nzg5YWJjZGVm'

const credentials: Record<string, Credential> = {
  [awsCredentials.accessKeyId]: { secretAccessKey: awsCredentials.secretAccessKey },
  [sessionCredentials.accessKeyId]: {
    secretAccessKey: sessionCredentials.secretAccessKey,
    sessionToken: sessionCredentials.sessionToken,
  },
  [expiredCredentials.accessKeyId]: {
    secretAccessKey: expiredCredentials.secretAccessKey,
    sessionToken: expiredCredentials.sessionToken,
    expired: true,
  },
}

/** Model ids the account may call. Anthropic ones serve InvokeModel; all serve Converse. */
export const bedrockModels = [
  'anthropic.claude-sonnet-4-5-20250929-v1:0',
  'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  'amazon.nova-pro-v1:0',
  'meta.llama3-3-70b-instruct-v1:0',
]
const anthropicVersions = new Set(['bedrock-2023-05-31', '2026-10-21'])

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
)
const header = (value: string) => ({ type: 'string' as const, value })
const padding = (n: number) => 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.slice(0, 1 + (n % 40))

function eventFrame(type: string, payload: Json, n: number): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': header(type),
      ':content-type': header('application/json'),
      ':message-type': header('event'),
    },
    body: new TextEncoder().encode(JSON.stringify({ ...payload, p: padding(n) })),
  })
}

function exceptionFrame(type: string): Uint8Array {
  return codec.encode({
    headers: {
      ':exception-type': header(type),
      ':content-type': header('application/json'),
      ':message-type': header('exception'),
    },
    body: new TextEncoder().encode(JSON.stringify({ message: `Stand-in ${type}: try again later.` })),
  })
}

/** Bedrock's error answer: `{"message"}`, the exception named in `x-amzn-errortype`. */
export function bedrockError(status: number, type: string, message: string): Response {
  return Response.json(
    { message },
    {
      status,
      headers: {
        'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
        'x-amzn-requestid': crypto.randomUUID(),
      },
    },
  )
}

/** Frames as a body cut into odd-sized chunks (a frame often spans two reads). */
function frameStream(frames: Uint8Array[]): Response {
  const all = new Uint8Array(frames.reduce((n, frame) => n + frame.length, 0))
  let at = 0
  for (const frame of frames) {
    all.set(frame, at)
    at += frame.length
  }
  let offset = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= all.length) return controller.close()
      controller.enqueue(all.slice(offset, offset + 37))
      offset += 37
    },
  })
  return new Response(body, {
    headers: { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': crypto.randomUUID() },
  })
}

export async function startBedrockStandIn(): Promise<BedrockStandIn> {
  const mock = createGateway()
  const received: BedrockReceived[] = []
  let throttle = false
  let streamFailure: { type: string; frames: number } | undefined

  function streamed(events: Array<[string, Json]>): Response {
    const frames = events.map(([type, payload], n) => eventFrame(type, payload, n))
    const failure = streamFailure
    streamFailure = undefined
    if (failure) return frameStream([...frames.slice(0, failure.frames), exceptionFrame(failure.type)])
    return frameStream(frames)
  }

  async function invoke(modelId: string, body: Json, stream: boolean): Promise<Response> {
    if (typeof body !== 'object' || body === null)
      return bedrockError(
        400,
        'ValidationException',
        'Malformed input request, please reformat your input and try again.',
      )
    if (!/anthropic\./.test(modelId))
      return bedrockError(
        400,
        'ValidationException',
        `Malformed input request: #: required key [prompt] not found, please reformat your input and try again.`,
      )
    if (!anthropicVersions.has(body.anthropic_version))
      return bedrockError(
        400,
        'ValidationException',
        'Malformed input request: #: required key [anthropic_version] not found, please reformat your input and try again.',
      )
    for (const key of ['model', 'stream'])
      if (key in body)
        return bedrockError(
          400,
          'ValidationException',
          `Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`,
        )
    const { anthropic_version: _version, anthropic_beta: _beta, ...rest } = body
    const answer = await mock.fetch(
      new Request('http://mock.test/v1/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ ...rest, model: modelId, ...(stream ? { stream: true } : {}) }),
      }),
    )
    if (!stream)
      return new Response(await answer.text(), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      })
    const events = parseSse(await answer.text()).map(({ data }): [string, Json] => [
      'chunk',
      { bytes: Buffer.from(JSON.stringify(data)).toString('base64') },
    ])
    return streamed(events)
  }

  const running = await serve(async (request) => {
    const url = new URL(request.url)
    const headers: Record<string, string> = {}
    request.headers.forEach((value, name) => {
      headers[name] = value
    })
    const text = await request.text()
    let body: Json
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
    received.push({ method: request.method, path: `${url.pathname}${url.search}`, headers, body })
    const route = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream)$/.exec(url.pathname)
    if (request.method !== 'POST' || !route) return bedrockError(404, 'UnknownOperationException', 'Unknown operation')
    const authorization = request.headers.get('authorization') ?? ''
    if (authorization.startsWith('Bearer ')) {
      if (authorization !== `Bearer ${bedrockApiKey}`)
        return bedrockError(403, 'AccessDeniedException', 'Invalid API Key format: Must start with pre-defined prefix')
    } else {
      const failure = await verifySigV4(
        { method: request.method, url, headers: request.headers, body: text },
        credentials,
        region,
      )
      if (failure) return bedrockError(403, failure.type, failure.message)
    }
    if (throttle) {
      throttle = false
      return bedrockError(429, 'ThrottlingException', 'Too many requests, please wait before trying again.')
    }
    const modelId = decodeURIComponent(route[1] as string)
    if (!bedrockModels.includes(modelId))
      return bedrockError(400, 'ValidationException', 'The provided model identifier is invalid.')
    const action = route[2] as string
    if (action.startsWith('invoke')) return invoke(modelId, body, action === 'invoke-with-response-stream')
    const outcome = answerConverse(modelId, body)
    if (typeof outcome === 'string') return bedrockError(400, 'ValidationException', outcome)
    if (action === 'converse-stream') return streamed(converseEvents(outcome))
    return Response.json({
      output: { message: { role: 'assistant', content: outcome.blocks } },
      stopReason: outcome.stopReason,
      usage: outcome.usage,
      metrics: { latencyMs: 42 },
    })
  })
  return {
    ...running,
    region,
    received,
    throttleOnce() {
      throttle = true
    },
    failStreamOnce(type, frames) {
      streamFailure = { type, frames }
    },
  }
}
