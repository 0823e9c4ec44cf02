// The interlingua service: `npm start` (HOST/PORT default 127.0.0.1:8788). See README.md for the environment.
import { createServer } from 'node:http'
import { createService } from './src/app.mjs'
import { loadConfig } from './src/config.mjs'
import { openDatabase } from './src/db.mjs'
import { createMailer } from './src/mail.mjs'
import { startTracing } from './src/tracing.mjs'

const started = Date.now()
const config = loadConfig()
const db = await openDatabase(config)
const mailer = await createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom })
const tracing = await startTracing() // only with OTEL_EXPORTER_OTLP_ENDPOINT
const service = await createService({
  db,
  mailer,
  gatewayOptions: config.gatewayOptions,
  models: config.models,
  publicUrl: config.publicUrl,
  keyRateLimit: config.keyRateLimit,
  keyTokenLimit: config.keyTokenLimit,
  usageFlushMs: config.usageFlushMs,
  metricsToken: config.metricsToken,
  logRetentionDays: config.logRetentionDays,
  tracing,
  logLevel: config.logLevel,
})
const server = createServer(service.listener)
server.keepAliveTimeout = 65_000
server.listen(config.port, config.host, () => {
  const info = server.address()
  for (const line of config.summary) console.log(`[service] ${line}`)
  console.log(
    `[service] database: ${db.kind}${db.kind === 'pglite' ? ` in ${config.dataDir}` : ''}; mail: ${mailer.logged ? 'written to this log (no SMTP_URL)' : 'SMTP'}`,
  )
  console.log(
    `[service] listening on http://${info.address}:${info.port} (public URL ${config.publicUrl}) in ${Date.now() - started} ms`,
  )
})
// Shutdown: no new connections, the answers under way finish (their usage counted), the pending usage is written,
// then the database closes.
let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  server.close(() =>
    service
      .close()
      .then(() => db.close())
      .then(() => process.exit(0)),
  )
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop)
