// interlingua's gateway served with toNodeListener. env: PORT, UPSTREAM (port), LIB_DIR (dist/ or src/), EXT (.js or .ts)
import { createServer } from 'node:http'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const dir = process.env.LIB_DIR
const ext = process.env.EXT ?? '.js'
const lib = await import(pathToFileURL(join(dir, `index${ext}`)).href)
// From src/ (development), the gateway may not be re-exported by index yet.
const createGateway =
  lib.createGateway ?? (await import(pathToFileURL(join(dir, `gateway/create-gateway${ext}`)).href)).createGateway
const { toNodeListener } = await import(pathToFileURL(join(dir, `node${ext}`)).href)

const upstream = `http://127.0.0.1:${process.env.UPSTREAM}`
// Served as the README says: toNodeListener(gateway) is the fast path (node:http upstream client by default).
const gateway = createGateway({
  upstreams: {
    openai: { format: 'chat-completions', baseURL: `${upstream}/v1`, apiKey: 'sk-bench-openai' },
    anthropic: { format: 'messages', baseURL: upstream, apiKey: 'sk-bench-anthropic' },
    gemini: { format: 'content-generation', baseURL: upstream, apiKey: 'bench-gemini' },
  },
  models: {
    'bench-cc': { upstream: 'openai', model: 'gpt-4o-mini' },
    'bench-msg': { upstream: 'anthropic', model: 'claude-sonnet-4-5' },
    'bench-gen': { upstream: 'gemini', model: 'gemini-2.5-flash' },
  },
})
createServer(toNodeListener(gateway)).listen(Number(process.env.PORT), '127.0.0.1')
