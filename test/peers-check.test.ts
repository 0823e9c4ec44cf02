/**
 * `npm run peers:check` (scripts/peers-check.ts) is not in CI: it installs the peer gateways. Its other parts are
 * tested here so that they cannot rot unseen: interlingua's own gateway in front of the script's upstreams, every route
 * checked the way the script checks the peers (scripts/peers/ours.ts); the table it writes (scripts/peers/table.ts)
 * and its place between the markers of docs/conformance.md; the routes a peer does not offer.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkRoutes, ourGateway } from '../scripts/peers/ours.js'
import { notOffered, type Route, routeName, routes, targetFor } from '../scripts/peers/routes.js'
import { markers, type RouteRun, spliceSection, summaryLine, writeSection } from '../scripts/peers/table.js'
import { startUpstream, type Upstream, upstreamFormats } from '../scripts/peers/upstream.js'
import type { CheckResult } from '../src/node/check/run.js'
import type { StrictFormat } from '../src/node/testing/index.js'
import { type Running, serve } from './sdk/servers.js'

const key = 'sk-peers-test'

describe('interlingua in front of the peers-check upstreams', () => {
  const upstreams: Upstream[] = []
  let urls: Record<StrictFormat, string>
  let ours: Running
  beforeAll(async () => {
    for (const format of upstreamFormats) upstreams.push(await startUpstream(format, key))
    urls = Object.fromEntries(upstreams.map((u) => [u.format, u.url])) as Record<StrictFormat, string>
    ours = await serve(ourGateway(urls, key).fetch)
  })
  afterAll(async () => {
    await ours?.close()
    for (const upstream of upstreams) await upstream.close()
  })

  it('passes every check on every route, as docs/conformance.md says', { timeout: 120_000 }, async () => {
    const heard: string[] = []
    const runs = await checkRoutes({ interlingua: ours.url }, urls, key, (run) => heard.push(routeName(run.route)))
    expect(runs.map((run) => routeName(run.route))).toEqual(routes.map(routeName))
    expect(heard).toEqual(routes.map(routeName))
    for (const run of runs) {
      expect(run.abort).toBeUndefined()
      expect(run.checks.length).toBeGreaterThanOrEqual(16)
      expect(
        run.checks.filter((check) => !check.pass).map((c) => `${routeName(run.route)} ${c.id}: ${c.detail}`),
      ).toEqual([])
    }
  })
})

describe('routes', () => {
  it('Portkey is not asked for the routes it cannot serve; the others are asked for all', () => {
    const offered = routes.filter((route) => !notOffered('portkey', route)).map(routeName)
    expect(offered).toEqual([
      'chat-completions → chat-completions',
      'chat-completions → messages',
      'chat-completions → content-generation',
      'messages → messages',
      'responses → responses',
    ])
    expect(routes.filter((route) => notOffered('interlingua', route) ?? notOffered('musistudio', route))).toEqual([])
  })

  it('each gateway is asked with its own routing', () => {
    const urls = {
      'chat-completions': 'http://a',
      responses: 'http://b',
      messages: 'http://c',
      'content-generation': 'http://d',
    }
    const route: Route = { client: 'chat-completions', upstream: 'messages' }
    expect(targetFor('interlingua', route, urls)).toEqual({ model: 'via-messages' })
    expect(targetFor('musistudio', route, urls).model).toMatch(/^[\w-]+,claude-/)
    expect(targetFor('portkey', route, urls)).toEqual({
      model: expect.stringMatching(/^claude-/),
      headers: { 'x-portkey-provider': 'anthropic', 'x-portkey-custom-host': 'http://c/v1' },
    })
    const gemini = targetFor('portkey', { client: 'chat-completions', upstream: 'content-generation' }, urls)
    expect(gemini.headers?.['x-portkey-custom-host']).toBe('http://d')
  })
})

describe('the table', () => {
  const check = (id: string, pass: boolean, detail = pass ? 'ok' : 'failed'): CheckResult => ({
    id,
    format: 'chat-completions',
    feature: 'f',
    pass,
    detail,
    judge: 'openai 6.0.0',
  })
  const cc: Route = { client: 'chat-completions', upstream: 'chat-completions' }
  const rcc: Route = { client: 'responses', upstream: 'chat-completions' }
  const runs: RouteRun[] = [
    { gateway: 'interlingua', route: cc, checks: [check('a', true), check('b', true)] },
    { gateway: 'portkey', route: cc, checks: [check('a', true), check('b', false, 'a 500 for resp_abc123 | x')] },
    { gateway: 'musistudio', route: cc, checks: [], abort: 'the endpoint is unreachable' },
    { gateway: 'interlingua', route: rcc, checks: [check('a', true), check('b', false, 'no\n  envelope')] },
    { gateway: 'portkey', route: rcc, checks: [], notOffered: 'no such provider' },
    { gateway: 'musistudio', route: rcc, checks: [check('a', false, 'same'), check('b', false, 'same')] },
  ]
  const versions = { interlingua: 'here', portkey: 'p 1', musistudio: 'm 2' }
  const section = writeSection({ date: '2026-11-27', seconds: 12.4, versions, runs })
  const lines = section.split('\n')

  it('is one section between the markers, with the date, the run time and the versions', () => {
    expect(lines[0]).toBe(markers.start)
    expect(lines.at(-1)).toBe(markers.end)
    expect(section).toContain(
      'Measured 2026-11-27 by `npm run peers:check` (scripts/peers-check.ts; 12 s for all 5 route runs,',
    )
    expect(lines).toContain('- Portkey: p 1')
    expect(lines).toContain('- @musistudio/llms: m 2')
    expect(lines).toContain('Answers read by: openai 6.0.0.')
  })

  it('counts per route, per kind of route and per check; bold only when all passed', () => {
    expect(lines).toContain(
      '| chat-completions → chat-completions | **2/2** | 1/2 | stopped: the endpoint is unreachable |',
    )
    expect(lines).toContain('| responses → chat-completions | 1/2 | not offered | 0/2 |')
    expect(lines).toContain('| **passthrough routes** | 2/2 (100%) | 1/2 (50%) | 0/0 (0%) |')
    expect(lines).toContain('| **translated routes** | 1/2 (50%) | 0/0 (0%) | 0/2 (0%) |')
    expect(lines).toContain('| **total** | 3/4 (75%) | 1/2 (50%) | 0/2 (0%) |')
    expect(lines).toContain('| `a` | **2/2** | **1/1** | 0/1 |')
    expect(lines).toContain('| `b` | 1/2 | 0/1 | 0/1 |')
  })

  it('says why each failure failed: one line per reason, ids masked, pipes escaped, the routes named', () => {
    expect(lines).toContain('- `b` — responses → chat-completions: no envelope')
    expect(lines).toContain('- not offered: responses → chat-completions — no such provider')
    // Portkey was run on one route only: "every route".
    expect(lines).toContain('- `b` — every route: a 500 for … \\| x')
    expect(lines).toContain('- `run` — chat-completions → chat-completions: the endpoint is unreachable')
    expect(lines).toContain('- `a`, `b` — responses → chat-completions: same')
    expect(summaryLine(runs[1] as RouteRun)).toBe('1/2')
    expect(summaryLine(runs[2] as RouteRun)).toBe('stopped: the endpoint is unreachable')
  })

  it('replaces only the part between the markers, and is appended to a page without them', () => {
    const page = `# Conformance\n\ngenerated part\n\n${markers.start}\nold\n${markers.end}\n\nafter\n`
    expect(spliceSection(page, section)).toBe(`# Conformance\n\ngenerated part\n\n${section}\n\nafter\n`)
    expect(spliceSection(spliceSection(page, section), section)).toBe(spliceSection(page, section))
    expect(spliceSection('# Conformance\n\n', section)).toBe(`# Conformance\n\n${section}\n`)
  })

  it('docs/conformance.md holds one such section, with a row for every route', () => {
    const page = readFileSync(new URL('../docs/conformance.md', import.meta.url), 'utf8')
    expect(page.split(markers.start).length).toBe(2)
    expect(page.split(markers.end).length).toBe(2)
    const published = page.slice(page.indexOf(markers.start), page.indexOf(markers.end))
    for (const route of routes) expect(published).toContain(`| ${routeName(route)} |`)
  })
})
