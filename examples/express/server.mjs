// The interlingua gateway mounted under /llm in an Express 5 app, beside an ordinary route.
// Point the SDKs at http://127.0.0.1:PORT/llm/v1 (OpenAI) or http://127.0.0.1:PORT/llm (Anthropic, Gemini).
import express from 'express'
import { createGateway } from 'interlingua/gateway'
import { toNodeListener } from 'interlingua/node'

const gateway = createGateway() // no upstreams: every model is the embedded mock; add `upstreams` for real ones
const llm = toNodeListener(gateway) // the Node fast path: backpressure, a client disconnect aborts the upstream

const app = express()
app.use('/llm', (req, res) => llm(req, res)) // mount BEFORE any body parser: the gateway reads the raw body
app.use(express.json())
app.get('/health', (_req, res) => res.json({ ok: true }))

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
