/**
 * A user's CommonJS test of `interlingua/testing` from the built package (its `require` condition), written once for
 * Jest and for node:test: Jest provides `test` as a global, node:test is required otherwise. Run by
 * ../require-entry.test.ts from a folder whose node_modules/interlingua is this package.
 */
const assert = require('node:assert/strict')
const test = globalThis.test ?? require('node:test').test
const { createStrictUpstream } = require('interlingua/testing')
const { createGateway } = require('interlingua/gateway')

test('a chat-completions client through createGateway reaches a strict messages upstream', async () => {
  const upstream = await createStrictUpstream({ format: 'messages', script: [{ text: 'Hello from CommonJS.' }] })
  const gateway = createGateway({
    upstreams: { anthropic: { format: 'messages', baseURL: upstream.baseURL, apiKey: upstream.apiKey } },
    models: { fast: { upstream: 'anthropic', model: 'claude-x' } },
  })
  try {
    const answer = await gateway.fetch(
      new Request('http://gateway/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }),
      }),
    )
    assert.equal(answer.status, 200)
    assert.equal((await answer.json()).choices[0].message.content, 'Hello from CommonJS.')
    assert.equal(upstream.requests.length, 1)
    assert.equal(upstream.requests[0].headers['x-api-key'], upstream.apiKey)
    assert.equal(upstream.requests[0].body.max_tokens > 0, true)
  } finally {
    await upstream.close()
  }
})
