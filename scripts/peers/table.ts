/** The peers section of docs/conformance.md: totals per route, then per check, then why each failure failed. */
import type { CheckResult } from '../../src/node/check/run.js'
import { type GatewayId, type Route, routeName as routeKey } from './routes.js'

export interface RouteRun {
  gateway: GatewayId
  route: Route
  checks: CheckResult[]
  /** Why the run stopped before any check (an unreachable route, a refused key). */
  abort?: string
  /** Why the gateway does not offer this route (not run). */
  notOffered?: string
}

export const markers = { start: '<!-- peers:start -->', end: '<!-- peers:end -->' }

const gateways: { id: GatewayId; name: string }[] = [
  { id: 'interlingua', name: 'interlingua' },
  { id: 'portkey', name: 'Portkey' },
  { id: 'musistudio', name: '@musistudio/llms' },
]

export function summaryLine(run: { checks: CheckResult[]; abort?: string }): string {
  if (run.abort) return `stopped: ${run.abort}`
  const passed = run.checks.filter((c) => c.pass).length
  return `${passed}/${run.checks.length}`
}

const cell = (passed: number, total: number) =>
  total === 0 ? '—' : `${passed === total ? '**' : ''}${passed}/${total}${passed === total ? '**' : ''}`
const oneLine = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/(\/[\w.-]+)+\/node_modules\//g, '…/node_modules/')
    .replace(/\|/g, '\\|')
    .slice(0, 150)

/** The routes, shortened: "every route", or "messages → any" for all of one client format's routes. */
function routesText(failed: Set<string>, offered: string[]): string {
  if (offered.every((route) => failed.has(route))) return 'every route'
  const clients = [...new Set(offered.map((route) => route.split(' → ')[0] as string))]
  const parts: string[] = []
  for (const client of clients) {
    const own = offered.filter((route) => route.startsWith(`${client} → `))
    const hit = own.filter((route) => failed.has(route))
    if (hit.length > 1 && hit.length === own.length) parts.push(`${client} → any`)
    else parts.push(...hit)
  }
  return parts.join('; ')
}

/** Which parsers read the answers (the check's report names one per check: an official SDK, or the library's own). */
function judges(runs: RouteRun[]): string[] {
  const names = new Set(runs.flatMap((r) => r.checks.map((c) => (c as { judge?: string }).judge ?? '')))
  names.delete('')
  return names.size ? ['', `Answers read by: ${[...names].sort().join(', ')}.`] : []
}

export interface Section {
  date: string
  seconds: number
  versions: Record<GatewayId, string>
  runs: RouteRun[]
}

