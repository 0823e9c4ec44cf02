/**
 * A strict Amazon Bedrock runtime stand-in on 127.0.0.1. It checks what Bedrock checks before a model runs — the
 * SigV4 signature recomputed with the known secret (`./sigv4.ts`) or a Bedrock API key as Bearer, the operation and
 * model id in the path (one URL-encoded segment), the body (InvokeModel: the messages body with `anthropic_version`,
 * without `model`/`stream`; Converse: `./converse-model.ts`; CountTokens: either, wrapped in `input`) — and answers in
 * Bedrock's own shapes: errors as `{"message"}` with `x-amzn-errortype`, streams as `application/vnd.amazon.eventstream`
 * frames encoded by the AWS SDKs' codec (invoke: `chunk` events of base64 Anthropic events; converse: typed events;
 * both with Bedrock's `p` padding), cut into odd-sized network chunks. InvokeModel calls are answered by the backend
 * (the messages model behind the cloud), Converse calls by the script or the built-in Converse model.
 */
import { EventStreamCodec } from '@smithy/core/event-streams'
import type { Json } from '../json.js'
import type { ScriptTurn } from '../strict-upstream.js'
import { answerConverse, converseEvents } from './converse-model.js'
import { type Backend, type CloudCall, type CloudReceived, type CloudServer, countOf, serveCloud } from './front.js'
import { type Credential, verifySigV4 } from './sigv4.js'

export type BedrockReceived = CloudReceived

