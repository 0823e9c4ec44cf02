/**
 * The activity pages: the request log (`/logs`), the usage chart drawn on `/usage` (an inline, server-rendered SVG:
 * the CSP keeps `script-src 'none'`), and the account page with "delete my account". Same layout and escaping as
 * src/pages.mjs.
 */
import { html, raw } from 'hono/html'
import { layout } from './pages.mjs'

const n = (v) => Number(v ?? 0).toLocaleString('en-US')
const ms = (v) => (v === null || v === undefined ? html`<span class="dim">—</span>` : `${n(Math.round(v))} ms`)
/** "1 API key", "2 API keys", "no API keys". */
const count = (v, one, many = `${one}s`) => (v === 0 ? `no ${many}` : `${n(v)} ${v === 1 ? one : many}`)
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** "Nov 27" for a UTC day "2026-11-27". */
const shortDay = (day) => `${months[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}`
/** "Nov 27, 12:03:21" (UTC). */
const time = (v) => {
  const iso = (v instanceof Date ? v : new Date(v)).toISOString()
  return `${shortDay(iso)}, ${iso.slice(11, 19)}`
}
/** The client's wire format as people call it. */
const clients = {
  'chat-completions': 'OpenAI Chat',
  responses: 'OpenAI Responses',
  messages: 'Anthropic Messages',
  'content-generation': 'Gemini',
}

export function logsPage({ account, csrf, rows, retentionDays }) {
  return layout(
    { title: 'Request log', account, active: '/logs', csrf },
    html`<div class="head"><h1>Request log</h1><p class="lead">Your last ${rows.length === 100 ? '100 ' : ''}requests, newest first (UTC), kept for ${retentionDays} days. Prompts and answers are never stored.</p></div>
<section class="card" aria-labelledby="recent"><div class="card-head"><h2 id="recent">Recent requests</h2></div>${
      rows.length === 0
        ? html`<div class="empty"><b>No requests yet</b><p>Requests made with your keys show up here within seconds.</p></div>`
        : html`<table class="table log"><thead><tr><th>Time</th><th>Key</th><th>Model</th><th>Client</th><th>Upstream</th><th class="num">Status</th><th class="num">Latency</th><th class="num" title="Streamed answers: time to the first byte">First byte</th><th class="num">Tokens in / out</th></tr></thead><tbody>
${rows.map(
  (
    r,
  ) => html`<tr><td class="first" data-label="Time"><time datetime="${new Date(r.at).toISOString()}">${time(r.at)}</time></td><td data-label="Key"><span class="name">${r.key_name}</span></td><td data-label="Model"><code>${r.model}</code></td>
<td data-label="Client" title="${r.format}">${clients[r.format] ?? r.format}${r.stream ? html` <span class="tag">stream</span>` : ''}</td><td data-label="Upstream">${r.upstream ?? html`<span class="dim">—</span>`}</td>
<td class="num" data-label="Status"><span class="badge ${r.status < 400 ? 'active' : 'revoked'}">${r.status}</span></td><td class="num" data-label="Latency">${ms(r.latency_ms)}</td>
<td class="num" data-label="First byte">${r.stream ? ms(r.first_byte_ms) : html`<span class="dim" title="Not streamed: the whole answer at once">—</span>`}</td><td class="num" data-label="Tokens in / out">${n(r.input_tokens)} / ${n(r.output_tokens)}</td></tr>`,
)}</tbody></table>`
    }</section>`,
  )
}

/**
 * Tokens (bars) and requests (line) per UTC day over the last 30 days, as an inline SVG with its own scale for each;
 * a text summary is its accessible name, and the numbers are in the table below it. The SVG stretches to the card's
 * width at a fixed height; the day labels are HTML under it (legible on a phone). No requests: no chart.
 */
export function usageChart(days) {
  const width = 720
  const height = 200
  const top = 12
  const end = new Date()
  const series = []
  for (let i = 29; i >= 0; i--) {
    const day = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate() - i))
      .toISOString()
      .slice(0, 10)
    const found = days.find((d) => String(d.day instanceof Date ? d.day.toISOString() : d.day).slice(0, 10) === day)
    series.push({ day, tokens: Number(found?.tokens ?? 0), requests: Number(found?.requests ?? 0) })
  }
  const totalTokens = series.reduce((sum, d) => sum + d.tokens, 0)
  const totalRequests = series.reduce((sum, d) => sum + d.requests, 0)
  if (totalRequests === 0) return '' // the page's own empty state says it
  const maxTokens = Math.max(1, ...series.map((d) => d.tokens))
  const maxRequests = Math.max(1, ...series.map((d) => d.requests))
  const step = width / series.length
  const y = (value, max) => top + (height - top) - (value / max) * (height - top)
  const bars = series
    .map((d, i) => {
      const barTop = y(d.tokens, maxTokens)
      return `<rect x="${(i * step + step * 0.15).toFixed(1)}" y="${barTop.toFixed(1)}" width="${(step * 0.7).toFixed(1)}" height="${(height - barTop).toFixed(1)}" class="bar"><title>${shortDay(d.day)}: ${n(d.tokens)} tokens, ${n(d.requests)} requests</title></rect>`
    })
    .join('')
  const points = series.map((d, i) => `${(i * step + step / 2).toFixed(1)},${y(d.requests, maxRequests).toFixed(1)}`)
  // One cell per day (the CSP allows no inline style), a label a week, today's the last.
  const labels = series.map((d, i) => html`<span>${i % 7 === 1 ? shortDay(d.day) : ''}</span>`)
  const summary = `Tokens and requests per day, last 30 days: ${n(totalTokens)} tokens, ${n(totalRequests)} requests; busiest day ${n(maxTokens)} tokens.`
  return html`<figure class="chart"><svg viewBox="0 0 ${width} ${height}" preserveAspectRatio="none" role="img" aria-label="${summary}">
<line x1="0" x2="${width}" y1="${top}" y2="${top}" class="grid"/><line x1="0" x2="${width}" y1="${(top + height) / 2}" y2="${(top + height) / 2}" class="grid"/>${raw(bars)}
<polyline points="${points.join(' ')}" class="line"/><line x1="0" x2="${width}" y1="${height}" y2="${height}" class="axis"/></svg>
<div class="days" aria-hidden="true">${labels}</div>
<figcaption><span class="item"><span class="key bar"></span>Tokens (busiest day ${n(maxTokens)})</span><span class="item"><span class="key line"></span>Requests (busiest day ${n(maxRequests)})</span></figcaption></figure>`
}

