/**
 * The service in-process over real HTTP on 127.0.0.1 (a random port), configured as `npm start` is with no upstream
 * (the embedded mock model), on a fresh test database of the given kind, with a real SMTP catcher receiving the codes.
 */
import { createService } from '../src/app.mjs'
import { loadConfig } from '../src/config.mjs'
import { openDatabase } from '../src/db.mjs'
import { createMailer } from '../src/mail.mjs'
import { startMailCatcher } from './support/client.mjs'
import { testDatabase } from './support/databases.mjs'
import { listenService } from './support/processes.mjs'

/** @param {'pglite' | 'postgres'} kind */
export async function startService(kind, { keyRateLimit = 1000 } = {}) {
  const mail = await startMailCatcher()
  const database = await testDatabase(kind)
  const db = await openDatabase(database.config)
  const mailer = await createMailer({ smtpUrl: mail.url, from: 'interlingua <no-reply@127.0.0.1>' })
  let service
  const { server, base } = await listenService(() => service)
  const config = loadConfig([], { HOST: '127.0.0.1' })
  service = await createService({
    db,
    mailer,
    gatewayOptions: config.gatewayOptions,
    models: config.models,
    publicUrl: base,
    logLevel: 'warn', // the request log has its own test (ops.test.mjs)
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
