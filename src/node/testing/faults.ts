/**
 * The faults a stand-in's scripted turn can carry (`ScriptTurn.fault`), each what a failing provider does to an answer:
 * - `drop`: the connection is closed before any byte; `hang`: nothing at all, the connection left open;
 * - `break`: half the answer's bytes, then the connection is cut; `reset-mid-event` / `reset-between-events`: a stream
 *   cut inside, or right after, the event at its middle (the events before it arrive whole);
 * - `stall`: the first half (a stream: its first half of events), then nothing more; `stall-after-headers`: the
 *   headers, then nothing; `trickle`: the whole answer in pieces of 64 bytes or more
 *   (at most 16), one every 8 ms;
 * - `malformed-json` / `malformed-sse`: a truncated JSON body / an event stream whose data is not JSON, with a 200;
 * - `wrong-content-type`: the valid answer labelled `text/html`; `error-200`: the format's error body with a 200;
 * - `html-error`: a proxy's 502 HTML page; `huge-body`: a 600 KiB JSON body sent chunked (no content-length).
 * A stalled, hung or trickling answer ends when the stand-in is closed.
 */
export type Fault =
  | 'break'
  | 'stall'
  | 'drop'
  | 'hang'
  | 'reset-mid-event'
  | 'reset-between-events'
  | 'stall-after-headers'
  | 'trickle'
  | 'malformed-json'
  | 'malformed-sse'
  | 'wrong-content-type'
  | 'error-200'
  | 'html-error'
  | 'huge-body'

/** Bytes of a `huge-body` answer. */
export const hugeBodyBytes = 600 * 1024

/** What the server does with an answer: a Response, or `drop` / `hang` (no answer at all). */
export type Answer = Response | 'drop' | 'hang'

const encoder = new TextEncoder()

/** Where a stream is cut: the end of its first half of events (`between`), and the middle of the next (`inside`). */
function cutPoints(text: string, sse: boolean): { between: number; inside: number } {
  if (!sse) return { between: text.length >> 1, inside: text.length >> 1 }
  const ends: number[] = []
  for (let at = text.indexOf('\n\n'); at >= 0; at = text.indexOf('\n\n', at + 2)) ends.push(at + 2)
  const between = ends[Math.max(0, Math.ceil(ends.length / 2) - 1)] ?? text.length >> 1
  const next = ends.find((end) => end > between) ?? text.length
  return { between, inside: (between + next) >> 1 }
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A body that sends `head`, then errors (`cut`: the connection is cut) or never ends (the server's close ends it). */
function partial(head: string, then: 'cut' | 'stall'): ReadableStream<Uint8Array> {
  let sent = head === ''
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true
        controller.enqueue(encoder.encode(head))
        return
      }
      // Cut once what came before has had time to leave (a cut at once can take unsent bytes with it).
      if (then === 'cut') return later(20).then(() => controller.error(new Error('scripted break')))
      return new Promise<void>(() => {})
    },
  })
}

function trickle(text: string): ReadableStream<Uint8Array> {
  const bytes = encoder.encode(text)
  // At most 16 pieces, so that a long answer still arrives well within a gateway's total timeout on a busy machine.
  const size = Math.max(64, Math.ceil(bytes.length / 16))
  let at = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (at > 0) await later(8)
      controller.enqueue(bytes.subarray(at, at + size))
      at += size
      if (at >= bytes.length) controller.close()
    },
  })
}

function huge(): ReadableStream<Uint8Array> {
  const piece = encoder.encode('x'.repeat(64 * 1024))
  let written = -1
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (written < 0) controller.enqueue(encoder.encode('{"pad":"'))
      else if (written < hugeBodyBytes) controller.enqueue(piece)
      else {
        controller.enqueue(encoder.encode('"}'))
        controller.close()
      }
      written = written < 0 ? 0 : written + piece.length
    },
  })
}

/** The `huge-body` answer's text, whole (what a reader of the full body gets). */
export function hugeBodyText(): string {
  return `{"pad":"${'x'.repeat(Math.ceil(hugeBodyBytes / (64 * 1024)) * 64 * 1024)}"}`
}

const html = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>'

/** The answers sent whole: status, content type and text (undefined: the fault cuts, stalls or drips the answer). */
function whole(
  text: string,
  contentType: string,
  fault: Fault | undefined,
  errorBody: string,
): [number, string, string] | undefined {
  switch (fault) {
    case undefined:
      return [200, contentType, text]
    case 'malformed-json':
      return [200, 'application/json', '{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"trunc']
    case 'malformed-sse':
      return [200, 'text/event-stream', 'data: {not json at all\n\ndata: [DONE]\n\n']
    case 'wrong-content-type':
      return [200, 'text/html; charset=utf-8', text]
    case 'error-200':
      return [200, 'application/json', errorBody]
    case 'html-error':
      return [502, 'text/html', html]
    default:
      return undefined
  }
}

/**
 * The answer `text` (of `contentType`) as `fault` delivers it (`errorBody`: the format's own error body, for
 * `error-200`), and what it sends when it sends a whole body (status and text).
 */
export function faultyAnswer(
  text: string,
  contentType: string,
  fault: Fault | undefined,
  errorBody: string,
): { answer: Answer; sent?: { status: number; text: string } } {
  const sentWhole = whole(text, contentType, fault, errorBody)
  if (sentWhole) {
    const [status, type, body] = sentWhole
    return { answer: new Response(body, { status, headers: { 'content-type': type } }), sent: { status, text: body } }
  }
  const headers = { 'content-type': contentType }
  const { between, inside } = cutPoints(text, contentType.includes('event-stream'))
  const respond = (body: ReadableStream<Uint8Array>) => ({ answer: new Response(body, { headers }) })
  switch (fault) {
    case 'drop':
    case 'hang':
      return { answer: fault }
    case 'break':
      return respond(partial(text.slice(0, Math.max(1, text.length >> 1)), 'cut'))
    case 'reset-mid-event':
      return respond(partial(text.slice(0, inside), 'cut'))
    case 'reset-between-events':
      return respond(partial(text.slice(0, between), 'cut'))
    case 'stall':
      return respond(partial(text.slice(0, Math.max(1, between)), 'stall'))
    case 'stall-after-headers':
      return respond(partial('', 'stall'))
    case 'trickle':
      return { answer: new Response(trickle(text), { headers }), sent: { status: 200, text } }
    default:
      return {
        answer: new Response(huge(), { headers: { 'content-type': 'application/json' } }),
        sent: { status: 200, text: hugeBodyText() },
      }
  }
}
