/**
 * The service in-process over real HTTP on 127.0.0.1 (a random port), configured as `npm start` is with no upstream
 * (the embedded mock model), on a fresh test database of the given kind, with a real SMTP catcher receiving the codes.
 */
import { serve } from '@hono/node-server'
import { createService } from '../src/app.mjs'
import { loadConfig } from '../src/config.mjs'
import { openDatabase } from '../src/db.mjs'
import { createMailer } from '../src/mail.mjs'
import { startMailCatcher } from './support/client.mjs'
import { testDatabase } from './support/databases.mjs'

/** @param {'pglite' | 'postgres'} kind */
export async function startService(kind, { keyRateLimit = 1000 } = {}) {
  const mail = await startMailCatcher()
  const database = await testDatabase(kind)
  const db = await openDatabase(database.config)
  const mailer = await createMailer({ smtpUrl: mail.url, from: 'interlingua <no-reply@127.0.0.1>' })
  let service
  let base
  const server = await new Promise((resolve) => {
    const started = serve({ fetch: (request) => service.fetch(request), hostname: '127.0.0.1', port: 0 }, (info) => {
      base = `http://127.0.0.1:${info.port}`
      resolve(started)
    })
  })
  const config = loadConfig([], { HOST: '127.0.0.1' })
  service = await createService({
    db,
    mailer,
    gatewayOptions: config.gatewayOptions,
    models: config.models,
    publicUrl: base,
    keyRateLimit,
  })
  async function close() {
    await new Promise((resolve) => {
      server.close(resolve)
      server.closeAllConnections?.() // a browser keeps its connections open
    })
    await service.close()
    await mail.close()
    await db.close()
    await database.cleanup()
  }
  return { base, db, mail, close }
}
