/**
 * Server-rendered pages (hono/html escapes every interpolation). No front-end JavaScript anywhere: the CSP has
 * `script-src 'none'`, the stylesheet is served from /static/style.css (`style-src 'self'`), and every table turns
 * into stacked cards on a phone.
 */
import { html, raw } from 'hono/html'

/** The mark in the header, as the tab icon (also answered at /favicon.ico, where browsers look unasked). */
export const icon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#818cf8"/><stop offset=".55" stop-color="#4f46e5"/><stop offset="1" stop-color="#22d3ee"/></linearGradient></defs><rect width="32" height="32" rx="9" fill="url(#g)"/></svg>`

export const css = `
:root{--bg:#f6f7fb;--card:#fff;--ink:#111827;--muted:#5f6b7d;--faint:#8a94a6;--line:#e4e7ee;--soft:#f1f3f8;
--accent:#4f46e5;--accent-dark:#4338ca;--accent-soft:#eef0ff;--ok:#137a3b;--ok-soft:#e5f6ec;--bad:#b42318;--bad-soft:#fdeceb;
--warn:#93560b;--warn-soft:#fff6e5;--code-bg:#0e1424;--code-ink:#e3e8f4;--radius:12px;
--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;background:var(--bg);color:var(--ink)}
a{color:var(--accent)}a:hover{color:var(--accent-dark)}
h1{font-size:26px;line-height:1.25;margin:0 0 6px;letter-spacing:-.01em}
h2{font-size:17px;margin:0 0 4px}h3{font-size:14px;margin:0}
p{margin:0 0 12px}
code,pre,kbd{font-family:var(--mono);font-size:13px}
:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}

/* header */
.top{background:#0d1222;color:#fff;border-bottom:1px solid #1d2540}
.top .bar{max-width:1040px;margin:0 auto;padding:0 24px;display:flex;align-items:center;gap:8px 28px;min-height:60px;flex-wrap:wrap}
.brand{display:flex;align-items:center;gap:10px;color:#fff;text-decoration:none;font-weight:700;font-size:16px;letter-spacing:.01em}
.brand:hover{color:#fff}
.mark{width:24px;height:24px;border-radius:7px;background:linear-gradient(135deg,#818cf8 0%,#4f46e5 55%,#22d3ee 100%);box-shadow:inset 0 0 0 1px rgba(255,255,255,.25)}
.brand small{font-weight:500;color:#8f9bc0;font-size:13px;padding-left:10px;border-left:1px solid #2c3552}
.top nav{display:flex;gap:4px;margin-right:auto}
.top nav a{color:#b8c1dc;text-decoration:none;padding:8px 12px;border-radius:8px;font-weight:500;white-space:nowrap}
.top nav a:hover{color:#fff;background:#1a2238}
.top nav a.on{color:#fff;background:#242d4a}
.top form{margin:0 0 0 auto}
.top .who{color:#8f9bc0;font-size:13px;margin-right:10px}
.top button{margin:0;background:transparent;border:1px solid #39425f;color:#d5dbec;padding:6px 12px;border-radius:8px;font-size:14px;font-weight:500}
.top button:hover{background:#1a2238;color:#fff}

/* page */
main{flex:1;width:100%;max-width:1040px;margin:0 auto;padding:32px 24px 48px}
.head{margin-bottom:22px}
.lead{color:var(--muted);margin:0;max-width:68ch}
.card{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:22px 24px;margin-bottom:20px;box-shadow:0 1px 2px rgba(16,24,40,.04)}
.card-head{display:flex;justify-content:space-between;align-items:baseline;gap:12px;margin-bottom:14px;flex-wrap:wrap}
.card-head p{color:var(--muted);margin:0;font-size:14px}
.count{color:var(--faint);font-weight:500;font-size:14px}
footer{color:var(--faint);font-size:13px;text-align:center;padding:18px 24px 28px}

/* forms */
label{display:block;font-weight:600;font-size:14px;margin:0 0 6px}
.hint{display:block;font-weight:400;color:var(--muted);font-size:13px;margin-top:6px}
.field{margin-bottom:16px}
input{width:100%;padding:10px 12px;border:1px solid #cfd5e1;border-radius:9px;font:inherit;color:var(--ink);background:#fff}
input:focus{outline:none;border-color:var(--accent);box-shadow:0 0 0 3px var(--accent-soft)}
input::placeholder{color:#a0a8b8}
.fields{display:grid;grid-template-columns:minmax(0,2fr) minmax(0,1fr) minmax(0,2fr);gap:0 16px}
button,.button{display:inline-flex;align-items:center;justify-content:center;gap:6px;background:var(--accent);color:#fff;border:0;border-radius:9px;padding:10px 18px;font:inherit;font-weight:600;cursor:pointer;text-decoration:none;line-height:1.3}
button:hover,.button:hover{background:var(--accent-dark);color:#fff}
.button.ghost{background:#fff;color:var(--ink);border:1px solid #cfd5e1}.button.ghost:hover{background:var(--soft)}
button.danger{background:#fff;color:var(--bad);border:1px solid #f1c4bf;padding:6px 12px;font-size:14px}
button.danger:hover{background:var(--bad-soft)}
.actions{display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin-top:4px}
.wide{width:100%}

/* sign-in */
.auth{max-width:440px;margin:24px auto 0}
.auth .card{padding:30px 30px 26px}
.steps{display:flex;gap:8px;margin:0 0 18px;padding:0;list-style:none;font-size:12px;font-weight:600;color:var(--faint);text-transform:uppercase;letter-spacing:.06em}
.steps li{flex:1;border-top:3px solid var(--line);padding-top:8px}
.steps li.on{border-color:var(--accent);color:var(--accent)}
.steps li.done{border-color:#a5b4fc;color:var(--muted)}
.auth h1{font-size:24px}
.auth .lead{margin-bottom:22px}
input.code{font-family:var(--mono);font-size:26px;letter-spacing:.45em;text-align:center;padding:12px 0 12px .45em}
.aside{color:var(--muted);font-size:13px;margin:18px 0 0;text-align:center}
.dev{background:var(--warn-soft);color:var(--warn);border-radius:9px;padding:10px 12px;font-size:13px;margin:18px 0 0}

/* banners */
.flash{display:flex;gap:10px;align-items:flex-start;padding:12px 14px;border-radius:10px;margin-bottom:18px;border:1px solid;font-size:14px}
.flash::before{flex:none;width:20px;height:20px;border-radius:50%;display:grid;place-items:center;font-weight:700;font-size:13px;line-height:1}
.flash.error{background:var(--bad-soft);border-color:#f4c7c2;color:var(--bad)}.flash.error::before{content:"!";background:var(--bad);color:#fff}
.flash.info{background:var(--accent-soft);border-color:#d4d8fd;color:#3730a3}.flash.info::before{content:"i";background:var(--accent);color:#fff}
.flash.ok{background:var(--ok-soft);border-color:#bfe6cd;color:var(--ok)}.flash.ok::before{content:"\\2713";background:var(--ok);color:#fff}

/* tables: rows on a laptop, stacked cards on a phone */
.table{width:100%;border-collapse:collapse;font-size:14px}
.table th,.table td{text-align:left;padding:11px 10px;border-bottom:1px solid var(--line);vertical-align:middle}
.table th{font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);background:var(--soft);border-bottom:0}
.table th:first-child{border-radius:8px 0 0 8px}.table th:last-child{border-radius:0 8px 8px 0}
.table tbody tr:last-child td{border-bottom:0}
.table td.num,.table th.num{text-align:right;font-variant-numeric:tabular-nums}
.table td.end{text-align:right}
.table td form{margin:0}
.row-actions{display:flex;gap:8px;justify-content:flex-end;align-items:flex-start;flex-wrap:wrap}
details.limits summary{cursor:pointer;color:var(--accent);font-size:14px;padding:6px 4px;list-style:none}
details.limits[open]{flex-basis:100%}
details.limits form{display:grid;gap:6px;text-align:left;margin:6px 0 4px;min-width:200px}
details.limits input{padding:6px 8px}
.table code{white-space:nowrap;background:var(--soft);padding:2px 6px;border-radius:6px}
.table .dim{color:var(--faint)}
.name{font-weight:600}
.badge{display:inline-flex;align-items:center;gap:6px;padding:2px 10px 2px 8px;border-radius:999px;font-size:12px;font-weight:600;white-space:nowrap}
.badge::before{content:"";width:7px;height:7px;border-radius:50%;background:currentColor}
.badge.active{background:var(--ok-soft);color:var(--ok)}
.badge.revoked{background:var(--bad-soft);color:var(--bad)}
.badge.expired{background:var(--warn-soft);color:var(--warn)}
.empty{text-align:center;border:1.5px dashed #d5dae5;border-radius:10px;padding:30px 20px;color:var(--muted)}
.empty b{display:block;color:var(--ink);font-size:15px;margin-bottom:4px}
.empty p{margin:0}

/* stats */
.stats{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:16px;margin:0 0 20px}
.stats>div{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:16px 18px}
.stats dt{font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.05em;color:var(--muted)}
.stats dd{margin:4px 0 0;font-size:26px;font-weight:700;font-variant-numeric:tabular-nums;letter-spacing:-.01em}

/* the one-time key and the snippets */
.secret{border:1px solid #f3d49b;background:linear-gradient(180deg,#fffaf0,#fff 70%)}
.secret .warn{display:flex;gap:10px;align-items:flex-start;color:var(--warn);font-weight:600;font-size:14px;margin-bottom:16px}
.secret .warn::before{content:"!";flex:none;width:20px;height:20px;border-radius:50%;background:#d97706;color:#fff;display:grid;place-items:center;font-size:13px}
input.key{font-family:var(--mono);font-size:15px;padding:13px 14px;background:#fff;border:1.5px solid #e7b96a;user-select:all}
.meta{display:flex;flex-wrap:wrap;gap:6px 20px;color:var(--muted);font-size:13px;margin:12px 0 18px}
.meta b{color:var(--ink);font-weight:600}
.snippets{display:grid;gap:16px}
.snippet{border:1px solid #1e2640;border-radius:10px;overflow:hidden;background:var(--code-bg)}
.snippet .label{display:flex;justify-content:space-between;gap:12px;padding:8px 14px;background:#161e33;color:#aeb8d6;font-size:12px;font-weight:600;letter-spacing:.03em}
.snippet .label span{color:#6f7aa0;font-weight:500;white-space:nowrap}
.snippet pre{margin:0;padding:14px;color:var(--code-ink);overflow-x:auto;line-height:1.6;user-select:all}
.urls{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:10px 24px;margin:0;font-size:14px}
.urls dt{color:var(--muted)}.urls dd{margin:0}
.urls code{background:var(--soft);padding:2px 6px;border-radius:6px;overflow-wrap:anywhere}

@media (max-width:820px){.fields{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}.fields .field:last-child{grid-column:1/-1}.stats{grid-template-columns:repeat(2,minmax(0,1fr))}}
@media (max-width:640px){
  .top .bar{padding:10px 16px 0;gap:6px 12px}
  .brand small{display:none}
  .top .who{display:none}
  .top nav{order:3;width:100%;margin:0 -12px;padding-bottom:6px;overflow-x:auto}
  .top nav{gap:0}.top nav a{padding:8px 9px;font-size:15px}
  main{padding:22px 16px 36px}
  h1{font-size:22px}
  .card{padding:18px 16px;border-radius:10px}
  .auth{margin-top:4px}.auth .card{padding:24px 20px 20px}
  .fields{grid-template-columns:minmax(0,1fr)}
  .actions .button,.actions button{flex:1}
  .stats{gap:10px}.stats>div{padding:12px 14px}.stats dd{font-size:21px}
  .table thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
  .table,.table tbody,.table tr,.table td{display:block;width:100%}
  .table tr{border:1px solid var(--line);border-radius:10px;padding:6px 14px;margin-bottom:12px}
  .table tbody tr:last-child{margin-bottom:0}
  .table td,.table tbody tr:last-child td{display:flex;justify-content:space-between;align-items:center;gap:16px;padding:7px 0;border-bottom:1px solid var(--soft);text-align:right}
  .table tbody tr td:last-child{border-bottom:0}
  .table td::before{content:attr(data-label);flex:none;text-align:left;font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.05em;color:var(--muted)}
  .table td.first{font-size:15px}
  .table td.end{justify-content:flex-end}.table td.end::before{content:none}
  .table td.end:empty{display:none}.table tr td:has(+ td.end:empty){border-bottom:0}
  .table td.end form{width:100%}.table td.end button{width:100%;padding:9px}
  .secret{padding:16px 12px}
  input.key{font-size:11px;padding:12px 8px;letter-spacing:0}
  .snippet pre{font-size:12px;white-space:pre-wrap;overflow-wrap:anywhere}
  .urls{grid-template-columns:minmax(0,1fr);gap:2px}.urls dd{margin-bottom:10px}
}
`

