/**
 * Answers judged with the official SDKs' own parsers: `openai` (chat-completions, Responses), `@anthropic-ai/sdk`
 * (messages) and `@google/genai` (content-generation), when installed beside interlingua — loaded on first use, never
 * required. The recorded answer (status, content type, bytes) is served again from 127.0.0.1 to the SDK, which parses
 * it as it would the service's: the JSON answer, or the stream through its own accumulator (`finalChatCompletion`,
 * `finalResponse`, `finalMessage`, Gemini's chunk parser). The result is reduced to a `Turn` for the checks; without
 * the SDK the library's own decoders make the same `Turn` (./turn.ts), and the report says which judged.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import type { Turn } from './turn.js'
import type { CheckFormat, Exchange } from './wire.js'

type Json = Record<string, unknown>
// biome-ignore lint/suspicious/noExplicitAny: an SDK module loaded by name, navigated as its docs describe
type Sdk = any

const packages: Record<CheckFormat, string> = {
  'chat-completions': 'openai',
  responses: 'openai',
  messages: '@anthropic-ai/sdk',
  'content-generation': '@google/genai',
}

/** Resolves as `import()` does from here (the built CommonJS copy has no import.meta: from the working directory). */
function resolver(): NodeJS.Require {
  try {
    return createRequire(import.meta.url)
  } catch {
    return createRequire(join(process.cwd(), 'index.js'))
  }
}

/** The version of an installed package, found from where it resolves (its `package.json` may not be exported). */
function versionOf(name: string): string {
  try {
    let dir = dirname(resolver().resolve(name))
    for (let i = 0; i < 6; i++, dir = dirname(dir)) {
      try {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
          name?: string
          version?: string
        }
        if (manifest.name === name) return manifest.version ?? '?'
      } catch {}
    }
  } catch {}
  return '?'
}

export interface SdkJudges {
  /** Who judges answers of `format`: `"openai 6.49.0"`, or undefined (the library's decoders). */
  name(format: CheckFormat): Promise<string | undefined>
  /** The answer as the SDK reads it, or why it could not read it. */
  turn(format: CheckFormat, exchange: Exchange, body: Json, stream: boolean): Promise<Turn | string>
  close(): Promise<void>
}

/** Loads each SDK once (`use: false`: none). */
export function createSdkJudges(use = true): SdkJudges {
  const modules = new Map<string, Promise<{ module: Sdk; label: string } | undefined>>()
  let server: Promise<{ server: Server; url: string }> | undefined
  let current: Exchange | undefined
  const load = (format: CheckFormat) => {
    const name = packages[format]
    let loading = modules.get(name)
    if (!loading) {
      loading = use
        ? import(/* @vite-ignore */ name).then(
            (module: Sdk) => ({ module, label: `${name} ${versionOf(name)}` }),
            () => undefined,
          )
        : Promise.resolve(undefined)
      modules.set(name, loading)
    }
    return loading
  }
  const replay = () => {
    server ??= new Promise((resolve, reject) => {
      const created = createServer((req, res) => {
        req.resume()
        req.on('end', () => {
          const exchange = current
          if (!exchange) return res.writeHead(500).end()
          res.writeHead(exchange.status, {
            'content-type': exchange.headers.get('content-type') ?? 'application/json',
          })
          res.end(exchange.text)
        })
      })
      created.once('error', reject)
      created.listen(0, '127.0.0.1', () =>
        resolve({ server: created, url: `http://127.0.0.1:${(created.address() as AddressInfo).port}` }),
      )
    })
    return server
  }
  return {
    name: async (format) => (await load(format))?.label,
    async turn(format, exchange, body, stream) {
      const sdk = await load(format)
      if (!sdk) return 'no SDK'
      const { url } = await replay()
      current = exchange
      try {
        return await read(format, sdk.module, url, body, stream)
      } catch (error) {
        return `${sdk.label} could not read the answer: ${(error as Error).message.slice(0, 200)}`
      } finally {
        current = undefined
      }
    },
    async close() {
      if (!server) return
      const { server: running } = await server
      running.closeAllConnections()
      await new Promise((done) => running.close(done))
    },
  }
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

async function read(format: CheckFormat, module: Sdk, url: string, sent: Json, stream: boolean): Promise<Turn> {
  const options = { apiKey: 'interlingua-check', maxRetries: 0 }
  // The SDK's request only reaches the replay; a neutral model keeps its deprecation notices quiet.
  const body = { ...sent, model: 'interlingua-check-replay' }
  if (format === 'chat-completions') {
    const client = new module.default({ ...options, baseURL: `${url}/v1` })
    const completion = stream
      ? await client.chat.completions.stream({ ...body, stream: true }).finalChatCompletion()
      : await client.chat.completions.create(body)
    const choice = completion.choices?.[0]
    const calls = (choice?.message?.tool_calls ?? []).map((call: Sdk) => ({
      id: call.id,
      name: call.function?.name,
      args: parse(call.function?.arguments),
    }))
    return { text: choice?.message?.content ?? '', calls, reasoning: [], signatures: [], finish: choice?.finish_reason }
  }
  if (format === 'responses') {
    const client = new module.default({ ...options, baseURL: `${url}/v1` })
    const response = stream
      ? await client.responses.stream({ ...body, stream: true }).finalResponse()
      : await client.responses.create(body)
    const output: Sdk[] = response.output ?? []
    return {
      text: response.output_text ?? '',
      calls: output
        .filter((item) => item.type === 'function_call')
        .map((item) => ({ id: item.call_id, name: item.name, args: parse(item.arguments) })),
      reasoning: output
        .filter((item) => item.type === 'reasoning')
        .map((item) => ({
          text: (item.summary ?? []).map((s: Sdk) => s.text).join(''),
        })),
      signatures: output.map((item) => item.encrypted_content).filter(Boolean),
      finish: response.status,
    }
  }
  if (format === 'messages') {
    const client = new module.default({ ...options, baseURL: url })
    const message = stream ? await client.messages.stream(body).finalMessage() : await client.messages.create(body)
    const content: Sdk[] = message.content ?? []
    return {
      text: content
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join(''),
      calls: content.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, name: b.name, args: b.input })),
      reasoning: content
        .filter((b) => b.type === 'thinking' || b.type === 'redacted_thinking')
        .map((b) => ({ text: b.thinking ?? '' })),
      signatures: content
        .map((b) => b.signature ?? (b.type === 'redacted_thinking' ? b.data : undefined))
        .filter(Boolean),
      finish: message.stop_reason,
    }
  }
  const client = new module.GoogleGenAI({ apiKey: 'interlingua-check', httpOptions: { baseUrl: url } })
  const request = { model: 'check', contents: 'replayed' }
  const chunks: Sdk[] = stream
    ? await (async () => {
        const out: Sdk[] = []
        for await (const chunk of await client.models.generateContentStream(request)) out.push(chunk)
        return out
      })()
    : [await client.models.generateContent(request)]
  const parts: Sdk[] = chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? [])
  const finish = chunks.map((chunk) => chunk.candidates?.[0]?.finishReason).findLast(Boolean)
  return {
    text: parts
      .filter((p) => typeof p.text === 'string' && !p.thought)
      .map((p) => p.text)
      .join(''),
    calls: parts
      .filter((p) => p.functionCall)
      .map((p) => ({ id: p.functionCall.id, name: p.functionCall.name, args: p.functionCall.args ?? {} })),
    reasoning: parts.filter((p) => p.thought === true).map((p) => ({ text: p.text ?? '' })),
    signatures: parts.map((p) => p.thoughtSignature).filter(Boolean),
    finish,
  }
}
