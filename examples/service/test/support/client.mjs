/**
 * What the service tests (and the benchmark) use to talk to a running service like a user: an SMTP catcher that
 * receives the sign-in codes, and a browser-like client (a cookie jar, same-origin form posts with the CSRF token).
 */
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** An SMTP server on 127.0.0.1 keeping every message; `url` is the service's SMTP_URL. */
export async function startMailCatcher() {
  const mails = []
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, done) {
      simpleParser(stream).then((mail) => {
        mails.push({ to: mail.to.text, text: mail.text })
        done()
      }, done)
    },
  })
  await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve))
  const port = smtp.server.address().port
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** The last code mailed to this address. */
    codeFor(email) {
      const mail = mails.findLast((m) => m.to.toLowerCase() === email.toLowerCase())
      if (!mail) throw new Error(`no mail to ${email}`)
      return /\b(\d{6})\b/.exec(mail.text)[1]
    },
    close: () => new Promise((resolve) => smtp.close(resolve)),
  }
}

/** A browser-like client of the service at `base`: a cookie jar, same-origin form posts. */
export function browser(base) {
  const jar = new Map()
  async function go(path, form) {
    const headers = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') }
    let body
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      headers.origin = base
      body = new URLSearchParams(form).toString()
    }
    const response = await fetch(base + path, { method: form ? 'POST' : 'GET', headers, body, redirect: 'manual' })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';')
      const [name, value] = pair.split('=')
      if (value === '') jar.delete(name)
      else jar.set(name, value)
    }
    return {
      status: response.status,
      location: response.headers.get('location'),
      html: await response.text(),
      headers: response.headers,
    }
  }
  const csrfOf = (html) => /name="csrf" value="([^"]+)"/.exec(html)?.[1]
  return { base, go, csrfOf, jar }
}

/** Asks for a code for `email` on the sign-up page; the page answered (200, or 429 when rate-limited). */
export async function requestCode(b, email) {
  const page = await b.go('/signup')
  return b.go('/signup', { csrf: b.csrfOf(page.html), email })
}

/** Signs `email` up (or in) through the forms, the code read from the catcher; throws unless it lands on /keys. */
export async function signUp(b, mail, email) {
  const sent = await requestCode(b, email)
  if (sent.status !== 200) throw new Error(`code request answered ${sent.status}`)
  const done = await b.go('/signup/verify', { csrf: b.csrfOf(sent.html), email, code: mail.codeFor(email) })
  if (done.status !== 302 || done.location !== '/keys')
    throw new Error(`sign-in answered ${done.status} → ${done.location}`)
  return b
}

/** Makes a key on the keys page; the full key shown once. */
export async function createKey(b, form = {}) {
  const keys = await b.go('/keys')
  const made = await b.go('/keys', { csrf: b.csrfOf(keys.html), name: 'test key', ...form })
  if (made.status !== 200) throw new Error(`key creation answered ${made.status}`)
  return /name="key" value="(il-[A-Za-z0-9_-]{32,})"/.exec(made.html)[1]
}

/** Revokes the key whose prefix the keys page shows (the first 10 characters of the key). */
export async function revokeKey(b, key) {
  const keys = await b.go('/keys')
  const prefix = key.slice(0, 10)
  const row = keys.html.split('<tr').find((r) => r.includes(prefix))
  const action = row && /action="(\/keys\/[0-9a-f-]{36}\/revoke)"/.exec(row)?.[1]
  if (!action) throw new Error(`no revoke form for ${prefix}… on /keys`)
  const done = await b.go(action, { csrf: b.csrfOf(keys.html) })
  if (done.status !== 302) throw new Error(`revoke answered ${done.status}`)
}
