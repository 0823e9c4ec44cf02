/** Runs the conformance checks (./checks.ts) against an endpoint, and writes the report (table, JSON, Markdown). */
import { checks } from './checks.js'
import type { Check, Context } from './judge.js'
import { body } from './requests.js'
import { createSdkJudges } from './sdk.js'
import { libraryTurn, type Turn } from './turn.js'
import {
  type CheckFormat,
  checkFormats,
  defaultModels,
  type Exchange,
  generatePath,
  send,
  type Target,
} from './wire.js'

export interface CheckResult {
  id: string
  format: CheckFormat
  feature: string
  pass: boolean
  detail: string
  /** Who read the answer: the official SDK (`openai 6.49.0`…) or `interlingua decoders`; absent when none was read. */
  judge?: string
}

export interface CheckReport {
  endpoint: string
  startedAt: string
  durationMs: number
  /** Who reads each format's answers: its official SDK when installed, else the library's decoders. */
  judges: Partial<Record<CheckFormat, string>>
  checks: CheckResult[]
  passed: number
  failed: number
}

export interface RunOptions {
  endpoint: string
  key?: string
  /** Extra headers sent with every request (a gateway's routing headers). */
  headers?: Record<string, string>
  models?: Partial<Record<CheckFormat, string>>
  /** Formats to check; undefined: every format the endpoint answers. */
  formats?: CheckFormat[]
  /** Only checks of this feature (or id). */
  only?: string
  timeoutMs?: number
  /** Judge answers with the official SDKs when they are installed. @defaultValue true */
  sdks?: boolean
  onProgress?: (line: string) => void
}

/** A problem that stops the run: an unreachable endpoint, a refused key. */
export class CheckAbort extends Error {}

