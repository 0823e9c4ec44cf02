/** A stand-in's answer body, whole or with a scripted fault: `break` (cut mid-way) or `stall` (stops sending). */
import type { ScriptTurn } from './strict-upstream.js'

export function answerBody(text: string, contentType: string, fault: ScriptTurn['fault']): Response {
  const headers = { 'content-type': contentType }
  if (fault !== 'break' && fault !== 'stall') return new Response(text, { headers })
  const bytes = new TextEncoder().encode(text)
  const half = bytes.subarray(0, Math.max(1, bytes.length >> 1))
  let sent = false
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true
        controller.enqueue(half)
        return
      }
      // stall: never answer the next pull (the server's close ends the connection); break: the connection is cut.
      if (fault === 'break') controller.error(new Error('scripted break'))
      else return new Promise<void>(() => {})
    },
  })
  return new Response(body, { headers })
}
