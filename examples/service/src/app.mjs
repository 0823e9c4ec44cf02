/**
 * The service: the web console (sign-up with an e-mail code, API keys, models, usage) and the interlingua gateway on
 * one origin. Everything belongs to an account; keys, codes and sessions are stored only as hashes.
 */
import { Hono } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { secureHeaders } from 'hono/secure-headers'
import { mountActivity } from './console-activity.mjs'
import { createListener, createServiceGateway } from './gateway.mjs'
import { createKeyCache } from './keys.mjs'
import { createLimiter, parseLimit, signInLimiter } from './limits.mjs'
import { createOps } from './ops.mjs'
import { codePage, css, icon, keysPage, messagePage, modelsPage, newKeyPage, signupPage, usagePage } from './pages.mjs'
import { activityCss, usageChart } from './pages-activity.mjs'
import { createRequestLog } from './request-log.mjs'
import { emailKey, hmac, newApiKey, parseEmail, safeEqual, sha256, sixDigits, token } from './security.mjs'
import { createReasoningEntries, createResponseStore } from './stores.mjs'
import { createUsage, startCleanup } from './usage.mjs'

const codeTtlMs = 10 * 60_000
const sessionTtlMs = 7 * 24 * 3_600_000
const maxAttempts = 5

/**
 * @param {{ db: any, mailer: { send: (to: string, code: string) => Promise<void>, logged: boolean },
 *   gatewayOptions: import('interlingua/gateway').GatewayOptions, models: Array<{id: string, format: string, supports: string, pattern?: boolean}>,
 *   publicUrl: string, keyRateLimit?: number, usageFlushMs?: number }} config
 */
