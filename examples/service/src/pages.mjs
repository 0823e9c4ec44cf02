/** Server-rendered pages (hono/html escapes every interpolation). No front-end JavaScript anywhere. */
import { html, raw } from 'hono/html'

export const css = `
:root{--bg:#f6f7f9;--card:#fff;--ink:#14171f;--muted:#5b6472;--line:#e3e6eb;--accent:#3b5bdb;--accent-ink:#fff;--ok:#2b8a3e;--bad:#c92a2a}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--ink)}
header{background:#101522;color:#fff}header .bar{max-width:960px;margin:0 auto;padding:14px 20px;display:flex;gap:20px;align-items:center;flex-wrap:wrap}
header .brand{font-weight:700;letter-spacing:.2px;margin-right:auto;color:#fff;text-decoration:none}header nav a{color:#c9d1e4;text-decoration:none;margin-right:14px}
header nav a.on,header nav a:hover{color:#fff}header form{margin:0}header button{background:transparent;border:1px solid #3a4360;color:#c9d1e4;padding:5px 10px;border-radius:6px}
main{max-width:960px;margin:28px auto;padding:0 20px}h1{font-size:24px;margin:0 0 6px}p.lead{color:var(--muted);margin:0 0 22px}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:20px;margin-bottom:18px}
.narrow{max-width:440px;margin:48px auto}label{display:block;font-weight:600;margin:12px 0 6px}
input[type=text],input[type=email],input[type=date],input:not([type]){width:100%;padding:10px 12px;border:1px solid var(--line);border-radius:8px;font:inherit;background:#fff}
input[readonly]{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;background:#f1f3f7}
button,.button{display:inline-block;background:var(--accent);color:var(--accent-ink);border:0;border-radius:8px;padding:10px 16px;font:inherit;font-weight:600;cursor:pointer;text-decoration:none;margin-top:14px}
button.danger{background:transparent;color:var(--bad);border:1px solid #f0c4c4;padding:5px 10px;margin:0}
.note{color:var(--muted);font-size:13px}.flash{padding:10px 14px;border-radius:8px;margin-bottom:16px}.flash.error{background:#fff0f0;color:var(--bad);border:1px solid #f3c9c9}.flash.info{background:#eef3ff;border:1px solid #d3defc}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:10px 8px;border-bottom:1px solid var(--line);vertical-align:top}th{font-size:12px;text-transform:uppercase;letter-spacing:.5px;color:var(--muted)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px}pre{background:#0f1320;color:#e6e9f2;padding:14px;border-radius:8px;overflow:auto}
.badge{display:inline-block;padding:2px 8px;border-radius:999px;font-size:12px;font-weight:600}.badge.active{background:#e6f6ea;color:var(--ok)}.badge.revoked,.badge.expired{background:#fbeaea;color:var(--bad)}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:12px}@media (max-width:640px){.grid{grid-template-columns:1fr}table{font-size:13px}th:nth-child(n+4),td:nth-child(n+4){display:none}main{margin-top:18px}}
`

