/**
 * The activity pages: the request log (`/logs`), the usage chart drawn on `/usage` (an inline, server-rendered SVG:
 * the CSP keeps `script-src 'none'`), and the account page with "delete my account". Same layout and escaping as
 * src/pages.mjs.
 */
import { html, raw } from 'hono/html'
import { layout } from './pages.mjs'

const n = (v) => Number(v ?? 0).toLocaleString('en-US')
const ms = (v) => (v === null || v === undefined ? html`<span class="dim">—</span>` : `${n(Math.round(v))} ms`)
const time = (v) => (v instanceof Date ? v : new Date(v)).toISOString().replace('T', ' ').slice(0, 19)

export function logsPage({ account, csrf, rows, retentionDays }) {
  return layout(
    { title: 'Request log', account, active: '/logs', csrf },
    html`<div class="head"><h1>Request log</h1><p class="lead">Your last ${rows.length === 100 ? '100 ' : ''}requests, newest first (UTC), kept for ${retentionDays} days. Prompts and answers are never stored.</p></div>
<section class="card" aria-labelledby="recent"><div class="card-head"><h2 id="recent">Recent requests</h2></div>${
      rows.length === 0
        ? html`<div class="empty"><b>No requests yet</b><p>Requests made with your keys show up here within seconds.</p></div>`
        : html`<table class="table"><thead><tr><th>Time</th><th>Key</th><th>Model</th><th>Client</th><th>Upstream</th><th class="num">Status</th><th class="num">Latency</th><th class="num">First byte</th><th class="num">Tokens in / out</th></tr></thead><tbody>
${rows.map(
  (
    r,
  ) => html`<tr><td class="first" data-label="Time">${time(r.at)}</td><td data-label="Key"><span class="name">${r.key_name}</span></td><td data-label="Model"><code>${r.model}</code></td>
<td data-label="Client">${r.format}${r.stream ? html` <span class="dim">stream</span>` : ''}</td><td data-label="Upstream">${r.upstream ?? html`<span class="dim">—</span>`}</td>
<td class="num" data-label="Status"><span class="badge ${r.status < 400 ? 'active' : 'revoked'}">${r.status}</span></td><td class="num" data-label="Latency">${ms(r.latency_ms)}</td>
<td class="num" data-label="First byte">${ms(r.first_byte_ms)}</td><td class="num" data-label="Tokens in / out">${n(r.input_tokens)} / ${n(r.output_tokens)}</td></tr>`,
)}</tbody></table>`
    }</section>`,
  )
}

/**
 * Tokens (bars) and requests (line) per UTC day over the last 30 days, as an inline SVG with its own scale for each;
 * a text summary is its accessible name, and the numbers are in the table below it.
 */
export function usageChart(days) {
  const width = 720
  const height = 220
  const pad = { left: 8, right: 8, top: 16, bottom: 28 }
  const end = new Date()
  const series = []
  for (let i = 29; i >= 0; i--) {
    const day = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate() - i))
      .toISOString()
      .slice(0, 10)
    const found = days.find((d) => String(d.day instanceof Date ? d.day.toISOString() : d.day).slice(0, 10) === day)
    series.push({ day, tokens: Number(found?.tokens ?? 0), requests: Number(found?.requests ?? 0) })
  }
  const maxTokens = Math.max(1, ...series.map((d) => d.tokens))
  const maxRequests = Math.max(1, ...series.map((d) => d.requests))
  const plotWidth = width - pad.left - pad.right
  const plotHeight = height - pad.top - pad.bottom
  const step = plotWidth / series.length
  const y = (value, max) => pad.top + plotHeight - (value / max) * plotHeight
  const bars = series
    .map((d, i) => {
      const top = y(d.tokens, maxTokens)
      return `<rect x="${(pad.left + i * step + step * 0.15).toFixed(1)}" y="${top.toFixed(1)}" width="${(step * 0.7).toFixed(1)}" height="${(pad.top + plotHeight - top).toFixed(1)}" rx="2" class="bar"><title>${d.day}: ${n(d.tokens)} tokens, ${n(d.requests)} requests</title></rect>`
    })
    .join('')
  const points = series
    .map((d, i) => `${(pad.left + i * step + step / 2).toFixed(1)},${y(d.requests, maxRequests).toFixed(1)}`)
    .join(' ')
  const labels = [0, 10, 20, 29]
    .map(
      (i) =>
        `<text x="${(pad.left + i * step + step / 2).toFixed(1)}" y="${height - 8}" text-anchor="middle">${series[i].day.slice(5)}</text>`,
    )
    .join('')
  const totalTokens = series.reduce((sum, d) => sum + d.tokens, 0)
  const totalRequests = series.reduce((sum, d) => sum + d.requests, 0)
  const summary = `Tokens and requests per day, last 30 days: ${n(totalTokens)} tokens, ${n(totalRequests)} requests; busiest day ${n(maxTokens)} tokens.`
  return html`<figure class="chart"><svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${summary}">
<line x1="${pad.left}" x2="${width - pad.right}" y1="${pad.top + plotHeight}" y2="${pad.top + plotHeight}" class="axis"/>${raw(bars)}
<polyline points="${points}" class="line"/>${raw(labels)}</svg>
<figcaption><span class="key bar"></span>Tokens (max ${n(maxTokens)} a day) <span class="key line"></span>Requests (max ${n(maxRequests)} a day)</figcaption></figure>`
}

export function accountPage({ account, csrf, flash, counts }) {
  return layout(
    { title: 'Account', account, active: '/account', csrf, flash },
    html`<div class="head"><h1>Account</h1><p class="lead">Signed in as <b>${account.email}</b>.</p></div>
<section class="card danger-zone" aria-labelledby="delete"><div class="card-head"><h2 id="delete">Delete my account</h2></div>
<p>This deletes the account and everything it owns, at once and for good: ${n(counts.keys)} key(s) (they stop working on every instance within a second), the usage and the request log, and every session. It cannot be undone.</p>
<form method="post" action="/account/delete"><input type="hidden" name="csrf" value="${csrf}">
<div class="field"><label for="confirm">Type your e-mail address to confirm</label><input id="confirm" name="confirm" type="email" autocomplete="off" required placeholder="${account.email}"></div>
<div class="actions"><button class="danger big" type="submit">Delete my account</button></div></form></section>`,
  )
}

/** The styles of these pages (appended to the console's stylesheet). */
export const activityCss = `
.chart{margin:0 0 18px;background:#fff;border:1px solid var(--line);border-radius:14px;padding:16px 16px 10px}
.chart svg{width:100%;height:auto;display:block}
.chart .bar{fill:#c7d2fe}.chart .line{fill:none;stroke:var(--accent);stroke-width:2.5;vector-effect:non-scaling-stroke}
.chart .axis{stroke:var(--line);stroke-width:1}.chart text{font-size:11px;fill:var(--muted)}
.chart figcaption{display:flex;gap:8px;align-items:center;flex-wrap:wrap;font-size:13px;color:var(--muted);margin-top:6px}
.chart .key{display:inline-block;width:12px;height:12px;border-radius:3px;margin-left:6px}
.chart .key.bar{background:#c7d2fe}.chart .key.line{background:var(--accent);height:3px}
.danger-zone{border-color:#f1c4bf}
button.danger.big{padding:10px 18px;font-size:15px}
`
