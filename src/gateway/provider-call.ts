/**
 * Upstream calls through a provider (`src/providers/provider.ts`): its code loaded on first use, per-call headers
 * (the provider's credentials and a `headers` function), a non-SSE stream framed into SSE, and a cloud's error answer
 * re-encoded in the client's format. Loaded by `forward.ts` only when an upstream needs it: first-party upstreams with
 * static headers never load it.
 */
import { InterlinguaError } from '../errors.js'
import type { Format, WireFormatId } from '../formats/format.js'
import type { UpstreamAnswer } from '../http/upstream.js'
import type * as ir from '../ir/index.js'
import { providerSpec } from '../providers/index.js'
import type { FramingStep, Provider, ProviderRequest, ProviderUpstream } from '../providers/provider.js'
import { clearBuffer } from '../stream/step.js'
import type { UpstreamOptions } from './options.js'

const providers = new WeakMap<UpstreamOptions, Promise<Provider>>()

/** The provider bound to `upstream` (loaded and made once per upstream options object). */
export function providerOf(upstream: UpstreamOptions, name: string, doFetch: typeof fetch): Promise<Provider> {
  let provider = providers.get(upstream)
  if (!provider) {
    const spec = providerSpec(upstream.provider as string)
    if (!spec) throw new TypeError(`Unknown provider "${String(upstream.provider)}"`)
    provider = spec.load().then((factory) => factory(upstream as ProviderUpstream, { fetch: doFetch, name }))
    // A failed load is retried by the next request, not cached.
    provider.catch(() => providers.delete(upstream))
    providers.set(upstream, provider)
  }
  return provider
}

/** The upstream's `headers` when it is a function: called, names lower-cased. A failure is a 502 naming the upstream. */
async function headersOf(upstream: UpstreamOptions, name: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  let given: Record<string, string>
  try {
    given = await (upstream.headers as () => Record<string, string> | Promise<Record<string, string>>)()
  } catch {
    throw new InterlinguaError('upstream', `The headers function of the upstream "${name}" failed`)
  }
  if (typeof given === 'object' && given !== null)
    for (const key of Object.keys(given)) if (typeof given[key] === 'string') out[key.toLowerCase()] = given[key]
  return out
}

/**
 * The headers of one call: the target's, then the `headers` function's (they may override them), then the provider's
 * credentials over the result (a signature covers every header sent).
 */
export async function callHeaders(
  upstream: UpstreamOptions,
  name: string,
  provider: Provider | undefined,
  call: { url: string; headers: Readonly<Record<string, string>>; body: string },
): Promise<Readonly<Record<string, string>>> {
  let headers = call.headers
  if (typeof upstream.headers === 'function') headers = { ...headers, ...(await headersOf(upstream, name)) }
  if (provider?.authorize) headers = await provider.authorize({ url: call.url, headers, body: call.body })
  return headers
}

/** Secrets a call's headers carry (masked in whatever the upstream echoes back). */
export function headerSecrets(headers: Readonly<Record<string, string>>): string[] {
  const secrets: string[] = []
  for (const name of ['authorization', 'api-key', 'x-api-key', 'x-goog-api-key', 'x-amz-security-token']) {
    const value = headers[name]
    if (value !== undefined) secrets.push(value.replace(/^Bearer /i, ''))
  }
  return secrets
}

/** A provider call's answer: an upstream answer, or the error of a stream whose first frame was a cloud exception. */
export type ProviderAnswer = UpstreamAnswer | { failure: ir.ErrorInfo }

export interface ProviderAnswerInput {
  upstream: UpstreamOptions
  name: string
  provider: Provider
  request: ProviderRequest
  /** The call as sent, with the target's headers (before credentials). */
  sent: { url: string; headers: Readonly<Record<string, string>>; body: string }
  /** The headers it was sent with (credentials included). */
  headers: Readonly<Record<string, string>>
  /** Sends the call once more with other headers. */
  resend(headers: Readonly<Record<string, string>>): Promise<UpstreamAnswer>
  /** A token count in the format's answer shape. */
  count(tokens: number): unknown
}

/**
 * What the cloud answered, made the format's: sent once more with fresh credentials after a 401 the provider
 * explains (`unauthorized`), a cloud's token-count answer as the format's (`tokenCount`), a non-SSE stream framed into
 * SSE (`decodeStream`) — read up to its first event, so that an exception in the first frame is an HTTP error.
 */
