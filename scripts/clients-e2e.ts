/**
 * `npm run clients:e2e` — issue 21's "done means", with the real CLIs: Codex, Claude Code and Gemini CLI (current
 * releases, or `--pin name@version`; `--dir` keeps the install folder) each run one tool round trip (read notes.txt,
 * then answer) through
 * - the CLI gateway on the embedded mock model (`npm start` with no upstream: `src/node/cli.ts`), with each model
 *   alias a user picks (Claude Code sonnet/opus/haiku, Gemini flash/pro, Codex's default and gpt-5.5);
 * - the gateway with every model routed to a strict stand-in of each format (test/sdk/strict-upstreams.ts): the
 *   passthrough one and every translated one. The stand-in answers the CLI's own tool call (with arguments that work
 *   in the sandbox), then text, and rejects what the real service rejects.
 * A developer tool (it needs the npm registry and runs the CLIs); it prints one line per run and exits 1 if any failed.
 *
 *   npm run clients:e2e -- --dir /tmp/clients --only claude-code
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createGateway } from '../src/gateway/create-gateway.js'
import { type Running, serve } from '../test/sdk/servers.js'
import { type FormatId, hasToolResult, startStrictUpstream } from '../test/sdk/strict-upstreams.js'
import { type CliSpec, clis, makeSandbox, runCli } from './clients/clis.js'
import { flags, installInto, resolveVersion } from './clients/install.js'

const repo = resolve(import.meta.dirname, '..')
const formats: FormatId[] = ['responses', 'messages', 'content-generation', 'chat-completions']
const clientFormat: Record<CliSpec['id'], FormatId> = {
  codex: 'responses',
  'claude-code': 'messages',
  'gemini-cli': 'content-generation',
}
/** The models a user picks on the mock model (undefined: the CLI's default). */
const mockModels: Record<CliSpec['id'], Array<string | undefined>> = {
  codex: [undefined, 'gpt-5.5'],
  'claude-code': ['sonnet', 'opus', 'haiku'],
  'gemini-cli': ['gemini-2.5-flash', 'gemini-2.5-pro'],
}

/** `npm start` with no upstream: the CLI gateway on the mock model, on a free port. */
function startCliGateway(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repo, 'src/node/cli.ts'), '--port', '0'], {
    cwd: repo,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((done, fail) => {
    let out = ''
    child.stdout?.on('data', (chunk) => {
      out += chunk
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match) done({ url: match[1] as string, child })
    })
    child.on('exit', (code) => fail(new Error(`the CLI gateway exited (${code}): ${out}`)))
  })
}

function tail(text: string): string {
  return text.trim().split('\n').slice(-6).join('\n    ')
}

async function main(): Promise<void> {
  const options = flags(process.argv.slice(2))
  const root = options.dir ?? mkdtempSync(join(tmpdir(), 'clients-e2e-'))
  const install = join(root, 'install')
  const selected = clis.filter((cli) => !options.only || options.only.includes(cli.id))
  const versions = Object.fromEntries(
    selected.map((cli) => [cli.package, resolveVersion(cli.package, options.pins.get(cli.package))]),
  )
  installInto(install, versions)
  const key = 'sk-e2e-0123456789'
  const lines: string[] = []
  let failed = 0
  const report = (ok: boolean, line: string, detail = '') => {
    if (!ok) failed++
    lines.push(`${ok ? 'ok  ' : 'FAIL'} ${line}${ok || !detail ? '' : `\n    ${detail}`}`)
    console.log(lines[lines.length - 1])
  }

  const mock = await startCliGateway()
  try {
    for (const cli of selected) {
      const version = versions[cli.package] as string
      const bin = join(install, 'node_modules', '.bin', cli.bin)
      let n = 0
      for (const model of mockModels[cli.id]) {
        const { home, work } = makeSandbox(join(root, `run-${cli.id}-mock-${n++}`), cli.id)
        const run = await runCli({ cli, bin, baseURL: mock.url, home, work, key, model })
        const quoted = /The tool results are in/.test(run.stdout)
        report(
          run.code === 0 && quoted,
          `${cli.id} ${version} (${model ?? 'default model'}) via the mock model (npm start)`,
          `exit ${run.code}${run.timedOut ? ' (timed out)' : ''}; ${quoted ? '' : 'no tool result quoted; '}stdout: ${tail(run.stdout)}\n    stderr: ${tail(run.stderr)}`,
        )
      }
      for (const to of formats)
        for (const scenario of cli.scenarios) {
          const { home, work } = makeSandbox(join(root, `run-${cli.id}-${to}-${scenario.name}`), cli.id)
          const upstream = await startStrictUpstream({ toolCall: cli.toolCall(work) })
          const baseURL = to === 'chat-completions' || to === 'responses' ? `${upstream.url}/v1` : upstream.url
          const gateway: Running = await serve(
            createGateway({
              upstreams: { strict: { format: to, baseURL, apiKey: `upstream-${to}` } },
              resolveModel: () => ({ upstream: 'strict' }),
            }).fetch,
          )
          try {
            const run = await runCli({ cli, bin, baseURL: gateway.url, home, work, key, model: scenario.model })
            const turns = upstream.received.length
            const resulted = upstream.received.some(
              (body) => hasToolResult(body) && JSON.stringify(body).includes(cli.marker),
            )
            const answered = /Done after \d+ turns/.test(run.stdout)
            const how = to === clientFormat[cli.id] ? 'passthrough' : 'translated'
            report(
              run.code === 0 && resulted && answered && upstream.rejections.length === 0,
              `${cli.id} ${version} (${scenario.model ?? 'default model'}) via ${to} (${how}): ${turns} upstream requests`,
              `exit ${run.code}${run.timedOut ? ' (timed out)' : ''}; tool result upstream: ${resulted}; final text: ${answered}; rejections: ${upstream.rejections.join(' | ') || 'none'}\n    stdout: ${tail(run.stdout)}\n    stderr: ${tail(run.stderr)}`,
            )
          } finally {
            await gateway.close()
            await upstream.close()
          }
        }
    }
  } finally {
    mock.child.kill('SIGTERM')
    if (!options.dir) rmSync(root, { recursive: true, force: true })
  }
  console.log(`\n${lines.length - failed} passed, ${failed} failed`)
  if (failed > 0) process.exitCode = 1
}

await main()
