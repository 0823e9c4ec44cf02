/**
 * Bedrock's binary event stream (`application/vnd.amazon.eventstream`) → the upstream format's SSE bytes, as a push
 * step. Each frame is `prelude (total length, headers length, prelude CRC32) · headers · payload · message CRC32`;
 * frames are cut here by their total length and decoded (CRCs checked) by the official codec of the AWS SDKs
 * (`EventStreamCodec`, `@smithy/core/event-streams`), loaded with this file only when a Bedrock upstream is called.
 *
 * - `messages` (invoke-with-response-stream): each `chunk` event's payload is `{"bytes": base64(<one Anthropic stream
 *   event JSON>)}` → `event: <its type>` / `data: <the JSON>`, exactly what Anthropic's API streams.
 * - `converse` (converse-stream): each event → `event: <:event-type>` / `data: <payload>` (the converse codec's input).
 * - An exception frame (`:message-type: exception`, `:exception-type: throttlingException`…, payload `{"message"}`) or
 *   an error frame (`:message-type: error`, `:error-code`, `:error-message`) → the format's in-stream error event
 *   (messages: `event: error` with the Anthropic error type of Bedrock's status, so a throttling becomes a
 *   `rate_limit_error`, 429; converse: `event: <exception type>`); nothing is forwarded after it. The step's `failure`
 *   holds it (`first`: nothing came before it), so that the gateway answers a stream whose first frame is an exception
 *   with an HTTP error of the client's format (429, 400…), and one that failed later with its in-stream error.
 * - A frame that does not decode (CRC mismatch, bad length) or a stream cut inside a frame → an upstream error event.
 */
import { EventStreamCodec, type Message } from '@smithy/core/event-streams'
import { exceptionError, exceptionName } from '../../formats/converse/errors.js'
import { encodeError as encodeMessagesError } from '../../formats/messages/errors.js'
import type * as ir from '../../ir/index.js'
import type { FramingStep } from '../provider.js'

const utf8 = new TextDecoder()
const encoder = new TextEncoder()
const codec = new EventStreamCodec(
  (bytes) => utf8.decode(bytes),
  (text) => encoder.encode(text),
)

/** Bedrock's own limit on one frame is far below this: a larger length is a broken stream, not a frame to wait for. */
const maxFrameBytes = 16 * 1024 * 1024

function header(message: Message, name: string): string | undefined {
  const value = message.headers[name]
  return value && typeof value.value === 'string' ? value.value : undefined
}

/** The first `"type":"…"` of an Anthropic event's JSON (the API writes it first), else a parse. */
function anthropicType(json: string): string | undefined {
  const quick = /^\s*\{\s*"type"\s*:\s*"([a-z_]+)"/.exec(json)
  if (quick) return quick[1]
  try {
    const parsed = JSON.parse(json) as { type?: unknown }
    return typeof parsed?.type === 'string' ? parsed.type : undefined
  } catch {
    return undefined
  }
}

function base64Text(base64: string): string {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return utf8.decode(bytes)
}

const sse = (event: string, data: string) => encoder.encode(`event: ${event}\ndata: ${data}\n\n`)

/** The in-stream error event of the upstream format for an IR error. */
function errorFrame(format: 'messages' | 'converse', error: ir.ErrorInfo): Uint8Array {
  if (format === 'messages') return sse('error', JSON.stringify(encodeMessagesError(error).body))
  return sse(error.vendorType ?? 'internalServerException', JSON.stringify({ message: error.message }))
}

function streamFailure(message: string): ir.ErrorInfo {
  return { code: 'upstream', status: 502, message, rawFormat: 'converse' }
}

/** One Bedrock frame → SSE bytes of the format, or an IR error (the stream stops there). */
function translate(format: 'messages' | 'converse', message: Message): Uint8Array | ir.ErrorInfo {
  const type = header(message, ':message-type') ?? 'event'
  const payload = utf8.decode(message.body)
  if (type === 'exception' || type === 'error') {
    const name = exceptionName(header(message, type === 'error' ? ':error-code' : ':exception-type'))
    let text = header(message, ':error-message')
    if (text === undefined) {
      try {
        const parsed = JSON.parse(payload) as { message?: unknown }
        if (typeof parsed?.message === 'string') text = parsed.message
      } catch {}
    }
    return exceptionError(name, undefined, text ?? `Bedrock ${name ?? 'error'}`)
  }
  const event = header(message, ':event-type') ?? ''
  if (format === 'converse') return sse(event, payload)
  if (event !== 'chunk') return new Uint8Array(0)
  let json: string
  try {
    const bytes = (JSON.parse(payload) as { bytes?: unknown }).bytes
    if (typeof bytes !== 'string') return streamFailure('Bedrock stream: a chunk without bytes')
    json = base64Text(bytes)
  } catch {
    return streamFailure('Bedrock stream: a chunk that is not base64 JSON')
  }
  return sse(anthropicType(json) ?? 'message', json)
}

/** The step: Bedrock frames in, the format's SSE bytes out (fresh state per stream). */
export function eventStreamStep(format: 'messages' | 'converse'): FramingStep {
  let buffer: Uint8Array = new Uint8Array(0)
  let done = false
  let emitted = false
  const fail = (out: Uint8Array[], error: ir.ErrorInfo) => {
    done = true
    buffer = new Uint8Array(0)
    step.failure = { error, first: !emitted }
    out.push(errorFrame(format, error))
  }
  const step: FramingStep = {
    push(chunk, out) {
      if (done) return
      if (buffer.length === 0) buffer = chunk
      else {
        const joined = new Uint8Array(buffer.length + chunk.length)
        joined.set(buffer)
        joined.set(chunk, buffer.length)
        buffer = joined
      }
      let at = 0
      while (buffer.length - at >= 12) {
        const view = new DataView(buffer.buffer, buffer.byteOffset + at, 4)
        const length = view.getUint32(0, false)
        if (length < 16 || length > maxFrameBytes)
          return fail(out, streamFailure('Bedrock stream: a frame of impossible length'))
        if (buffer.length - at < length) break
        let message: Message
        try {
          message = codec.decode(buffer.subarray(at, at + length))
        } catch {
          return fail(out, streamFailure('Bedrock stream: a frame failed its checksum'))
        }
        at += length
        const translated = translate(format, message)
        if (translated instanceof Uint8Array) {
          if (translated.length > 0) {
            out.push(translated)
            emitted = true
          }
        } else return fail(out, translated)
      }
      buffer = at === 0 ? buffer : buffer.slice(at)
    },
    end(out) {
      if (!done && buffer.length > 0) fail(out, streamFailure('Bedrock stream: the upstream ended inside a frame'))
    },
  }
  return step
}
