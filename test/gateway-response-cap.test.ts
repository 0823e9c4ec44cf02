/**
 * A whole upstream answer read into memory is capped (issue 12): a huge non-streaming body used to be read whole.
 * Beyond `maxResponseBytes` the client gets a 502 in its own format, and the upstream body is not read further.
 */
import { describe, expect, it } from 'vitest'
import { formatIds, type Json, post, stack, wireRequest } from './gateway-helpers.js'

const chatAnswer = (text: string) => ({
  id: 'c1',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
})

/** A chat-completions upstream answering `text`, chunked (no content-length) or with one; counts bytes pulled. */
function upstream(text: string, chunked: boolean) {
  const state = { pulled: 0 }
  const bytes = new TextEncoder().encode(JSON.stringify(chatAnswer(text)))
  const handler = async () => {
    if (!chunked) return new Response(bytes, { headers: { 'content-type': 'application/json' } })
    let at = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close()
        const piece = bytes.subarray(at, at + 1024)
        at += piece.length
        state.pulled += piece.length
        controller.enqueue(piece)
      },
    })
    return new Response(body, { headers: { 'content-type': 'application/json' } })
  }
  return { handler, state }
}

describe.each(formatIds)('%s client, chat-completions upstream', (format) => {
  const kind = format === 'chat-completions' ? 'passthrough' : 'translated'

  it.each([true, false])(
    `${kind}: an answer over maxResponseBytes is a 502 in the client format (chunked: %s)`,
    async (chunked) => {
      const { handler, state } = upstream('x'.repeat(100_000), chunked)
      const { gateway } = stack({ maxResponseBytes: 10_000 }, handler)
      const { path, body } = wireRequest(format, 'via-chat-completions')
      const response = await gateway.fetch(post(format, path, body))
      expect(response.status).toBe(502)
      const error: Json = (await response.json()).error
      expect(error.message).toBe("The upstream's answer is larger than 10000 bytes")
      if (chunked) expect(state.pulled).toBeLessThanOrEqual(10_000 + 1024 * 2)
    },
  )

  it(`${kind}: an answer within the cap is served`, async () => {
    const { handler } = upstream('y'.repeat(5_000), true)
    const { gateway } = stack({ maxResponseBytes: 10_000 }, handler)
    const { path, body } = wireRequest(format, 'via-chat-completions')
    const response = await gateway.fetch(post(format, path, body))
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('y'.repeat(5_000))
  })
})
