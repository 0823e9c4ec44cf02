/**
 * Media fetches bounded per request (issue 12): a request naming many large image URLs used to fetch them all at
 * once and without a total limit. Now: at most `maxCount` URLs, `concurrency` fetches in flight, `maxTotalBytes` in all
 * (charged as bytes arrive), and base64 produced incrementally (checked byte-exact across odd chunk boundaries).
 */
import { describe, expect, it } from 'vitest'
import { createMediaFetcher, inlineMedia } from '../src/gateway/media.js'
import type { MediaOptions } from '../src/gateway/options.js'
import type * as ir from '../src/ir/index.js'
import { type Json, post, stack } from './gateway-helpers.js'

/** A fetch serving `size` bytes per URL in chunks of `chunk`, recording the most fetches in flight at once. */
function countingFetch(size: number, chunk = 64 * 1024) {
  const state = { inFlight: 0, maxInFlight: 0, calls: 0, bytesServed: 0 }
  const fetch = (async () => {
    state.calls++
    state.inFlight++
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight)
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 1))
        if (sent >= size) {
          state.inFlight--
          controller.close()
          return
        }
        const n = Math.min(chunk, size - sent)
        sent += n
        state.bytesServed += n
        controller.enqueue(new Uint8Array(n).fill(7))
      },
      cancel() {
        state.inFlight--
      },
    })
    return new Response(body, { headers: { 'content-type': 'image/png' } })
  }) as typeof globalThis.fetch
  return { fetch, state }
}

function requestWithImages(count: number): ir.Request {
  const content: ir.Part[] = [{ type: 'text', text: 'look' }]
  for (let i = 0; i < count; i++)
    content.push({ type: 'image', source: { type: 'url', url: `https://img.example.com/${i}.png` } })
  return { model: 'm', messages: [{ role: 'user', content }] } as ir.Request
}

async function inline(count: number, size: number, options: MediaOptions = {}) {
  const { fetch, state } = countingFetch(size)
  const request = requestWithImages(count)
  const outcome = await inlineMedia(request, createMediaFetcher({ fetch, ...options })).then(
    () => undefined,
    (error: Error) => error,
  )
  return { request, state, outcome }
}

describe('inlineMedia limits', () => {
  it('fetches 24 URLs at most 4 at a time by default, and inlines every one', async () => {
    const { request, state, outcome } = await inline(24, 1000)
    expect(outcome).toBeUndefined()
    expect(state.calls).toBe(24)
    expect(state.maxInFlight).toBe(4)
    const parts = request.messages[0]?.content.slice(1) as ir.ImagePart[]
    expect(parts.every((part) => part.source.type === 'base64')).toBe(true)
  })

  it('honours a configured concurrency', async () => {
    const { state } = await inline(10, 1000, { concurrency: 2 })
    expect(state.maxInFlight).toBe(2)
  })

  it('refuses more than maxCount URLs before fetching any, naming the first one over', async () => {
    const { state, outcome } = await inline(33, 10)
    expect(outcome?.message).toBe('messages[0].content[33]: at most 32 media URLs are fetched per request')
    expect(state.calls).toBe(0)
  })

  it('stops at maxTotalBytes across concurrent fetches, charged as bytes arrive', async () => {
    const limit = 1024 * 1024
    const { state, outcome } = await inline(3, 600 * 1024, { maxTotalBytes: limit })
    expect(outcome?.message).toMatch(
      /^messages\[0\]\.content\[\d\]: the media of this request are larger than the total limit of 1048576 bytes$/,
    )
    // At most one chunk per fetch in flight past the limit is read before the refusal.
    expect(state.bytesServed).toBeLessThanOrEqual(limit + 3 * 64 * 1024)
  })

  it('produces the same base64 as a one-shot encode across odd chunk boundaries', async () => {
    const bytes = new Uint8Array(100_003)
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256
    const sizes = [1, 2, 7, 65_536, 5, 3]
    const fetch = (async () => {
      let at = 0
      let n = 0
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.length) return controller.close()
          const size = sizes[n++ % sizes.length] as number
          controller.enqueue(bytes.slice(at, at + size))
          at += size
        },
      })
      return new Response(body, { headers: { 'content-type': 'image/png' } })
    }) as typeof globalThis.fetch
    const fetched = await createMediaFetcher({ fetch })('https://img.example.com/a.png', 'p')
    expect(fetched.data).toBe(Buffer.from(bytes).toString('base64'))
  })
})

describe('through the gateway', () => {
  it('a chat-completions request naming 40 image URLs for a Gemini upstream is a native 400, nothing fetched', async () => {
    const { fetch, state } = countingFetch(10)
    const { gateway, calls } = stack({ media: { fetch } })
    const content: Json[] = [{ type: 'text', text: 'look' }]
    for (let i = 0; i < 40; i++)
      content.push({ type: 'image_url', image_url: { url: `https://img.example.com/${i}.png` } })
    const body = { model: 'via-content-generation', messages: [{ role: 'user', content }] }
    const response = await gateway.fetch(post('chat-completions', '/v1/chat/completions', body))
    expect(response.status).toBe(400)
    const error = (await response.json()).error
    expect(error).toMatchObject({ type: 'invalid_request_error', param: 'messages[0].content[33]' })
    expect(state.calls).toBe(0)
    expect(calls).toEqual([])
  })
})
