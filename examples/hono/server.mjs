// The interlingua gateway inside a Hono app, served by @hono/node-server.
// Point the SDKs at http://127.0.0.1:PORT/v1 (OpenAI) or http://127.0.0.1:PORT (Anthropic, Gemini).
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { createGateway } from 'interlingua/gateway'

const gateway = createGateway() // no upstreams: every model is the embedded mock; add `upstreams` for real ones

const app = new Hono()
app.get('/health', (c) => c.json({ ok: true }))
app.all('/v1/*', (c) => gateway.fetch(c.req.raw)) // OpenAI + Anthropic + Gemini v1 routes
app.all('/v1beta/*', (c) => gateway.fetch(c.req.raw)) // Gemini v1beta routes

const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 3000) }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