export function writeSection({ date, seconds, versions, runs }: Section): string {
  const find = (gateway: GatewayId, route: Route) =>
    runs.find((r) => r.gateway === gateway && routeKey(r.route) === routeKey(route))
  const routeList = [...new Map(runs.map((r) => [routeKey(r.route), r.route])).values()]
  const lines: string[] = [
    markers.start,
    '',
    '## The same checks against other gateways',
    '',
    `Measured ${date} by \`npm run peers:check\` (scripts/peers-check.ts; ${seconds.toFixed(0)} s for all ${runs.filter((r) => !r.notOffered).length} route runs,`,
    'the peers already installed). It installs the peers at pinned versions into a scratch folder outside the repo, starts',
    "each on 127.0.0.1 in front of the **same** upstream — `interlingua/testing`'s strict stand-in of each format,",
    'one key for all, with the model list and token counting answered as the real services answer them, and',
    "Gemini's `streamGenerateContent` without `alt=sse` answered with a JSON array, as Gemini does — and runs",
    "`interlingua check` against every route (the client's format → the upstream's format) with the model, key and",
    'routing each gateway documents:',
    '',
    '- interlingua: `createGateway` with `apiKeys` and one public model per upstream;',
    '- Portkey: `x-portkey-provider` (`openai`, `anthropic`, `google`) and `x-portkey-custom-host`; the client key is',
    '  forwarded to the upstream (Portkey has no key of its own here);',
    '- @musistudio/llms: one provider per upstream (its `Anthropic`, `gemini` and `openai-responses` transformers, and',
    '  `streamoptions` on the chat-completions one so its streams can report usage), `"model": "provider,model"`. It',
    '  has no setting that makes it ask clients for a key, so its auth checks measure that.',
    '',
    '"not offered": the gateway has no way to serve that route (its answer is quoted below); not counted in the',
    "totals. Hand-written data: rewritten by that script only, between this section's markers.",
    '',
    ...gateways.map((g) => `- ${g.name}: ${versions[g.id]}`),
    ...judges(runs),
    '',
    '### Checks passed, per route',
    '',
    `| route (client → upstream) | ${gateways.map((g) => g.name).join(' | ')} |`,
    `| --- | ${gateways.map(() => '---:').join(' | ')} |`,
  ]
  for (const route of routeList) {
    const cells = gateways.map((g) => {
      const run = find(g.id, route)
      if (!run || run.notOffered) return 'not offered'
      if (run.abort) return `stopped: ${oneLine(run.abort).slice(0, 60)}`
      return cell(run.checks.filter((c) => c.pass).length, run.checks.length)
    })
    lines.push(`| ${routeKey(route)} | ${cells.join(' | ')} |`)
  }
  const total = (name: string, keep: (route: Route) => boolean) => {
    const cells = gateways.map((g) => {
      const checks = runs.filter((r) => r.gateway === g.id && keep(r.route)).flatMap((r) => r.checks)
      const passed = checks.filter((c) => c.pass).length
      return `${passed}/${checks.length} (${checks.length ? Math.round((100 * passed) / checks.length) : 0}%)`
    })
    return `| **${name}** | ${cells.join(' | ')} |`
  }
  lines.push(
    total('passthrough routes', (route) => route.client === route.upstream),
    total('translated routes', (route) => route.client !== route.upstream),
    total('total', () => true),
    '',
    '### Per check (routes passed / routes run)',
    '',
    `| check | ${gateways.map((g) => g.name).join(' | ')} |`,
    `| --- | ${gateways.map(() => '---:').join(' | ')} |`,
  )
  const ids = [...new Set(runs.flatMap((r) => r.checks.map((c) => c.id)))]
  for (const id of ids) {
    const cells = gateways.map((g) => {
      const results = runs.filter((r) => r.gateway === g.id).flatMap((r) => r.checks.filter((c) => c.id === id))
      return cell(results.filter((c) => c.pass).length, results.length)
    })
    lines.push(`| \`${id}\` | ${cells.join(' | ')} |`)
  }
  lines.push('', '### What failed, and why', '')
  for (const g of gateways) {
    const failures = runs
      .filter((r) => r.gateway === g.id)
      .flatMap((r) => [
        ...(r.abort ? [{ id: 'run', route: routeKey(r.route), detail: r.abort }] : []),
        ...r.checks.filter((c) => !c.pass).map((c) => ({ id: c.id, route: routeKey(r.route), detail: c.detail })),
      ])
    const absent = runs.filter((r) => r.gateway === g.id && r.notOffered)
    lines.push(`**${g.name}**${failures.length === 0 ? ': nothing failed.' : ''}`, '')
    for (const r of absent) lines.push(`- not offered: ${routeKey(r.route)} — ${r.notOffered}`)
    if (failures.length === 0) {
      if (absent.length) lines.push('')
      continue
    }
    // One line per reason: the checks it turned red and the routes they failed on.
    const grouped = new Map<string, { ids: Set<string>; routes: Set<string> }>()
    for (const f of failures) {
      const reason = oneLine(f.detail.replace(/\d{10,}|[0-9a-f]{16,}|(resp|msg|chatcmpl)[_-][\w-]+/g, '…'))
      const entry = grouped.get(reason) ?? { ids: new Set(), routes: new Set() }
      entry.ids.add(f.id)
      entry.routes.add(f.route)
      grouped.set(reason, entry)
    }
    const offered = runs.filter((r) => r.gateway === g.id && !r.notOffered).map((r) => routeKey(r.route))
    for (const [reason, entry] of grouped)
      lines.push(
        `- ${[...entry.ids].map((id) => `\`${id}\``).join(', ')} — ${routesText(entry.routes, offered)}: ${reason}`,
      )
    lines.push('')
  }
  lines.push(markers.end)
  return lines.join('\n')
}

/** The page with its peers section replaced (or appended after the generated part when it has none). */
export function spliceSection(page: string, section: string): string {
  const start = page.indexOf(markers.start)
  const end = page.indexOf(markers.end)
  if (start >= 0 && end > start) return page.slice(0, start) + section + page.slice(end + markers.end.length)
  return `${page.trimEnd()}\n\n${section}\n`
}
