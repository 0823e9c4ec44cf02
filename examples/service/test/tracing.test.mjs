/**
 * OpenTelemetry: a service process started with OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP receiver on
 * 127.0.0.1 exports one span per API request, with the GenAI semantic-convention attributes — and never the key or
 * the prompt.
 */
import { createServer } from 'node:http'
import OpenAI from 'openai'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browser, createKey, signUp, startMailCatcher } from './support/client.mjs'
import { fastest, testDatabase } from './support/databases.mjs'
import { startService } from './support/processes.mjs'

let receiver, mail, database, service, base
const bodies = []

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk) => {
      text += chunk
    })
    req.on('end', () => {
      bodies.push({ path: req.url, type: req.headers['content-type'], text })
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{}')
    })
  })
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  mail = await startMailCatcher()
  database = await testDatabase(fastest())
  service = await startService({
    ...database.env,
    SMTP_URL: mail.url,
    MAIL_FROM: 'test@127.0.0.1',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.address().port}`,
    OTEL_BSP_SCHEDULE_DELAY: '100',
  })
  base = service.base
})
afterAll(async () => {
  await service?.stop()
  await mail?.close()
  await database?.cleanup()
  await new Promise((resolve) => receiver?.close(resolve))
})

it('one span per API request, with the GenAI attributes, exported over OTLP/HTTP', async () => {
  const key = await createKey(await signUp(browser(base), mail, 'otel@example.com'))
  const openai = new OpenAI({ apiKey: key, baseURL: `${base}/v1`, maxRetries: 0 })
  const answer = await openai.chat.completions.create({
    model: 'interlingua-mock',
    messages: [{ role: 'user', content: 'private prompt 51c2' }],
  })
  const spans = () =>
    bodies
      .filter((body) => body.path === '/v1/traces')
      .flatMap((body) => JSON.parse(body.text).resourceSpans)
      .flatMap((resource) =>
        resource.scopeSpans.flatMap((scope) =>
          scope.spans.map((span) => ({ ...span, service: resource.resource.attributes })),
        ),
      )
  await expect.poll(() => spans().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1)
  const [span] = spans()
  expect(bodies[0].type).toMatch(/json/)
  expect(span.name).toBe('chat interlingua-mock')
  expect(span.kind).toBe(2) // SERVER
  const attributes = Object.fromEntries(
    span.attributes.map(({ key, value }) => [key, value.stringValue ?? Number(value.intValue) ?? value.boolValue]),
  )
  expect(attributes).toMatchObject({
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': 'interlingua-mock',
    'gen_ai.provider.name': 'mock',
    'gen_ai.usage.input_tokens': answer.usage.prompt_tokens,
    'gen_ai.usage.output_tokens': answer.usage.completion_tokens,
    'http.response.status_code': 200,
    'interlingua.client.format': 'chat-completions',
  })
  expect(span.service).toContainEqual({ key: 'service.name', value: { stringValue: 'interlingua-service' } })
  const exported = bodies.map((body) => body.text).join('')
  expect(exported).not.toContain(key)
  expect(exported).not.toContain('private prompt')
})
