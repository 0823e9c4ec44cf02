// Every gateway endpoint through one catch-all route handler (app router):
// /v1/chat/completions, /v1/messages, /v1/models, /v1beta/models/{model}:generateContent, …
import { createGateway } from 'interlingua/gateway'

const gateway = createGateway() // no upstreams: every model is the embedded mock; add `upstreams` for real ones

export const POST = gateway.fetch
export const GET = gateway.fetch
export const dynamic = 'force-dynamic'
