/**
 * The console's activity routes: the request log (`/logs`) and the account page with "delete my account"
 * (`/account`, `POST /account/delete`). Mounted by src/app.mjs behind its session check, with its CSRF check.
 */
import { deleteCookie } from 'hono/cookie'
import { messagePage } from './pages.mjs'
import { accountPage, logsPage } from './pages-activity.mjs'
import { entryFields } from './request-log.mjs'
import { emailKey } from './security.mjs'

/**
 * The account's latest 100 requests, newest first, from the batches (src/request-log.mjs) without reading them all:
 * `recent` takes the latest batches by their last request until they hold 100 requests (at most 100 batches); every
 * request among the latest 100 started at or after the earliest start in those (`since`), so only batches whose last
 * request is that recent are unpacked (through the index on account and last request).
 */
const latestRequests = `WITH recent AS (
    SELECT first_at, requests, sum(requests) OVER (ORDER BY last_at DESC ROWS UNBOUNDED PRECEDING) AS upto
    FROM request_log_batches WHERE account_id = $1 ORDER BY last_at DESC LIMIT 100),
  since AS (SELECT min(first_at) AS at FROM recent WHERE upto - requests < 100)
  SELECT k.name AS key_name, r.* FROM request_log_batches b JOIN api_keys k ON k.id = b.key_id,
    LATERAL (SELECT ${entryFields}, x.n FROM json_array_elements(b.entries::json) WITH ORDINALITY AS x(e, n)) r
  WHERE b.account_id = $1 AND b.last_at >= (SELECT at FROM since)
  ORDER BY r.at DESC, b.id DESC, r.n DESC LIMIT 100`

export function mountActivity(app, { db, keys, flushUsage, requestLog, forged, refused }) {
  app.get('/logs', async (c) => {
    const account = c.get('account')
    await flushUsage() // this instance's latest requests are on the page at once
    const rows = await db.query(latestRequests, [account.id])
    return c.html(logsPage({ account, csrf: account.csrf, rows, retentionDays: requestLog.retentionDays }))
  })
  const accountView = async (c, flash, status = 200) => {
    const account = c.get('account')
    await flushUsage() // this instance's latest requests are counted
    const [counts] = await db.query(
      `SELECT (SELECT count(*)::int FROM api_keys WHERE account_id = $1) AS keys,
         (SELECT coalesce(sum(requests), 0)::int FROM usage_daily WHERE account_id = $1) AS requests`,
      [account.id],
    )
    return c.html(accountPage({ account, csrf: account.csrf, flash, counts }), status)
  }
  app.get('/account', (c) => accountView(c))
  /**
   * Deletes the account and all it owns (keys, usage, request log, sessions: foreign keys with ON DELETE CASCADE; its
   * pending sign-in code; its conversation state) once the address is typed. Its keys stop working on every instance
   * within a second (the database's notification).
   */
  app.post('/account/delete', async (c) => {
    const account = c.get('account')
    const form = await c.req.parseBody()
    if (forged(c, form, account.csrf)) return refused(c)
    if (
      String(form.confirm ?? '')
        .trim()
        .toLowerCase() !== account.email.toLowerCase()
    )
      return accountView(
        c,
        { kind: 'error', text: 'The address you typed is not this account’s. Nothing was deleted.' },
        400,
      )
    await flushUsage()
    const keyRows = await db.query('SELECT id FROM api_keys WHERE account_id = $1', [account.id])
    const scopes = keyRows.map((key) => `caller:${key.id}`)
    for (const table of ['stored_responses', 'stored_items', 'stored_reasoning'])
      await db.query(`DELETE FROM ${table} WHERE scope = ANY($1::text[])`, [scopes])
    await db.query('DELETE FROM login_codes WHERE email_key = $1', [emailKey(account.email)])
    await db.query('DELETE FROM accounts WHERE id = $1', [account.id])
    keys.forgetAccount(account.id)
    deleteCookie(c, 'sid', { path: '/' })
    return c.html(
      messagePage({
        title: 'Your account was deleted',
        text: 'The account, its keys, usage, request log and sessions are gone. You can sign up again at any time.',
        link: { href: '/signup', label: 'Back to sign-in' },
      }),
    )
  })
}
