/**
 * The one upstream every gateway under comparison is put in front of: `interlingua/testing`'s strict stand-in of each
 * format (createStrictUpstream, one key for all), behind a thin front that adds what the stand-in does not serve and
 * the real service does — the model list and token counting — so that a gateway which forwards those requests is
 * judged on what it does with a real answer, not on a stand-in's 404.
 */
import { defaultModels } from '../../src/node/check/wire.js'
import {
  createStrictUpstream,
  type ScriptTurn,
  type StrictFormat,
  type StrictUpstream,
} from '../../src/node/testing/index.js'
import { reject } from '../../src/node/testing/strict-upstream.js'
import { type Running, serve } from '../../test/sdk/servers.js'

export const upstreamFormats: StrictFormat[] = ['chat-completions', 'responses', 'messages', 'content-generation']

/** The model each upstream format is asked for: the check's defaults (the `--model` of the peers that pass it on). */
export const upstreamModel: Record<StrictFormat, string> = defaultModels

export interface Upstream {
  format: StrictFormat
  /** The origin (no /v1). */
  url: string
  strict: StrictUpstream
  close(): Promise<void>
}

/** The answers of the real services to model listing and token counting, in each one's shape. */
function extra(format: StrictFormat, request: Request, path: string): Response | undefined {
  const model = upstreamModel[format]
  if (request.method === 'GET' && path === '/v1/models' && format === 'messages')
    return Response.json({
      data: [{ type: 'model', id: model, display_name: 'Claude Sonnet 4.5', created_at: '2025-09-29T00:00:00Z' }],
      has_more: false,
      first_id: model,
      last_id: model,
    })
  if (request.method === 'GET' && path === '/v1/models' && format !== 'content-generation')
    return Response.json({
      object: 'list',
      data: [{ id: model, object: 'model', created: 1721172741, owned_by: 'system' }],
    })
  if (request.method === 'GET' && /^\/v1(beta)?\/models$/.test(path) && format === 'content-generation')
    return Response.json({ models: [{ name: `models/${model}`, displayName: 'Gemini 2.5 Flash', version: '001' }] })
  if (request.method === 'POST' && path === '/v1/responses/input_tokens' && format === 'responses')
    return Response.json({ object: 'response.input_tokens', input_tokens: 12 })
  if (request.method === 'POST' && path === '/v1/messages/count_tokens' && format === 'messages')
    return Response.json({ input_tokens: 12 })
  if (
    request.method === 'POST' &&
    /^\/v1beta\/models\/[^/]+:countTokens$/.test(path) &&
    format === 'content-generation'
  )
    return Response.json({ totalTokens: 12 })
  return undefined
}

/**
 * Gemini's streamGenerateContent without `alt=sse` answers one JSON array of the chunks, written as `[{…}\n,\r\n{…}\n]` (the stand-in always speaks
 * SSE, which is what Google's SDK asks for; Portkey's Google provider asks without it).
 */
async function jsonArrayStream(response: Response): Promise<Response> {
  const text = await response.text()
  if (!response.ok)
    return new Response(text, { status: response.status, headers: { 'content-type': 'application/json' } })
  const chunks = text
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
  return new Response(`[${chunks.join('\n,\r\n')}\n]`, {
    headers: { 'content-type': 'application/json; charset=UTF-8' },
  })
}

/**
 * Requests that need a scripted answer, recognised by their body as `interlingua check` writes them (after any
 * gateway's translation): the parallel-calls prompt (both cities named) and the structured-output schema. The others
 * go to the unscripted stand-in, which answers a tool call when offered one, with reasoning (and its signature) when
 * thinking is on.
 */
const scripted: { name: string; matches: (text: string) => boolean; script: ScriptTurn[] }[] = [
  {
    name: 'parallel calls',
    matches: (text) => text.includes('Paris') && text.includes('Tokyo'),
    script: [
      {
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'get_weather', arguments: { city: 'Tokyo' } },
        ],
      },
    ],
  },
  {
    name: 'structured output',
    matches: (text) => /"temperature"\s*:\s*\{\s*"type"\s*:\s*"number"/i.test(text),
    script: [{ text: '{"city":"Paris","temperature":18}' }],
  },
]

export async function startUpstream(format: StrictFormat, apiKey: string): Promise<Upstream> {
  const strict = await createStrictUpstream({ format, apiKey })
  const others = await Promise.all(scripted.map((s) => createStrictUpstream({ format, apiKey, script: s.script })))
  const origin = (upstream: StrictUpstream) => new URL(upstream.baseURL).origin
  const front: Running = await serve(async (request) => {
    const url = new URL(request.url)
    const answer = extra(format, request, url.pathname)
    if (answer) return answer
    // The stand-in serves generation only: any other read is the service's 404.
    if (request.method !== 'POST') return reject(format, `No route for ${request.method} ${url.pathname}`, 404)
    const body = await request.text()
    const index = scripted.findIndex((s) => s.matches(body))
    const headers = new Headers(request.headers)
    headers.delete('host')
    headers.delete('content-length')
    const response = await fetch(origin(others[index] ?? strict) + url.pathname + url.search, {
      method: request.method,
      headers,
      body,
    })
    if (
      format === 'content-generation' &&
      url.pathname.endsWith(':streamGenerateContent') &&
      url.searchParams.get('alt') !== 'sse'
    )
      return jsonArrayStream(response)
    const out = new Headers(response.headers)
    out.delete('content-length')
    out.delete('content-encoding')
    out.delete('transfer-encoding')
    return new Response(response.body, { status: response.status, headers: out })
  })
  return {
    format,
    url: front.url,
    strict,
    close: async () => {
      await front.close()
      for (const upstream of [strict, ...others]) await upstream.close()
    },
  }
}
