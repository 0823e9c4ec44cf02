/** `gateway.fetch` called as the runtimes call it (a `Request`, then their own second argument) and as the global `fetch` is. */
import { describe, expect, it } from 'vitest'
import { createGateway } from '../src/gateway/create-gateway.js'
import { base, type Json } from './gateway-helpers.js'

const body = JSON.stringify({ model: 'mock', messages: [{ role: 'user', content: 'Say hello' }] })
const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body }

async function answerText(response: Response): Promise<string> {
  expect(response.status).toBe(200)
  const json: Json = await response.json()
  return json.choices[0].message.content
}

describe('gateway.fetch input', () => {
  const gateway = createGateway()

  it('takes a URL string and init, as the global fetch does', async () => {
    expect(await answerText(await gateway.fetch(`${base}/v1/chat/completions`, init))).toMatch(/\S/)
  })

  it('takes a URL object and init', async () => {
    expect(await answerText(await gateway.fetch(new URL('/v1/chat/completions', base), init))).toMatch(/\S/)
  })

  it('reads a bare path against localhost (as Hono app.request does)', async () => {
    expect(await answerText(await gateway.fetch('/v1/chat/completions', init))).toMatch(/\S/)
    const models = await gateway.fetch('/v1/models')
    expect(models.status).toBe(200)
    expect(((await models.json()) as Json).object).toBe('list')
  })

  it('with a Request, ignores the runtime second argument (Workers env, Bun server, Next context)', async () => {
    const fromRequest = await answerText(await gateway.fetch(new Request(`${base}/v1/chat/completions`, init)))
    const env = { method: 'GET', body: 'not json', headers: { authorization: 'x' } } as unknown as RequestInit
    const withEnv = await gateway.fetch(new Request(`${base}/v1/chat/completions`, init), env)
    expect(await answerText(withEnv)).toBe(fromRequest)
  })

  it('stays bound and answers a streamed request from a URL and init', async () => {
    const { fetch } = gateway
    const response = await fetch(`${base}/v1/chat/completions`, {
      ...init,
      body: JSON.stringify({ ...JSON.parse(body), stream: true }),
    })
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/)
    expect(await response.text()).toMatch(/data: \[DONE\]/)
  })

  it('a URL that does not parse rejects with a TypeError, as fetch does', async () => {
    await expect(gateway.fetch('not a url', init)).rejects.toThrow(TypeError)
  })
})