function originOf(endpoint: string): string {
  const url = new URL(endpoint)
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/v1(beta)?$/, '')}`
}

export const libraryJudge = 'interlingua decoders'

export async function runChecks(options: RunOptions): Promise<CheckReport> {
  const sdks = createSdkJudges(options.sdks ?? true)
  try {
    return await run(options, sdks)
  } finally {
    await sdks.close()
  }
}

async function run(options: RunOptions, sdks: ReturnType<typeof createSdkJudges>): Promise<CheckReport> {
  const started = Date.now()
  const target: Target = {
    origin: originOf(options.endpoint),
    ...(options.key !== undefined ? { key: options.key } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    models: { ...defaultModels, ...options.models },
    timeoutMs: options.timeoutMs ?? 30_000,
  }
  const cache = new Map<string, Promise<Exchange>>()
  const askFor = (format: CheckFormat) => (request: Parameters<Context['ask']>[0]) => {
    const key = `${format} ${request.path} ${request.key} ${request.keyInQuery} ${JSON.stringify(request.body)}`
    let exchange = cache.get(key)
    if (!exchange) {
      exchange = send(target, format, request).catch((error: Error) => {
        throw new CheckAbort(`cannot reach ${target.origin}: ${(error.cause as Error)?.message ?? error.message}`)
      })
      cache.set(key, exchange)
    }
    return exchange
  }
  const formats: CheckFormat[] = []
  for (const format of options.formats ?? checkFormats) {
    const model = target.models[format]
    const probe = await askFor(format)({
      path: generatePath(format, model, false),
      body: body(format, model, 'text', false),
    })
    if (probe.status === 401 || probe.status === 403)
      throw new CheckAbort(
        `${target.origin} answered ${probe.status} to a ${format} request: ${options.key === undefined ? 'pass its key with --key' : 'the --key given was refused'}`,
      )
    if (probe.status === 404 && options.formats === undefined) continue
    formats.push(format)
  }
  if (formats.length === 0) throw new CheckAbort(`${target.origin} answers none of the formats (404 on every route)`)
  const selected = (check: Check, format: CheckFormat) =>
    check.formats.includes(format) &&
    (options.only === undefined || check.feature.startsWith(options.only) || check.id === options.only)
  const plan = formats.flatMap((format) =>
    checks.filter((check) => selected(check, format)).map((check) => ({ format, check })),
  )
  const judges: Partial<Record<CheckFormat, string>> = {}
  for (const format of formats) judges[format] = (await sdks.name(format)) ?? libraryJudge
  const results: CheckResult[] = []
  for (const [i, { format, check }] of plan.entries()) {
    options.onProgress?.(`[${i + 1}/${plan.length}] ${format} ${check.id}`)
    let judge: string | undefined
    const read = async (exchange: Exchange, sent: Parameters<Context['ask']>[0]): Promise<Turn | string> => {
      judge = judges[format]
      if (judge === libraryJudge) return libraryTurn(format, exchange)
      return sdks.turn(format, exchange, sent.body as Record<string, unknown>, sent.stream === true)
    }
    const ctx: Context = {
      format,
      model: target.models[format],
      keyed: options.key !== undefined,
      ask: askFor(format),
      read,
    }
    let problem: string | undefined
    try {
      problem = await check.run(ctx)
    } catch (error) {
      if (error instanceof CheckAbort) throw error
      problem = `failed: ${(error as Error).message}`
    }
    if (problem?.startsWith('skip:')) continue
    const result: CheckResult = {
      id: check.id,
      format,
      feature: check.feature,
      pass: problem === undefined,
      detail: problem ?? 'ok',
    }
    if (judge) result.judge = judge
    results.push(result)
  }
  const passed = results.filter((result) => result.pass).length
  return {
    endpoint: options.endpoint,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    judges,
    checks: results,
    passed,
    failed: results.length - passed,
  }
}

/** The report as a table grouped by format and feature, then a summary line. */
export function formatTable(report: CheckReport): string {
  const lines: string[] = [`interlingua check ${report.endpoint}`]
  let group = ''
  for (const result of report.checks) {
    if (result.format !== group) {
      group = result.format
      lines.push('', group)
    }
    const mark = result.pass ? 'PASS' : 'FAIL'
    lines.push(
      `  ${mark}  ${result.feature.padEnd(24)} ${result.id.padEnd(22)} ${result.pass ? '' : result.detail}`.trimEnd(),
    )
  }
  const judged = Object.entries(report.judges).map(([format, judge]) => `${format}: ${judge}`)
  lines.push('', `answers read by ${judged.join('; ')}`)
  lines.push(`${report.passed} passed, ${report.failed} failed (${(report.durationMs / 1000).toFixed(1)} s)`)
  return lines.join('\n')
}

/** The markers around the generated part of docs/conformance.md; anything outside them is written by hand. */
export const markdownMarkers = { start: '<!-- checks:start -->', end: '<!-- checks:end -->' } as const

/**
 * Every check, what it verifies and where the rule comes from: the generated part of docs/conformance.md, between
 * `markdownMarkers` (what is outside them — the peers' results — is kept by `spliceMarkdown`).
 */
export function formatMarkdown(): string {
  const short: Record<CheckFormat, string> = {
    'chat-completions': 'chat',
    responses: 'responses',
    messages: 'messages',
    'content-generation': 'gemini',
  }
  const rows = checks.map(
    (check) =>
      `| \`${check.id}\` | ${check.feature} | ${check.formats.map((f) => short[f]).join(', ')} | ${check.verifies} | ${check.source} |`,
  )
  return [
    '# Conformance checks',
    '',
    markdownMarkers.start,
    '',
    'Generated by `interlingua check --markdown` — do not edit by hand between the `checks:start` and `checks:end`',
    'markers (`npm run docs:conformance` rewrites this part and keeps the rest of the page). `interlingua check',
    '<baseURL>` runs these against any endpoint (`--format`, `--key`, `--model [format=]id`,',
    "`--header 'name: value'`, `--only <feature>`, `--json`, `--no-sdk`). Answers are judged with the library's own",
    'strict decoders, its stream decoders and the IR stream grammar, the raw wire rules the official SDKs rely on, and',
    'the official SDKs themselves where installed (`openai`, `@anthropic-ai/sdk`, `@google/genai`: the recorded answer',
    'is replayed to the SDK, which parses it and runs its stream accumulator). Without them the library’s decoders read',
    'the answers, so the command works from the built package alone; the report says which read each format.',
    '',
    '| check | feature | formats | verifies | source of the rule |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    'Chat Completions has no reasoning checks: the official `openai` SDK has no reasoning field on a chat message or',
    'chunk (only `reasoning_effort` in the request, which models without reasoning refuse, and',
    '`completion_tokens_details.reasoning_tokens` in usage, which other servers leave out); `reasoning_content` is',
    'some servers’ convention (DeepSeek, vLLM), not a rule an endpoint can be held to. Nor token counting: it has no',
    'counting endpoint.',
    '',
    markdownMarkers.end,
    '',
  ].join('\n')
}

/** `page` with its generated part (between the markers) replaced by `generated`'s; the whole of `generated` if none. */
export function spliceMarkdown(page: string, generated: string): string {
  const span = (text: string) => {
    const start = text.indexOf(markdownMarkers.start)
    const end = text.indexOf(markdownMarkers.end)
    return start < 0 || end < start ? undefined : { start, end: end + markdownMarkers.end.length }
  }
  const into = span(page)
  const from = span(generated)
  if (!into || !from) return generated
  return page.slice(0, into.start) + generated.slice(from.start, from.end) + page.slice(into.end)
}