export async function providerAnswer(answer: UpstreamAnswer, input: ProviderAnswerInput): Promise<ProviderAnswer> {
  const { provider, request } = input
  if (answer.status === 401 && provider.unauthorized?.(input.headers)) {
    // A credential the cloud refused (a cached token that expired early): sent once more with a fresh one.
    answer.close()
    answer = await input.resend(await callHeaders(input.upstream, input.name, provider, input.sent))
  }
  const ok = answer.status >= 200 && answer.status <= 299
  if (ok && request.kind === 'count-tokens' && provider.tokenCount) return countAnswer(answer, provider, input.count)
  if (!ok || !request.stream || !provider.decodeStream) return answer
  return framedAnswer(answer, provider.decodeStream(request))
}

/** An answer of `status` whose body is `text` (JSON). */
function bufferedAnswer(status: number, text: string): UpstreamAnswer {
  let sent = false
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  return {
    status,
    header: (name) => headers[name] ?? null,
    forEachHeader: (each) => each('application/json', 'content-type'),
    next: async () => {
      if (sent) return undefined
      sent = true
      return new TextEncoder().encode(text)
    },
    text: async () => text,
    close() {},
  }
}

/** A cloud's token count → the format's answer (a count it does not hold: a 502, in the cloud's error shape). */
async function countAnswer(answer: UpstreamAnswer, provider: Provider, count: (tokens: number) => unknown) {
  let tokens: number | undefined
  try {
    tokens = provider.tokenCount?.(JSON.parse(await answer.text()))
  } catch {}
  if (tokens === undefined)
    return bufferedAnswer(502, JSON.stringify({ message: 'The upstream answered no token count' }))
  return bufferedAnswer(200, JSON.stringify(count(tokens)))
}

/** A streamed 2xx answer through the provider's framing step: its body becomes the format's SSE bytes. */
async function framedAnswer(answer: UpstreamAnswer, step: FramingStep): Promise<ProviderAnswer> {
  const out: Uint8Array[] = []
  let at = 0
  let ended = false
  /** The step's outputs one at a time (a queue emptied before the next upstream chunk is pushed). */
  const pull = async (): Promise<Uint8Array | undefined> => {
    while (at >= out.length) {
      clearBuffer(out)
      at = 0
      if (ended) return undefined
      const chunk = await answer.next()
      if (chunk === undefined) {
        ended = true
        step.end(out)
      } else step.push(chunk, out)
    }
    return out[at++]
  }
  // Read ahead to the first event: a stream that fails before any is the cloud's error, not a 200.
  let first: Uint8Array | undefined | null = await pull()
  if (step.failure?.first) {
    answer.close()
    return { failure: step.failure.error }
  }
  const next = async (): Promise<Uint8Array | undefined> => {
    if (first === null) return pull()
    const chunk = first
    first = null
    return chunk
  }
  const eventStream = (name: string, value: string) => (name === 'content-type' ? 'text/event-stream' : value)
  return {
    status: answer.status,
    header: (name) => (name === 'content-type' ? 'text/event-stream' : answer.header(name)),
    forEachHeader: (each) => answer.forEachHeader((value, name) => each(eventStream(name, value), name)),
    next,
    async text() {
      const decoder = new TextDecoder()
      let text = ''
      for (let chunk = await next(); chunk !== undefined; chunk = await next())
        text += decoder.decode(chunk, { stream: true })
      return text + decoder.decode()
    },
    close: () => answer.close(),
  }
}

/**
 * The upstream format as the source of an error answer: the provider's `decodeError` first (the cloud's own error
 * shape), else the format's.
 */
export function errorSource(
  provider: Provider,
  format: Format<WireFormatId>,
  answer: Pick<UpstreamAnswer, 'header'>,
): Format<WireFormatId> {
  if (!provider.decodeError) return format
  const decodeError = provider.decodeError.bind(provider)
  // A method of the answer (the Node transport's is a class): called on it, never detached.
  const header = (name: string) => answer.header(name)
  return Object.assign(Object.create(format) as Format<WireFormatId>, {
    decodeError: (status: number, body: unknown): ir.ErrorInfo =>
      decodeError(status, body, header) ?? format.decodeError(status, body),
  })
}
