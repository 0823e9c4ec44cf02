// interlingua's gateway served with toNodeListener. env: PORT, UPSTREAM (port), LIB_DIR (dist/ or src/), EXT (.js or .ts)
import { existsSync } from 'node:fs'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { benchGatewayOptions, benchHooks } from './gateway-options.mjs'

const dir = process.env.LIB_DIR
const ext = process.env.EXT ?? '.js'
// The gateway is `interlingua/gateway` (dist/gateway.js); builds before the split exported it from the main entry.
const gatewayFile = join(dir, `gateway${ext}`)
const lib = existsSync(gatewayFile)
  ? await import(pathToFileURL(gatewayFile).href)
  : await import(pathToFileURL(join(dir, `index${ext}`)).href)
const { createGateway } = lib
const { toNodeListener, createNodeFetch } = await import(pathToFileURL(join(dir, `node${ext}`)).href)

const upstream = `http://127.0.0.1:${process.env.UPSTREAM}`
// toNodeListener(gateway.fetch) takes the fast path as toNodeListener(gateway) does (node:http upstreams by default),
// and older builds accept it too.
// BENCH_NODE_FETCH=1: the setup older builds needed (createNodeFetch injected), for before/after profiles.
// BENCH_HOOKS=1: the hooks a service uses (issue 22) — `authenticate` returning a caller, `onRequest`, `onResponse`
// reading the usage — each doing next to nothing, so what is measured is what the gateway spends to call them.
const bench = process.env.BENCH_HOOKS === '1' ? benchHooks() : undefined
const gateway = createGateway({
  ...(process.env.BENCH_NODE_FETCH === '1' && createNodeFetch ? { fetch: createNodeFetch() } : {}),
  ...benchGatewayOptions(upstream),
  ...bench?.hooks,
})
createServer(toNodeListener(gateway.fetch)).listen(Number(process.env.PORT), '127.0.0.1')
// A clean exit on SIGTERM, so `node --cpu-prof` writes its profile (bench/profile.ts).
process.on('SIGTERM', () => {
  if (bench && bench.tokens() === 0) console.error('BENCH_HOOKS: onResponse saw no usage')
  process.exit(0)
})