export async function createService(config) {
  const { db, mailer, publicUrl } = config
  const secure = publicUrl.startsWith('https:')
  const origin = new URL(publicUrl).origin
  await db.query(`INSERT INTO settings (name, value) VALUES ('code_secret', $1) ON CONFLICT (name) DO NOTHING`, [
    token(32),
  ])
  const [{ value: codeSecret }] = await db.query(`SELECT value FROM settings WHERE name = 'code_secret'`)

  const limited = signInLimiter(db)

  // ── the gateway: keys cached in memory, limits in leased blocks, usage in batches, state in the database ──────────
  const keys = createKeyCache(db, config.keyCache)
  const limiter = createLimiter(db, { defaultRpm: config.keyRateLimit ?? 600, defaultTpm: config.keyTokenLimit })
  const requestLog = createRequestLog(db, { retentionDays: config.logRetentionDays ?? 7 })
  const usage = createUsage(db, { usageFlushMs: config.usageFlushMs, requestLog })
  const cleanup = startCleanup(db, { retentionDays: requestLog.retentionDays })
  const ops = createOps({
    db,
    keys,
    limiter,
    metricsToken: config.metricsToken,
    logLevel: config.logLevel,
    write: config.logWrite,
    // The gateway below is made after ops (it observes through them): its `settle`, read when a scrape comes.
    settle: () => settle(),
    models: (config.models ?? []).filter((model) => !model.pattern).map((model) => model.id),
  })
  const { gateway, settle } = createServiceGateway({
    gatewayOptions: config.gatewayOptions,
    keys,
    limiter,
    usage,
    responseStore: createResponseStore(db),
    reasoningStore: { shared: createReasoningEntries(db) },
    // Metrics and logs; a span per request when tracing is on (src/tracing.mjs).
    observe: config.tracing
      ? {
          request: ops.observe.request,
          response(event, end) {
            ops.observe.response(event, end)
            config.tracing.response(event, end)
          },
          settled: ops.observe.settled,
        }
      : ops.observe,
  })
  /** The answers' bookkeeping done now (src/gateway.mjs), then the pending usage written. */
  const flushUsage = () => {
    settle()
    return usage.flush()
  }

  // ── the console ───────────────────────────────────────────────────────────────────────────────────────────────
  const app = new Hono()
  app.onError((error, c) => {
    console.error('[service] error:', error)
    return c.html(messagePage({ title: 'Something went wrong', text: 'Please try again.' }), 500)
  })
  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        styleSrc: ["'self'"],
        scriptSrc: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
      // Not the default `no-referrer`: under it browsers send `Origin: null` on form posts, and the CSRF check below
      // would refuse the site's own forms. `same-origin` still sends nothing to other sites.
      referrerPolicy: 'same-origin',
    }),
  )
  const stylesheet = css + activityCss
  app.get('/static/style.css', (c) =>
    c.body(stylesheet, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=3600' }),
  )
  for (const path of ['/static/icon.svg', '/favicon.ico'])
    app.get(path, (c) =>
      c.body(icon, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' }),
    )

  /** The signed-in account, with the session's CSRF token; or undefined. */
  async function session(c) {
    const sid = getCookie(c, 'sid')
    if (!sid) return undefined
    const rows = await db.query(
      `SELECT a.id, a.email, s.csrf FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.id_hash = $1 AND s.expires_at > now()`,
      [sha256(sid)],
    )
    return rows[0]
  }
  /** The anonymous CSRF token (double-submit cookie) for the sign-in forms. */
  function anonymousCsrf(c) {
    let value = getCookie(c, 'csrf')
    if (!value) {
      value = token(18)
      setCookie(c, 'csrf', value, { httpOnly: true, sameSite: 'Lax', secure, path: '/' })
    }
    return value
  }
  /** Every state-changing form: same-origin `Origin` (or `Referer`) and the right CSRF token. */
  function forged(c, form, expected) {
    const from =
      c.req.header('origin') ?? (c.req.header('referer') ? new URL(c.req.header('referer')).origin : undefined)
    return from !== origin || !expected || !safeEqual(form.csrf ?? '', expected)
  }
  const refused = (c) =>
    c.html(
      messagePage({
        title: 'Request refused',
        text: 'This form was not sent from this site. Reload the page and try again.',
      }),
      403,
    )
  const ip = (c) =>
    c.req.header('x-forwarded-for')?.split(',')[0]?.trim() || c.env?.incoming?.socket?.remoteAddress || 'unknown'

  app.get('/', async (c) => c.redirect((await session(c)) ? '/keys' : '/signup'))
  app.get('/signup', (c) => c.html(signupPage({ csrf: anonymousCsrf(c), mailLogged: mailer.logged })))
  app.post('/signup', async (c) => {
    const form = await c.req.parseBody()
    if (forged(c, form, getCookie(c, 'csrf'))) return refused(c)
    const csrf = anonymousCsrf(c)
    const email = parseEmail(form.email)
    if (!email)
      return c.html(
        signupPage({
          csrf,
          mailLogged: mailer.logged,
          flash: { kind: 'error', text: 'Please enter a valid e-mail address.' },
        }),
        400,
      )
    const key = emailKey(email)
    const wait = (await limited(`send:${key}`, 3, 10 * 60_000)) || (await limited(`send-ip:${ip(c)}`, 20, 10 * 60_000))
    if (wait)
      return c.html(
        signupPage({
          csrf,
          mailLogged: mailer.logged,
          flash: { kind: 'error', text: `Too many codes requested. Try again in ${Math.ceil(wait / 60)} minute(s).` },
        }),
        429,
      )
    const code = sixDigits()
    await db.query(
      `INSERT INTO login_codes (email_key, email, code_hash, expires_at, attempts) VALUES ($1, $2, $3, now() + interval '10 minutes', 0)
       ON CONFLICT (email_key) DO UPDATE SET email = excluded.email, code_hash = excluded.code_hash, expires_at = excluded.expires_at, attempts = 0`,
      [key, email, hmac(codeSecret, `${key}:${code}`)],
    )
    try {
      await mailer.send(email, code)
    } catch (error) {
      console.error('[service] mail not sent:', error.message)
      return c.html(
        signupPage({
          csrf,
          mailLogged: mailer.logged,
          flash: { kind: 'error', text: 'We could not send the e-mail right now. Please try again in a few minutes.' },
        }),
        502,
      )
    }
    return c.html(codePage({ csrf, email }))
  })
  app.post('/signup/verify', async (c) => {
    const form = await c.req.parseBody()
    if (forged(c, form, getCookie(c, 'csrf'))) return refused(c)
    const csrf = anonymousCsrf(c)
    const email = parseEmail(form.email)
    const code = String(form.code ?? '').trim()
    if (!email) return c.redirect('/signup')
    const key = emailKey(email)
    const wait = await limited(`verify-ip:${ip(c)}`, 30, 10 * 60_000)
    if (wait)
      return c.html(
        codePage({
          csrf,
          email,
          flash: { kind: 'error', text: 'Too many attempts from this network. Try again later.' },
        }),
        429,
      )
    const [row] = await db.query(
      `UPDATE login_codes SET attempts = attempts + 1 WHERE email_key = $1 RETURNING code_hash, attempts, expires_at > now() AS fresh`,
      [key],
    )
    const fail = (text) => c.html(codePage({ csrf, email, flash: { kind: 'error', text } }), 400)
    if (!row?.fresh || row.attempts > maxAttempts) {
      return c.html(
        signupPage({
          csrf,
          mailLogged: mailer.logged,
          flash: { kind: 'error', text: 'This code has expired or was tried too often. Request a new one.' },
        }),
        400,
      )
    }
    if (!safeEqual(row.code_hash, hmac(codeSecret, `${key}:${code}`)))
      return fail(`That code is not right. ${maxAttempts - row.attempts} attempt(s) left.`)
    await db.query('DELETE FROM login_codes WHERE email_key = $1', [key])
    const [account] = await db.query(
      `INSERT INTO accounts (email, email_key) VALUES ($1, $2) ON CONFLICT (email_key) DO UPDATE SET email_key = excluded.email_key RETURNING id`,
      [email, key],
    )
    const sid = token(32)
    await db.query(
      `INSERT INTO sessions (id_hash, account_id, csrf, expires_at) VALUES ($1, $2, $3, now() + interval '7 days')`,
      [sha256(sid), account.id, token(18)],
    )
    setCookie(c, 'sid', sid, { httpOnly: true, sameSite: 'Lax', secure, path: '/', maxAge: sessionTtlMs / 1000 })
    return c.redirect('/keys')
  })
  app.post('/signout', async (c) => {
    const account = await session(c)
    const form = await c.req.parseBody()
    if (!account || forged(c, form, account.csrf)) return refused(c)
    await db.query('DELETE FROM sessions WHERE id_hash = $1', [sha256(getCookie(c, 'sid'))])
    deleteCookie(c, 'sid', { path: '/' })
    return c.redirect('/signup')
  })

  // Ids for the key form's example and the new key's snippets: concrete ones first (a cloud's `bedrock/<modelId>` is a
  // pattern, shown on the models page).
  const concrete = config.models.filter((m) => !m.pattern)
  const modelIds = (concrete.length ? concrete : config.models).map((m) => m.id)
  const defaults = { rpm: config.keyRateLimit ?? 600, tpm: config.keyTokenLimit }
  async function signedIn(c, next) {
    const account = await session(c)
    if (!account) return c.redirect('/signup')
    c.set('account', account)
    return next()
  }
  app.use('/keys', signedIn)
  app.use('/keys/*', signedIn)
  app.use('/models', signedIn)
  app.use('/usage', signedIn)
  app.use('/logs', signedIn)
  app.use('/account', signedIn)
  app.use('/account/*', signedIn)

  const listKeys = (accountId) =>
    db.query(
      'SELECT id, name, prefix, models, expires_at, revoked_at, last_used_at, created_at, rpm_limit, tpm_limit FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC',
      [accountId],
    )
  app.get('/keys', async (c) => {
    const account = c.get('account')
    return c.html(
      keysPage({ account, csrf: account.csrf, keys: await listKeys(account.id), models: modelIds, defaults }),
    )
  })
  app.post('/keys', async (c) => {
    const account = c.get('account')
    const form = await c.req.parseBody()
    if (forged(c, form, account.csrf)) return refused(c)
    const name = String(form.name ?? '')
      .trim()
      .slice(0, 80)
    const models = String(form.models ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean)
    const expires = String(form.expires ?? '').trim()
    const rpm = parseLimit(form.rpm, 100_000_000)
    const tpm = parseLimit(form.tpm, 2_000_000_000)
    const flash = async (text) =>
      c.html(
        keysPage({
          account,
          csrf: account.csrf,
          keys: await listKeys(account.id),
          models: modelIds,
          flash: { kind: 'error', text },
          values: { name, expires, models: models.join(', '), rpm: form.rpm ?? '', tpm: form.tpm ?? '' },
          defaults,
        }),
        400,
      )
    if (!name) return flash('A key needs a name.')
    if (expires && (!/^\d{4}-\d{2}-\d{2}$/.test(expires) || new Date(`${expires}T23:59:59Z`) < new Date()))
      return flash('The expiry must be a future date.')
    if (rpm === false || tpm === false) return flash('A limit must be a whole number above zero (or empty).')
    const key = newApiKey()
    await db.query(
      'INSERT INTO api_keys (account_id, name, prefix, key_hash, models, expires_at, rpm_limit, tpm_limit) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [
        account.id,
        name,
        key.slice(0, 10),
        sha256(key),
        models.length ? models : null,
        expires ? `${expires}T23:59:59Z` : null,
        rpm,
        tpm,
      ],
    )
    c.header('cache-control', 'no-store')
    return c.html(newKeyPage({ account, csrf: account.csrf, name, key, publicUrl, model: models[0] ?? modelIds[0] }))
  })
  app.post('/keys/:id/revoke', async (c) => {
    const account = c.get('account')
    const form = await c.req.parseBody()
    if (forged(c, form, account.csrf)) return refused(c)
    const id = c.req.param('id')
    if (/^[0-9a-f-]{36}$/.test(id)) {
      await db.query(
        'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL',
        [id, account.id],
      )
      keys.forgetKey(id) // here at once; the other instances when the database's notification reaches them
    }
    return c.redirect('/keys')
  })
  app.post('/keys/:id/limits', async (c) => {
    const account = c.get('account')
    const form = await c.req.parseBody()
    if (forged(c, form, account.csrf)) return refused(c)
    const id = c.req.param('id')
    const rpm = parseLimit(form.rpm, 100_000_000)
    const tpm = parseLimit(form.tpm, 2_000_000_000)
    if (rpm === false || tpm === false)
      return c.html(
        keysPage({
          account,
          csrf: account.csrf,
          keys: await listKeys(account.id),
          models: modelIds,
          defaults,
          flash: { kind: 'error', text: 'A limit must be a whole number above zero (or empty).' },
        }),
        400,
      )
    if (/^[0-9a-f-]{36}$/.test(id)) {
      await db.query(
        'UPDATE api_keys SET rpm_limit = $3, tpm_limit = $4 WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL',
        [id, account.id, rpm, tpm],
      )
      keys.forgetKey(id)
    }
    return c.redirect('/keys')
  })
  app.get('/models', (c) => {
    const account = c.get('account')
    return c.html(modelsPage({ account, csrf: account.csrf, models: config.models, publicUrl }))
  })
  app.get('/usage', async (c) => {
    const account = c.get('account')
    await flushUsage() // this instance's latest calls are on the page at once
    const rows = await db.query(
      `SELECT u.day, k.name AS key_name, u.model, u.requests, u.errors, u.input_tokens, u.output_tokens, u.cached_tokens, u.reasoning_tokens
       FROM usage_daily u JOIN api_keys k ON k.id = u.key_id WHERE u.account_id = $1 AND u.day > current_date - 30 ORDER BY u.day DESC, k.name, u.model LIMIT 500`,
      [account.id],
    )
    const [totals] = await db.query(
      `SELECT coalesce(sum(requests),0) AS requests, coalesce(sum(errors),0) AS errors, coalesce(sum(input_tokens),0) AS input_tokens, coalesce(sum(output_tokens),0) AS output_tokens
       FROM usage_daily WHERE account_id = $1 AND day > current_date - 30`,
      [account.id],
    )
    const days = await db.query(
      `SELECT day, sum(input_tokens + output_tokens) AS tokens, sum(requests) AS requests FROM usage_daily
       WHERE account_id = $1 AND day > current_date - 30 GROUP BY day`,
      [account.id],
    )
    return c.html(usagePage({ account, csrf: account.csrf, rows, totals, chart: usageChart(days) }))
  })
  mountActivity(app, { db, keys, flushUsage, requestLog, forged, refused })

  // Everything the gateway serves (all four wire formats), on the same origin — for `fetch` callers; the Node
  // listener sends these paths to the gateway's fast path without going through Hono.
  for (const prefix of ['/v1/*', '/v1beta/*', '/v1alpha/*']) app.all(prefix, (c) => gateway.fetch(c.req.raw))

  return {
    fetch: app.fetch,
    /** The `node:http` listener: the API on the library's Node fast path, the console on Hono. */
    listener: createListener({ gateway, console: app, ops }),
    codeTtlMs,
    keys,
    limiter,
    /** Writes the pending usage counts now. */
    flushUsage,
    /** Stops the timers, gives unused rate-limit allowances back, writes the pending usage, stops listening. */
    async close() {
      settle()
      cleanup.stop()
      await limiter.close()
      await usage.close()
      await keys.close()
      await ops.close()
      await config.tracing?.shutdown()
    },
  }
}
