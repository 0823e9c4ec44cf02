/** node:test using `interlingua/testing` (run by ./node-test.test.ts with `node --import tsx --test`). */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createStrictUpstream } from '../../src/node/testing/index.js'

test('a strict chat-completions upstream answers its script and refuses a bad body', async () => {
  const upstream = await createStrictUpstream({ format: 'chat-completions', script: [{ text: 'hi from node:test' }] })
  const post = (body: unknown) =>
    fetch(`${upstream.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${upstream.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const ok = await post({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
  assert.equal((await ok.json()).choices[0].message.content, 'hi from node:test')
  const bad = await post({ model: 'm', messages: 'hi' })
  assert.equal(bad.status, 400)
  assert.equal((await bad.json()).error.type, 'invalid_request_error')
  await upstream.close()
})