export function accountPage({ account, csrf, flash, counts }) {
  const keys = counts.keys
  return layout(
    { title: 'Account', account, active: '/account', csrf, flash },
    html`<div class="head"><h1>Account</h1><p class="lead">Signed in as <b>${account.email}</b>.</p></div>
<section class="card danger-zone" aria-labelledby="delete"><div class="card-head"><h2 id="delete">Delete my account</h2></div>
<p>Deleting your account removes at once, and for good:</p>
<ul class="losses">
<li><b>${keys === 0 ? 'No API keys' : `Your ${count(keys, 'API key')}`}</b>${keys === 0 ? '' : keys === 1 ? ' — refused on every instance within a second' : ' — all refused on every instance within a second'}</li>
<li><b>Your usage and request log</b>${counts.requests ? ` — ${count(counts.requests, 'request')} recorded` : ''}</li>
<li><b>Every session</b> — you are signed out everywhere, this browser included</li>
</ul>
<p class="warning">This cannot be undone.</p>
<form method="post" action="/account/delete"><input type="hidden" name="csrf" value="${csrf}">
<div class="field"><label for="confirm">Type your e-mail address to confirm</label><input id="confirm" name="confirm" type="email" autocomplete="off" required placeholder="${account.email}"></div>
<div class="actions"><button class="danger big" type="submit">Delete my account</button></div></form></section>`,
  )
}

/** The styles of these pages (appended to the console's stylesheet). */
export const activityCss = `
.chart{margin:0 0 18px;background:#fff;border:1px solid var(--line);border-radius:14px;padding:18px 18px 12px}
.chart svg{width:100%;height:200px;display:block;overflow:visible}
.chart .bar{fill:#c7d2fe}.chart .line{fill:none;stroke:var(--accent);stroke-width:2.5;stroke-linejoin:round;vector-effect:non-scaling-stroke}
.chart .axis{stroke:#cfd5e1;stroke-width:1;vector-effect:non-scaling-stroke}
.chart .grid{stroke:var(--soft);stroke-width:1;stroke-dasharray:4 4;vector-effect:non-scaling-stroke}
.chart .days{display:grid;grid-template-columns:repeat(30,minmax(0,1fr));margin-top:6px;font-size:12px;color:var(--muted)}
.chart .days span{justify-self:center;white-space:nowrap}
.chart figcaption{display:flex;gap:6px 18px;align-items:center;flex-wrap:wrap;font-size:13px;color:var(--muted);margin-top:10px}
.chart .item{display:inline-flex;align-items:center;gap:7px;white-space:nowrap}
.chart .key{display:inline-block;width:12px;height:12px;border-radius:3px}
.chart .key.bar{background:#c7d2fe}.chart .key.line{background:var(--accent);height:3px}
.table.log th,.table.log td{padding-left:7px;padding-right:7px}
.table.log td.first,.table.log td.num{white-space:nowrap}
.table .tag{display:inline-block;margin-left:4px;padding:0 7px;border-radius:999px;background:var(--accent-soft);color:#3730a3;font-size:11px;font-weight:600;vertical-align:1px}
.danger-zone{border-color:#f1c4bf}
.losses{margin:0 0 12px;padding-left:20px}.losses li{margin:4px 0}
.warning{color:var(--bad);font-weight:600;margin:0 0 16px}
button.danger.big{padding:10px 18px;font-size:15px}
@media (max-width:640px){
  .chart{padding:14px 12px 10px}.chart svg{height:150px}.chart .days{font-size:11px}
  .table.log tbody tr{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 14px;padding:8px 14px}
  .table.log tbody tr td{display:block;border-bottom:0;padding:5px 0;text-align:left;white-space:normal}
  .table.log tbody tr td::before{display:block;font-size:11px;margin-bottom:1px}
  .table.log tbody tr td.first{grid-column:1/-1;font-weight:600;border-bottom:1px solid var(--soft);padding-bottom:8px;margin-bottom:3px}
}
`
