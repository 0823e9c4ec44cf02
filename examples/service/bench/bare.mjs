// The baseline for bench/run.mjs: the library's gateway alone (createGateway, the same configuration as the service,
// the embedded mock model), mounted the same way on a Hono app served by @hono/node-server, one static key
// (BENCH_KEY, checked in memory) — the service minus its database, console and per-key accounting.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { createGateway } from 'interlingua/gateway'
import { loadConfig } from '../src/config.mjs'

const config = loadConfig()
const gateway = createGateway({ ...config.gatewayOptions, apiKeys: [process.env.BENCH_KEY] })
const app = new Hono()
for (const prefix of ['/v1/*', '/v1beta/*', '/v1alpha/*']) app.all(prefix, (c) => gateway.fetch(c.req.raw))
serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info) =>
  console.log(`[bare] listening on http://${info.address}:${info.port}`),
)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0))