export interface BedrockStandIn extends CloudServer {
  region: string
  /** Why each refused call was refused (the message of its 4xx). */
  rejections: string[]
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

/** Model ids the account may call (by default). Anthropic ones serve InvokeModel; all serve Converse. */
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

/** Bedrock's exception for an HTTP status (a backend's error answer, a scripted error). */
function exceptionOf(status: number): string {
  const types: Record<number, string> = {
    400: 'ValidationException',
    403: 'AccessDeniedException',
    404: 'ResourceNotFoundException',
    408: 'ModelTimeoutException',
    424: 'ModelErrorException',
    429: 'ThrottlingException',
    503: 'ServiceUnavailableException',
  }
  return types[status] ?? 'InternalServerException'
}

/** The `data:` payloads of an SSE text written by the library's encoders (one data line per event). */
function sseData(text: string): Json[] {
  return text
    .split(/\n\n/)
    .map((event) => event.split('\n').find((line) => line.startsWith('data:')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice(5)))
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

export interface BedrockStandInOptions {
  /** The messages model behind InvokeModel. */
  backend: Backend
  /** Converse answers in order (the last repeats); without one, the built-in Converse model. */
  script?: ScriptTurn[]
  /** The model ids the account may call. @defaultValue `bedrockModels` */
  models?: string[]
  port?: number
}

export async function startBedrockStandIn(options: BedrockStandInOptions): Promise<BedrockStandIn> {
  const { backend } = options
  const models = options.models ?? bedrockModels
  const rejections: string[] = []
  let throttle = false
  let streamFailure: { type: string; frames: number } | undefined
  let turn = 0

  function refuse(status: number, type: string, message: string): Response {
    rejections.push(message)
    return bedrockError(status, type, message)
  }

  function streamed(events: Array<[string, Json]>): Response {
    const frames = events.map(([type, payload], n) => eventFrame(type, payload, n))
    const failure = streamFailure
    streamFailure = undefined
    if (failure) return frameStream([...frames.slice(0, failure.frames), exceptionFrame(failure.type)])
    return frameStream(frames)
  }

  /** Bedrock's checks of an InvokeModel body for `modelId`: the refusal, or undefined. */
  function invokeProblem(modelId: string, body: Json): Response | undefined {
    const malformed = (detail: string) =>
      refuse(
        400,
        'ValidationException',
        `Malformed input request: ${detail}, please reformat your input and try again.`,
      )
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return malformed('#: expected an object')
    if (!/anthropic\./.test(modelId)) return malformed('#: required key [prompt] not found')
    if (!anthropicVersions.has(body.anthropic_version))
      return malformed('#: required key [anthropic_version] not found')
    for (const key of ['model', 'stream'])
      if (key in body) return malformed(`#: extraneous key [${key}] is not permitted`)
    return undefined
  }

  async function invoke(modelId: string, body: Json, stream: boolean): Promise<Response> {
    const problem = invokeProblem(modelId, body)
    if (problem) return problem
    const { anthropic_version: _version, anthropic_beta: beta, ...rest } = body
    const headers: Record<string, string> = { 'anthropic-version': '2023-06-01' }
    if (Array.isArray(beta)) headers['anthropic-beta'] = beta.join(',')
    const answer = await backend(
      '/v1/messages',
      JSON.stringify({ ...rest, model: modelId, ...(stream ? { stream: true } : {}) }),
      headers,
    )
    const text = await answer.text()
    if (answer.status < 200 || answer.status > 299) {
      let message = text
      try {
        message = JSON.parse(text).error?.message ?? text
      } catch {}
      return refuse(answer.status, exceptionOf(answer.status), message)
    }
    if (!stream) return new Response(text, { headers: { 'content-type': 'application/json' } })
    return streamed(
      sseData(text).map((data): [string, Json] => [
        'chunk',
        { bytes: Buffer.from(JSON.stringify(data)).toString('base64') },
      ]),
    )
  }

  /** CountTokens: `{input: {invokeModel: {body: base64}}}` or `{input: {converse: {messages, system…}}}`. */
  function countTokens(modelId: string, body: Json): Response {
    const input = body?.input
    if (typeof input?.invokeModel?.body === 'string') {
      let invokeBody: Json
      try {
        invokeBody = JSON.parse(Buffer.from(input.invokeModel.body, 'base64').toString('utf8'))
      } catch {
        return refuse(400, 'ValidationException', 'input.invokeModel.body: not a base64-encoded JSON request body')
      }
      return invokeProblem(modelId, invokeBody) ?? Response.json({ inputTokens: countOf(invokeBody) })
    }
    if (typeof input?.converse === 'object' && input.converse !== null) {
      const outcome = answerConverse(modelId, input.converse)
      if (typeof outcome === 'string') return refuse(400, 'ValidationException', outcome)
      return Response.json({ inputTokens: countOf(input.converse) })
    }
    return refuse(400, 'ValidationException', 'input: exactly one of invokeModel, converse is required')
  }

  function converse(modelId: string, body: Json, stream: boolean): Response {
    const script = options.script?.length
      ? (options.script[Math.min(++turn, options.script.length) - 1] as ScriptTurn)
      : undefined
    if (script?.error)
      return refuse(script.error.status, exceptionOf(script.error.status), script.error.message ?? 'Scripted error')
    const outcome = answerConverse(modelId, body, script)
    if (typeof outcome === 'string') return refuse(400, 'ValidationException', outcome)
    if (stream) return streamed(converseEvents(outcome))
    return Response.json({
      output: { message: { role: 'assistant', content: outcome.blocks } },
      stopReason: outcome.stopReason,
      usage: outcome.usage,
      metrics: { latencyMs: 42 },
    })
  }

  async function handle({ method, url, request, text, body }: CloudCall): Promise<Response> {
    const route = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream|count-tokens)$/.exec(
      url.pathname,
    )
    if (method !== 'POST' || !route) return refuse(404, 'UnknownOperationException', 'Unknown operation')
    const authorization = request.headers.get('authorization') ?? ''
    if (authorization.startsWith('Bearer ')) {
      if (authorization !== `Bearer ${bedrockApiKey}`)
        return refuse(403, 'AccessDeniedException', 'Invalid API Key format: Must start with pre-defined prefix')
    } else {
      const failure = verifySigV4({ method, url, headers: request.headers, body: text }, credentials, region)
      if (failure) return refuse(403, failure.type, failure.message)
    }
    if (throttle) {
      throttle = false
      return bedrockError(429, 'ThrottlingException', 'Too many requests, please wait before trying again.')
    }
    const modelId = decodeURIComponent(route[1] as string)
    if (!models.includes(modelId))
      return refuse(400, 'ValidationException', 'The provided model identifier is invalid.')
    const action = route[2] as string
    if (action === 'count-tokens') return countTokens(modelId, body)
    if (action.startsWith('invoke')) return invoke(modelId, body, action === 'invoke-with-response-stream')
    return converse(modelId, body, action === 'converse-stream')
  }

  const running = await serveCloud(handle, options.port)
  return {
    ...running,
    region,
    rejections,
    throttleOnce() {
      throttle = true
    },
    failStreamOnce(type, frames) {
      streamFailure = { type, frames }
    },
  }
}
