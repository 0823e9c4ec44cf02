/**
 * The service: the web console (sign-up with an e-mail code, API keys, models, usage) and the interlingua gateway on
 * one origin. Everything belongs to an account; keys, codes and sessions are stored only as hashes.
 */
import { Hono } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { secureHeaders } from 'hono/secure-headers'
import { createGateway, refuse } from 'interlingua/gateway'
import { codePage, css, icon, keysPage, messagePage, modelsPage, newKeyPage, signupPage, usagePage } from './pages.mjs'
import { emailKey, hmac, newApiKey, parseEmail, safeEqual, sha256, sixDigits, token } from './security.mjs'

const codeTtlMs = 10 * 60_000
const sessionTtlMs = 7 * 24 * 3_600_000
const maxAttempts = 5

/**
 * @param {{ db: any, mailer: { send: (to: string, code: string) => Promise<void>, logged: boolean },
 *   gatewayOptions: import('interlingua/gateway').GatewayOptions, models: Array<{id: string, format: string, supports: string}>,
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
  const keyLimit = config.keyRateLimit ?? 600

  /** Counts one hit in a rate-limit row (the window, in milliseconds, is parameter $2); returns count, window_start. */
  const countHit = `ON CONFLICT (bucket) DO UPDATE SET
         count = CASE WHEN rate_limits.window_start < now() - ($2 || ' milliseconds')::interval THEN 1 ELSE rate_limits.count + 1 END,
         window_start = CASE WHEN rate_limits.window_start < now() - ($2 || ' milliseconds')::interval THEN now() ELSE rate_limits.window_start END
       RETURNING count, window_start`
  /** 0 when the counted hit is within `max`, else the seconds until its window ends. */
  const wait = (row, max, windowMs) =>
    row.count <= max ? 0 : Math.max(1, Math.ceil((new Date(row.window_start).getTime() + windowMs - Date.now()) / 1000))
  /** A fixed one-minute (or `windowMs`) window counter in the database, shared by every instance. */
  async function limited(bucket, max, windowMs = 60_000) {
    const [row] = await db.query(
      `INSERT INTO rate_limits (bucket, window_start, count) VALUES ($1::text, now(), 1) ${countHit}`,
      [bucket, String(windowMs)],
    )
    return wait(row, max, windowMs)
  }

  // ── the gateway ───────────────────────────────────────────────────────────────────────────────────────────────
  /**
   * Joined into the per-request statement (key check + rate-limit hit): its transaction commits without waiting for
   * the WAL flush (`synchronous_commit = off` for it alone). A crash of the database server may lose the last fraction
   * of a second of rate-limit hits and `last_used_at`, never consistency; everything else commits as usual. Measured
   * in bench/run.mjs: about 1.5–2× the requests per second of the gateway on PostgreSQL with fsync on.
   */
  const asyncCommit = `(SELECT set_config('synchronous_commit', 'off', true)) AS async_commit`

  /**
   * Usage is counted in memory per (account, key, model, UTC day) and written in one multi-row upsert every
   * `usageFlushMs` (default 1 s), before this instance renders a usage page, and at `close()`. A failed write keeps
   * its counts for the next flush (added to what came in meanwhile) and is logged without them; a row the database
   * refuses for good (an integrity error, e.g. its key row gone) is dropped and logged (model, day, requests). Other
   * instances' usage shows up to `usageFlushMs` late; a process killed without `close()` loses at most that much.
   */
  const usageFlushMs = config.usageFlushMs ?? 1000
  let pending = new Map()
  /** One request's usage, added to its key's pending counts for the day (errors counted, tokens summed). */
  function record(caller, event) {
    const usage = event.usage ?? {}
    const day = new Date().toISOString().slice(0, 10)
    const model = event.model ?? 'unknown'
    const id = `${caller.id}\n${model}\n${day}`
    let row = pending.get(id)
    if (!row) {
      row = {
        accountId: caller.accountId,
        keyId: caller.id,
        model,
        day,
        requests: 0,
        errors: 0,
        input: 0,
        output: 0,
        cached: 0,
        reasoning: 0,
      }
      pending.set(id, row)
    }
    row.requests += 1
    row.errors += event.status >= 400 || event.error ? 1 : 0
    row.input += usage.inputTokens ?? 0
    row.output += usage.outputTokens ?? 0
    row.cached += usage.cachedInputTokens ?? 0
    row.reasoning += usage.reasoningTokens ?? 0
  }
  const upsertUsage = (rows) =>
    db.query(
      `INSERT INTO usage_daily (account_id, key_id, model, day, requests, errors, input_tokens, output_tokens, cached_tokens, reasoning_tokens)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::date[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[])
       ON CONFLICT (key_id, model, day) DO UPDATE SET requests = usage_daily.requests + excluded.requests, errors = usage_daily.errors + excluded.errors,
         input_tokens = usage_daily.input_tokens + excluded.input_tokens, output_tokens = usage_daily.output_tokens + excluded.output_tokens,
         cached_tokens = usage_daily.cached_tokens + excluded.cached_tokens, reasoning_tokens = usage_daily.reasoning_tokens + excluded.reasoning_tokens`,
      ['accountId', 'keyId', 'model', 'day', 'requests', 'errors', 'input', 'output', 'cached', 'reasoning'].map(
        (field) => rows.map((row) => (typeof row[field] === 'number' ? String(row[field]) : row[field])),
      ),
    )
  /** Puts counts that could not be written back into `pending`, added to any that came in meanwhile. */
  function keep(rows) {
    for (const row of rows) {
      const id = `${row.keyId}\n${row.model}\n${row.day}`
      const now = pending.get(id)
      if (!now) pending.set(id, row)
      else
        for (const field of ['requests', 'errors', 'input', 'output', 'cached', 'reasoning']) now[field] += row[field]
    }
  }
  const integrity = (error) => typeof error?.code === 'string' && error.code.startsWith('23')
  async function writeUsage() {
    if (pending.size === 0) return
    const rows = [...pending.values()]
    pending = new Map()
    try {
      await upsertUsage(rows)
    } catch (error) {
      if (!integrity(error)) {
        keep(rows)
        console.error(`[service] usage not written yet (${rows.length} row(s) kept for the next flush):`, error.message)
        return
      }
      // One row the database refuses for good must not hold back the others: write them one by one.
      for (const row of rows)
        await upsertUsage([row]).catch((rowError) => {
          if (!integrity(rowError)) return keep([row])
          console.error(
            `[service] usage dropped for model ${JSON.stringify(row.model)} on ${row.day} (${row.requests} request(s) of one key):`,
            rowError.message,
          )
        })
    }
  }
  let flushing = Promise.resolve()
  /** Writes every pending count (after any write under way); resolves when done, never rejects. */
  const flushUsage = () => {
    flushing = flushing.then(writeUsage).catch((error) => console.error('[service] usage flush failed:', error.message))
    return flushing
  }
  const timer = setInterval(flushUsage, usageFlushMs)
  timer.unref()

  const gateway = createGateway({
    ...config.gatewayOptions,
    /**
     * The key (from Bearer, x-api-key, x-goog-api-key or ?key=) → its caller: the key's row id, its account and its
     * model allow-list, which the gateway enforces (403) and applies to model listings. Unknown, revoked or expired
     * keys are 401; a key over its rate limit is a 429 with retry-after — each in the client's format.
     */
    async authenticate(presented) {
      if (!presented.startsWith('il-')) return false
      // One round trip, no cache: a revoked key is refused on its next request on every instance. The key's row
      // (valid only), its hit counted in its rate-limit window, `last_used_at` written at most once a minute.
      const [key] = await db.query(
        `WITH k AS (SELECT id, account_id, models, last_used_at FROM api_keys
           WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())),
         used AS (UPDATE api_keys SET last_used_at = now() FROM k
           WHERE api_keys.id = k.id AND (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute')),
         hit AS (INSERT INTO rate_limits (bucket, window_start, count) SELECT 'key:' || k.id, now(), 1 FROM k ${countHit})
         SELECT k.id, k.account_id, k.models, hit.count, hit.window_start FROM k, hit, ${asyncCommit}`,
        [sha256(presented), '60000'],
      )
      if (!key) return false
      const retryAfter = wait(key, keyLimit, 60_000)
      if (retryAfter) return refuse('rate-limit', { retryAfter, message: 'This key is over its rate limit' })
      return { id: key.id, accountId: key.account_id, ...(key.models?.length ? { models: key.models } : {}) }
    },
    // Once per request, when its answer (a stream included) has ended, with the caller and the usage.
    onResponse(event) {
      if (event.caller) record(event.caller, event)
    },
  })

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
  app.get('/static/style.css', (c) =>
    c.body(css, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=3600' }),
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

  const modelIds = config.models.map((m) => m.id)
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

  const listKeys = (accountId) =>
    db.query(
      'SELECT id, name, prefix, models, expires_at, revoked_at, last_used_at, created_at FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC',
      [accountId],
    )
  app.get('/keys', async (c) => {
    const account = c.get('account')
    return c.html(keysPage({ account, csrf: account.csrf, keys: await listKeys(account.id), models: modelIds }))
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
    const flash = async (text) =>
      c.html(
        keysPage({
          account,
          csrf: account.csrf,
          keys: await listKeys(account.id),
          models: modelIds,
          flash: { kind: 'error', text },
          values: { name, expires, models: models.join(', ') },
        }),
        400,
      )
    if (!name) return flash('A key needs a name.')
    if (expires && (!/^\d{4}-\d{2}-\d{2}$/.test(expires) || new Date(`${expires}T23:59:59Z`) < new Date()))
      return flash('The expiry must be a future date.')
    const key = newApiKey()
    await db.query(
      'INSERT INTO api_keys (account_id, name, prefix, key_hash, models, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [
        account.id,
        name,
        key.slice(0, 10),
        sha256(key),
        models.length ? models : null,
        expires ? `${expires}T23:59:59Z` : null,
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
    if (/^[0-9a-f-]{36}$/.test(id))
      await db.query(
        'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL',
        [id, account.id],
      )
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
    return c.html(usagePage({ account, csrf: account.csrf, rows, totals }))
  })

  // Everything the gateway serves (all four wire formats), on the same origin.
  for (const prefix of ['/v1/*', '/v1beta/*', '/v1alpha/*']) app.all(prefix, (c) => gateway.fetch(c.req.raw))

  return {
    fetch: app.fetch,
    codeTtlMs,
    /** Writes the pending usage counts now. */
    flushUsage,
    /** Stops the usage timer and writes what is pending: call it after the server closed, before the database. */
    async close() {
      clearInterval(timer)
      await flushUsage()
    },
  }
}