export function layout({ title, account, active, csrf, flash }, body) {
  const link = (href, label) =>
    html`<a href="${href}"${active === href ? raw(' class="on" aria-current="page"') : ''}>${label}</a>`
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · interlingua</title><link rel="icon" href="/static/icon.svg" type="image/svg+xml"><link rel="stylesheet" href="/static/style.css"></head>
<body><header class="top"><div class="bar"><a class="brand" href="/"><span class="mark" aria-hidden="true"></span>interlingua<small>console</small></a>
${
  account
    ? html`<nav aria-label="Console">${link('/keys', 'API keys')}${link('/models', 'Models')}${link('/usage', 'Usage')}${link('/logs', 'Logs')}${link('/account', 'Account')}</nav>
<form method="post" action="/signout"><input type="hidden" name="csrf" value="${csrf}"><span class="who">${account.email}</span><button type="submit">Sign out</button></form>`
    : ''
}
</div></header>
<main>${flash ? html`<div class="flash ${flash.kind}" role="status">${flash.text}</div>` : ''}${body}</main>
<footer>interlingua · one key for the OpenAI, Anthropic and Google Gen AI SDKs</footer></body></html>`
}

const steps = (at) =>
  html`<ol class="steps" aria-label="Sign-in steps"><li class="${at === 1 ? 'on' : 'done'}">1 · Your address</li><li class="${at === 2 ? 'on' : ''}">2 · The code</li></ol>`

export function signupPage({ csrf, mailLogged, flash }) {
  return layout(
    { title: 'Sign in', flash },
    html`<div class="auth"><div class="card">${steps(1)}<h1>Sign in or sign up</h1>
<p class="lead">Enter your e-mail address and we send you a 6-digit code. No password: the same form signs you in next time.</p>
<form method="post" action="/signup"><input type="hidden" name="csrf" value="${csrf}">
<div class="field"><label for="email">E-mail</label><input id="email" type="email" name="email" autocomplete="email" placeholder="you@company.com" required></div>
<button class="wide" type="submit">Send me a code</button></form>
${mailLogged ? html`<p class="dev">Development mode: no SMTP server is configured, so codes are written to the server log.</p>` : ''}</div>
<p class="aside">Keys, codes and sessions are stored only as hashes.</p></div>`,
  )
}

export function codePage({ csrf, email, flash }) {
  return layout(
    { title: 'Enter your code', flash },
    html`<div class="auth"><div class="card">${steps(2)}<h1>Check your e-mail</h1>
<p class="lead">If <b>${email}</b> can receive mail, a 6-digit code is on its way. It is valid for 10 minutes.</p>
<form method="post" action="/signup/verify"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="email" value="${email}">
<div class="field"><label for="code">Code</label><input id="code" class="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" placeholder="······" required></div>
<button class="wide" type="submit">Continue</button></form></div>
<p class="aside">No mail? Check the spam folder, or <a href="/signup">use another address or send a new code</a>.</p></div>`,
  )
}

const status = (key) =>
  key.revoked_at ? 'revoked' : key.expires_at && new Date(key.expires_at) < new Date() ? 'expired' : 'active'
const date = (value) => (value ? new Date(value).toISOString().slice(0, 16).replace('T', ' ') : undefined)
const when = (value, none = 'never') => date(value) ?? html`<span class="dim">${none}</span>`

/** A key's limits as shown: its own, or the instance default (dim). */
function limitText(own, fallback, unit, none) {
  if (own) return html`${own.toLocaleString('en')} ${unit}`
  return html`<span class="dim">${fallback ? `${fallback.toLocaleString('en')} ${unit}` : none}</span>`
}

function keyRow(key, csrf, defaults) {
  const state = status(key)
  return html`<tr><td class="first" data-label="Name"><span class="name">${key.name}</span></td><td data-label="Key"><code>${key.prefix}…</code></td>
<td data-label="Status"><span class="badge ${state}">${state}</span></td><td data-label="Created">${when(key.created_at)}</td>
<td data-label="Last used">${when(key.last_used_at)}</td><td data-label="Expires">${when(key.expires_at)}</td>
<td data-label="Models">${key.models?.length ? key.models.join(', ') : html`<span class="dim">all</span>`}</td>
<td data-label="Limits">${limitText(key.rpm_limit, defaults.rpm, 'req/min', 'no request limit')}<br>${limitText(key.tpm_limit, defaults.tpm, 'tokens/min', 'no token limit')}</td>
<td class="end">${
    state === 'active'
      ? html`<div class="row-actions"><details class="limits"><summary>Limits</summary><form method="post" action="/keys/${key.id}/limits"><input type="hidden" name="csrf" value="${csrf}">
<label for="rpm-${key.id}">Requests a minute</label><input id="rpm-${key.id}" name="rpm" type="number" min="1" max="100000000" placeholder="${defaults.rpm ?? ''}" value="${key.rpm_limit ?? ''}">
<label for="tpm-${key.id}">Tokens a minute</label><input id="tpm-${key.id}" name="tpm" type="number" min="1" max="2000000000" placeholder="${defaults.tpm ?? 'none'}" value="${key.tpm_limit ?? ''}">
<button type="submit">Save limits</button></form></details>
<form method="post" action="/keys/${key.id}/revoke"><input type="hidden" name="csrf" value="${csrf}"><button class="danger" type="submit">Revoke</button></form></div>`
      : ''
  }</td></tr>`
}

export function keysPage({ account, csrf, keys, models, flash, values = {}, defaults = {} }) {
  const active = keys.filter((key) => status(key) === 'active').length
  return layout(
    { title: 'API keys', account, active: '/keys', csrf, flash },
    html`<div class="head"><h1>API keys</h1><p class="lead">A key is the only proof of identity: keep it on your server, never in front-end code. Each key works with all three SDKs.</p></div>
<section class="card" aria-labelledby="create"><div class="card-head"><h2 id="create">Create a key</h2><p>The key is shown once, right after you create it.</p></div>
<form method="post" action="/keys"><input type="hidden" name="csrf" value="${csrf}">
<div class="fields"><div class="field"><label for="name">Name</label><input id="name" name="name" maxlength="80" required placeholder="e.g. staging server" value="${values.name ?? ''}"></div>
<div class="field"><label for="expires">Expires <span class="dim">(optional)</span></label><input id="expires" type="date" name="expires" value="${values.expires ?? ''}"></div>
<div class="field"><label for="models">Allowed models <span class="dim">(optional)</span></label><input id="models" name="models" placeholder="${models.slice(0, 2).join(', ')}" value="${values.models ?? ''}"><span class="hint">Comma-separated; empty allows every model.</span></div>
<div class="field"><label for="rpm">Requests a minute <span class="dim">(optional)</span></label><input id="rpm" name="rpm" type="number" min="1" max="100000000" placeholder="${defaults.rpm ?? ''}" value="${values.rpm ?? ''}"></div>
<div class="field"><label for="tpm">Tokens a minute <span class="dim">(optional)</span></label><input id="tpm" name="tpm" type="number" min="1" max="2000000000" placeholder="${defaults.tpm ?? 'no limit'}" value="${values.tpm ?? ''}"><span class="hint">Input and output tokens; empty: the service default.</span></div></div>
<div class="actions"><button type="submit">Create key</button></div></form></section>
<section class="card" aria-labelledby="yours"><div class="card-head"><h2 id="yours">Your keys</h2><span class="count">${keys.length ? `${active} active of ${keys.length}` : ''}</span></div>${
      keys.length === 0
        ? html`<div class="empty"><b>No keys yet</b><p>Create your first key above, then point an SDK at this service.</p></div>`
        : html`<table class="table"><thead><tr><th>Name</th><th>Key</th><th>Status</th><th>Created</th><th>Last used</th><th>Expires</th><th>Models</th><th>Limits</th><th><span class="dim">Action</span></th></tr></thead><tbody>
${keys.map((key) => keyRow(key, csrf, defaults))}</tbody></table>`
    }</section>`,
  )
}

function snippet(title, file, code) {
  return html`<div class="snippet"><div class="label">${title}<span>${file}</span></div><pre><code>${code}</code></pre></div>`
}

export function newKeyPage({ account, csrf, name, key, publicUrl, model = 'interlingua-mock' }) {
  return layout(
    { title: 'Your new key', account, active: '/keys', csrf },
    html`<div class="head"><h1>Your new key “${name}”</h1><p class="lead">Store it in your server’s secrets, for example as <code>INTERLINGUA_KEY</code>.</p></div>
<section class="card secret" aria-labelledby="keylabel"><p class="warn">Copy it now. It is shown this once; afterwards the console shows only its first characters.</p>
<label id="keylabel" for="key">API key</label><input id="key" class="key" name="key" value="${key}" readonly spellcheck="false" autocomplete="off">
<p class="meta"><span>Prefix <b><code>${key.slice(0, 10)}…</code></b></span><span>Base URL <b><code>${publicUrl}</code></b></span></p>
<div class="actions"><a class="button" href="/keys">I have copied it</a></div></section>
<section class="card" aria-labelledby="use"><div class="card-head"><h2 id="use">Use it</h2><p>Any of the official SDKs, pointed at this service.</p></div>
<div class="snippets">
${snippet(
  'OpenAI SDK',
  'Node.js · openai',
  `import OpenAI from 'openai'

const client = new OpenAI({
  baseURL: '${publicUrl}/v1',
  apiKey: process.env.INTERLINGUA_KEY,
})
const answer = await client.chat.completions.create({
  model: '${model}',
  messages: [{ role: 'user', content: 'Hello' }],
})`,
)}
${snippet(
  'Anthropic SDK',
  'Node.js · @anthropic-ai/sdk',
  `import Anthropic from '@anthropic-ai/sdk'

const client = new Anthropic({
  baseURL: '${publicUrl}',
  apiKey: process.env.INTERLINGUA_KEY,
})
const message = await client.messages.create({
  model: '${model}',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Hello' }],
})`,
)}
${snippet(
  'Google Gen AI SDK',
  'Node.js · @google/genai',
  `import { GoogleGenAI } from '@google/genai'

const ai = new GoogleGenAI({
  apiKey: process.env.INTERLINGUA_KEY,
  httpOptions: { baseUrl: '${publicUrl}' },
})
const answer = await ai.models.generateContent({
  model: '${model}',
  contents: 'Hello',
})`,
)}
${snippet(
  'HTTP',
  'curl',
  `curl ${publicUrl}/v1/chat/completions \\
  -H "Authorization: Bearer $INTERLINGUA_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"model":"${model}","messages":[{"role":"user","content":"Hello"}]}'`,
)}
</div></section>`,
  )
}

export function modelsPage({ account, csrf, models, publicUrl }) {
  return layout(
    { title: 'Models', account, active: '/models', csrf },
    html`<div class="head"><h1>Models</h1><p class="lead">Every model is reachable from all three official SDKs: the service translates between their formats.</p></div>
<section class="card" aria-labelledby="list"><div class="card-head"><h2 id="list">Available models</h2><span class="count">${models.length} model${models.length === 1 ? '' : 's'}</span></div>
<table class="table"><thead><tr><th>Model</th><th>Upstream format</th><th>Supports</th></tr></thead><tbody>
${models.map((m) => html`<tr><td class="first" data-label="Model"><code>${m.id}</code></td><td data-label="Upstream">${m.format}</td><td data-label="Supports">${m.supports}</td></tr>`)}</tbody></table></section>
<section class="card" aria-labelledby="urls"><div class="card-head"><h2 id="urls">Base URLs</h2><p>Set the SDK’s base URL and use your key as its API key.</p></div><dl class="urls">
<dt>OpenAI SDK (chat completions, responses)</dt><dd><code>${publicUrl}/v1</code></dd>
<dt>Anthropic SDK</dt><dd><code>${publicUrl}</code></dd>
<dt>Google Gen AI SDK</dt><dd><code>${publicUrl}</code></dd></dl></section>`,
  )
}

export function usagePage({ account, csrf, rows, totals, chart = '' }) {
  const n = (v) => Number(v ?? 0).toLocaleString('en-US')
  const stat = (label, value) => html`<div><dt>${label}</dt><dd>${n(value)}</dd></div>`
  return layout(
    { title: 'Usage', account, active: '/usage', csrf },
    html`<div class="head"><h1>Usage</h1><p class="lead">The last 30 days, per key, model and day. Streamed answers are counted when they end.</p></div>
<dl class="stats">${stat('Requests', totals.requests)}${stat('Errors', totals.errors)}${stat('Input tokens', totals.input_tokens)}${stat('Output tokens', totals.output_tokens)}</dl>
${chart}
<section class="card" aria-labelledby="daily"><div class="card-head"><h2 id="daily">By day</h2></div>${
      rows.length === 0
        ? html`<div class="empty"><b>No requests yet</b><p>Requests made with your keys show up here within seconds.</p></div>`
        : html`<table class="table"><thead><tr><th>Day</th><th>Key</th><th>Model</th><th class="num">Requests</th><th class="num">Errors</th><th class="num">Input</th><th class="num">Output</th><th class="num">Cached</th><th class="num">Reasoning</th></tr></thead><tbody>
${rows.map(
  (
    r,
  ) => html`<tr><td class="first" data-label="Day">${String(r.day instanceof Date ? r.day.toISOString() : r.day).slice(0, 10)}</td><td data-label="Key"><span class="name">${r.key_name}</span></td><td data-label="Model"><code>${r.model}</code></td>
<td class="num" data-label="Requests">${n(r.requests)}</td><td class="num" data-label="Errors">${n(r.errors)}</td><td class="num" data-label="Input">${n(r.input_tokens)}</td>
<td class="num" data-label="Output">${n(r.output_tokens)}</td><td class="num" data-label="Cached">${n(r.cached_tokens)}</td><td class="num" data-label="Reasoning">${n(r.reasoning_tokens)}</td></tr>`,
)}</tbody></table>`
    }</section>`,
  )
}

export function messagePage({ title, text, account, csrf, link }) {
  return layout(
    { title, account, csrf },
    html`<div class="auth"><div class="card"><h1>${title}</h1><p class="lead">${text}</p>${link ? html`<div class="actions"><a class="button" href="${link.href}">${link.label}</a></div>` : html`<div class="actions"><a class="button ghost" href="/">Back to the console</a></div>`}</div></div>`,
  )
}

export { raw }
