/**
 * Passthrough streams cut in the middle of an SSE event (issue 12): the in-stream error frame used to be appended to
 * the half-written event (`data: {"mod…data: {"error":…`), which no client can parse. Now the partial event is held
 * until complete and dropped when the upstream fails, so every event the client reads parses, and the last one is the
 * format's error frame.
 */
import { describe, expect, it } from 'vitest'
import { failingUpstream, formatIds, post, stack, wireRequest } from './gateway-helpers.js'

const complete = 'data: {"seq":1}\n\n'
const partial = 'data: {"seq":2,"text":"cut here'

/** Every event's data (the data lines joined), parsed as JSON; throws on a broken event. `[DONE]` is skipped. */
function events(text: string): unknown[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '' && !block.includes('[DONE]'))
    .map((block) => {
      const data = block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n')
      return JSON.parse(data)
    })
}

describe.each(formatIds)('%s passthrough stream', (format) => {
  it.each([
    ['LF', complete, partial],
    ['CRLF', complete.replace(/\n/g, '\r\n'), partial],
  ])('cut mid-event (%s): every event parses, the partial one is dropped, the error frame ends it', async (_, a, b) => {
    const { gateway } = stack({}, failingUpstream(a + b))
    const { path, body } = wireRequest(format, `via-${format}`, { stream: true })
    const response = await gateway.fetch(post(format, path, body))
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text.startsWith(a)).toBe(true)
    expect(text).not.toContain('cut here')
    const parsed = events(text)
    expect(parsed[0]).toEqual({ seq: 1 })
    expect(JSON.stringify(parsed.at(-1))).toContain('error')
  })

  it('a stream whose last event lacks the blank line is still relayed whole at a clean end', async () => {
    const tail = 'data: {"seq":3}'
    const { gateway } = stack(
      {},
      async () => new Response(complete + tail, { headers: { 'content-type': 'text/event-stream' } }),
    )
    const { path, body } = wireRequest(format, `via-${format}`, { stream: true })
    const response = await gateway.fetch(post(format, path, body))
    expect(await response.text()).toBe(complete + tail)
  })
})
