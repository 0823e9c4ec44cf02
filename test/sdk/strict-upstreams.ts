/**
 * Upstream stand-ins that are strict about reasoning continuity the way the real services are (wire-formats.md §5.5):
 * - messages: with thinking on, an assistant turn that holds a tool_use must start with a thinking (or
 *   redacted_thinking) block, and every thinking block's signature must be one this upstream issued for exactly that
 *   thinking text (an altered, foreign or empty signature is a 400) — thinking on or off;
 * - content-generation: the first functionCall of every model turn must carry a thoughtSignature this upstream issued
 *   (or Gemini's documented stand-in `skip_thought_signature_validator`); any other signature is a 400;
 * - chat-completions: no signatures exist (any valid history is accepted).
 * Turn 1 (no tool result yet) answers reasoning + a call to the first tool; later turns answer text. The answers are
 * written with the library's own encoders (JSON, or SSE when asked), so their wire shape is the format's own.
 */
import { randomBytes } from 'node:crypto'
import { getFormat } from '../../src/formats/index.js'
import type * as ir from '../../src/ir/index.js'
import { createResponseEventStream } from '../../src/stream/from-response.js'
import { encodeEventsWith } from '../../src/stream/pipeline.js'
import type { Json } from '../gateway-helpers.js'
import { type Running, serve } from './servers.js'

export interface StrictUpstream extends Running {
  /** Requests this upstream refused, with the reason. */
  rejections: string[]
  /** Bodies it received. */
  received: Json[]
}

type FormatId = 'chat-completions' | 'messages' | 'content-generation'

function formatOf(url: URL): FormatId {
  if (url.pathname.endsWith('/chat/completions')) return 'chat-completions'
  if (url.pathname.endsWith('/messages')) return 'messages'
  return 'content-generation'
}

function reject(format: FormatId, message: string): Response {
  const body =
    format === 'messages'
      ? { type: 'error', error: { type: 'invalid_request_error', message } }
      : format === 'content-generation'
        ? { error: { code: 400, message, status: 'INVALID_ARGUMENT' } }
        : { error: { message, type: 'invalid_request_error', param: null, code: null } }
  return Response.json(body, { status: 400 })
}

export async function startStrictUpstream(): Promise<StrictUpstream> {
  const anthropicSignatures = new Map<string, string>()
  const geminiSignatures = new Set<string>()
  const rejections: string[] = []
  const received: Json[] = []
  let turn = 0

  function checkMessages(body: Json): string | undefined {
    const thinkingOn = body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive'
    for (const [i, message] of (body.messages as Json[]).entries()) {
      if (message.role !== 'assistant' || typeof message.content === 'string') continue
      for (const [j, block] of (message.content as Json[]).entries()) {
        if (block.type === 'thinking' && anthropicSignatures.get(block.signature) !== block.thinking)
          return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`
        if (block.type === 'redacted_thinking')
          return `messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`
      }
      const first = (message.content as Json[])[0]
      const usesTool = (message.content as Json[]).some((block) => block.type === 'tool_use')
      if (thinkingOn && usesTool && first?.type !== 'thinking')
        return `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block`
    }
    return undefined
  }

  function checkGemini(body: Json): string | undefined {
    for (const [i, content] of (body.contents as Json[]).entries()) {
      if (content.role !== 'model') continue
      const parts = content.parts as Json[]
      for (const part of parts) {
        const signature = part.thoughtSignature
        if (
          signature !== undefined &&
          signature !== 'skip_thought_signature_validator' &&
          !geminiSignatures.has(signature)
        )
          return `Corrupted thought signature in contents[${i}]`
      }
      const firstCall = parts.find((part) => part.functionCall)
      if (firstCall && firstCall.thoughtSignature === undefined)
        return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly (contents[${i}])`
    }
    return undefined
  }

  function answer(format: FormatId, body: Json, model: string): ir.Response {
    const history = JSON.stringify(body.messages ?? body.contents)
    const toolTurn =
      /"tool_result"|"functionResponse"|"role":"tool"/.test(history) === false && (body.tools?.length ?? 0) > 0
    const id = `resp_${++turn}`
    const usage = { inputTokens: 20, outputTokens: 10 }
    if (!toolTurn) {
      return {
        id,
        model,
        content: [{ type: 'text', text: `Done after ${turn} turns.` }],
        finishReason: { unified: 'stop' },
        usage,
      }
    }
    const tool = body.tools[0]
    const name = tool.name ?? tool.function?.name ?? tool.functionDeclarations?.[0]?.name
    const thinking = `I should call ${name} (turn ${turn}).`
    const content: ir.AssistantPart[] = []
    const call: ir.ToolCallPart = {
      type: 'tool-call',
      id: `toolu_${randomBytes(6).toString('hex')}`,
      name,
      arguments: '{"city":"Paris"}',
    }
    if (format === 'messages') {
      const signature = `EqQB${randomBytes(48).toString('base64')}`
      anthropicSignatures.set(signature, thinking)
      content.push({ type: 'reasoning', text: thinking, providerData: { messages: { signature } } })
    } else if (format === 'content-generation') {
      const signature = `CiQB${randomBytes(48).toString('base64')}`
      geminiSignatures.add(signature)
      content.push({ type: 'reasoning', text: thinking })
      call.providerData = { 'content-generation': { thoughtSignature: signature } }
    }
    content.push(call)
    return { id, model, content, finishReason: { unified: 'tool-calls' }, usage }
  }

  const running = await serve(async (request) => {
    const url = new URL(request.url)
    const format = formatOf(url)
    const body = (await request.json()) as Json
    received.push(body)
    const problem =
      format === 'messages' ? checkMessages(body) : format === 'content-generation' ? checkGemini(body) : undefined
    if (problem) {
      rejections.push(problem)
      return reject(format, problem)
    }
    const model = body.model ?? url.pathname.split('/models/')[1]?.split(':')[0] ?? 'm'
    const response = answer(format, body, model)
    const target = getFormat(format)
    const stream = body.stream === true || url.pathname.includes(':streamGenerateContent')
    if (!stream) return Response.json(target.encodeResponse(response).value)
    const sse = encodeEventsWith(createResponseEventStream(response), target, { includeUsage: true })
    return new Response(sse, { headers: { 'content-type': 'text/event-stream' } })
  })
  return { ...running, rejections, received }
}