function layout({ title, account, active, csrf, flash }, body) {
  const link = (href, label) => html`<a href="${href}" class="${active === href ? 'on' : ''}">${label}</a>`
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · interlingua</title><link rel="stylesheet" href="/static/style.css"></head>
<body><header><div class="bar"><a class="brand" href="/">interlingua</a>
${
  account
    ? html`<nav>${link('/keys', 'API keys')}${link('/models', 'Models')}${link('/usage', 'Usage')}</nav>
<form method="post" action="/signout"><input type="hidden" name="csrf" value="${csrf}"><button type="submit">Sign out</button></form>`
    : ''
}
</div></header>
<main>${flash ? html`<div class="flash ${flash.kind}" role="status">${flash.text}</div>` : ''}${body}</main></body></html>`
}

export function signupPage({ csrf, mailLogged, flash }) {
  return layout(
    { title: 'Sign in', flash },
    html`<div class="card narrow"><h1>Sign in or sign up</h1>
<p class="lead">Enter your e-mail address. We send you a 6-digit code; no password needed.</p>
<form method="post" action="/signup"><input type="hidden" name="csrf" value="${csrf}">
<label for="email">E-mail</label><input id="email" type="email" name="email" autocomplete="email" required>
<button type="submit">Send me a code</button></form>
${mailLogged ? html`<p class="note">Development mode: no SMTP server is configured, so codes are written to the server log.</p>` : ''}</div>`,
  )
}

export function codePage({ csrf, email, flash }) {
  return layout(
    { title: 'Enter your code', flash },
    html`<div class="card narrow"><h1>Check your e-mail</h1>
<p class="lead">If <b>${email}</b> can receive mail, a 6-digit code is on its way. It is valid for 10 minutes.</p>
<form method="post" action="/signup/verify"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="email" value="${email}">
<label for="code">Code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
<button type="submit">Continue</button></form>
<p class="note"><a href="/signup">Use another address or send a new code</a></p></div>`,
  )
}

const status = (key) =>
  key.revoked_at ? 'revoked' : key.expires_at && new Date(key.expires_at) < new Date() ? 'expired' : 'active'
const date = (value) => (value ? new Date(value).toISOString().slice(0, 16).replace('T', ' ') : '—')

export function keysPage({ account, csrf, keys, models, flash }) {
  return layout(
    { title: 'API keys', account, active: '/keys', csrf, flash },
    html`<h1>API keys</h1><p class="lead">A key is the only proof of identity: keep it on your server, never in front-end code.</p>
<div class="card"><h2>Create a key</h2><form method="post" action="/keys"><input type="hidden" name="csrf" value="${csrf}">
<div class="grid"><div><label for="name">Name</label><input id="name" name="name" maxlength="80" required placeholder="e.g. production backend"></div>
<div><label for="expires">Expires (optional)</label><input id="expires" type="date" name="expires"></div></div>
<label for="models">Allowed models (optional, comma-separated; empty = all)</label><input id="models" name="models" placeholder="${models.slice(0, 2).join(', ')}">
<button type="submit">Create key</button></form></div>
<div class="card"><h2>Your keys</h2>${
      keys.length === 0
        ? html`<p class="note">No keys yet.</p>`
        : html`<table><thead><tr><th>Name</th><th>Key</th><th>Status</th><th>Created</th><th>Last used</th><th>Expires</th><th>Models</th><th></th></tr></thead><tbody>
${keys.map(
  (
    key,
  ) => html`<tr><td>${key.name}</td><td><code>${key.prefix}…</code></td><td><span class="badge ${status(key)}">${status(key)}</span></td>
<td>${date(key.created_at)}</td><td>${date(key.last_used_at)}</td><td>${date(key.expires_at)}</td><td>${key.models?.length ? key.models.join(', ') : 'all'}</td>
<td>${status(key) === 'active' ? html`<form method="post" action="/keys/${key.id}/revoke"><input type="hidden" name="csrf" value="${csrf}"><button class="danger" type="submit">Revoke</button></form>` : ''}</td></tr>`,
)}</tbody></table>`
    }</div>`,
  )
}

export function newKeyPage({ account, csrf, name, key, publicUrl }) {
  return layout(
    { title: 'Your new key', account, active: '/keys', csrf },
    html`<h1>Your new key “${name}”</h1><p class="lead">Copy it now: it is shown this once, and only its prefix afterwards.</p>
<div class="card"><label for="key">API key</label><input id="key" name="key" value="${key}" readonly>
<h3>OpenAI SDK</h3><pre>new OpenAI({ baseURL: '${publicUrl}/v1', apiKey: process.env.INTERLINGUA_KEY })</pre>
<h3>Anthropic SDK</h3><pre>new Anthropic({ baseURL: '${publicUrl}', apiKey: process.env.INTERLINGUA_KEY })</pre>
<h3>Google Gen AI SDK</h3><pre>new GoogleGenAI({ apiKey: process.env.INTERLINGUA_KEY, httpOptions: { baseUrl: '${publicUrl}' } })</pre>
<a class="button" href="/keys">Done</a></div>`,
  )
}

export function modelsPage({ account, csrf, models, publicUrl }) {
  return layout(
    { title: 'Models', account, active: '/models', csrf },
    html`<h1>Models</h1><p class="lead">Every model is reachable from all three official SDKs; the service translates.</p>
<div class="card"><table><thead><tr><th>Model</th><th>Upstream format</th><th>Supports</th></tr></thead><tbody>
${models.map((m) => html`<tr><td><code>${m.id}</code></td><td>${m.format}</td><td>${m.supports}</td></tr>`)}</tbody></table></div>
<div class="card"><h2>Base URLs</h2><table><tbody>
<tr><td>OpenAI SDK (chat completions, responses)</td><td><code>${publicUrl}/v1</code></td></tr>
<tr><td>Anthropic SDK</td><td><code>${publicUrl}</code></td></tr>
<tr><td>Google Gen AI SDK</td><td><code>${publicUrl}</code></td></tr></tbody></table></div>`,
  )
}

export function usagePage({ account, csrf, rows, totals }) {
  const n = (v) => Number(v ?? 0).toLocaleString('en-US')
  return layout(
    { title: 'Usage', account, active: '/usage', csrf },
    html`<h1>Usage</h1><p class="lead">The last 30 days, per key, model and day (streamed answers included).</p>
<div class="card grid"><div><b>${n(totals.requests)}</b> requests · <b>${n(totals.errors)}</b> errors</div>
<div><b>${n(totals.input_tokens)}</b> input · <b>${n(totals.output_tokens)}</b> output tokens</div></div>
<div class="card">${
      rows.length === 0
        ? html`<p class="note">No requests yet.</p>`
        : html`<table><thead><tr><th>Day</th><th>Key</th><th>Model</th><th>Requests</th><th>Errors</th><th>Input</th><th>Output</th><th>Cached</th><th>Reasoning</th></tr></thead><tbody>
${rows.map(
  (
    r,
  ) => html`<tr><td>${String(r.day instanceof Date ? r.day.toISOString() : r.day).slice(0, 10)}</td><td>${r.key_name}</td><td><code>${r.model}</code></td><td>${n(r.requests)}</td><td>${n(r.errors)}</td>
<td>${n(r.input_tokens)}</td><td>${n(r.output_tokens)}</td><td>${n(r.cached_tokens)}</td><td>${n(r.reasoning_tokens)}</td></tr>`,
)}</tbody></table>`
    }</div>`,
  )
}

export function messagePage({ title, text, account, csrf, link }) {
  return layout(
    { title, account, csrf },
    html`<div class="card narrow"><h1>${title}</h1><p>${text}</p>${link ? html`<a class="button" href="${link.href}">${link.label}</a>` : ''}</div>`,
  )
}

export { raw }
