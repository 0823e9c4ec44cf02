/**
 * `npm run clients:record` — records what today's releases of the clients send, as fixtures that `npm test` replays
 * (test/clients-replay.test.ts). A developer tool, not part of the test suite: it needs the npm registry.
 *
 * It installs the current releases (resolved on the registry now, or pinned with `--pin name@version`) of Codex, Claude
 * Code and Gemini CLI, and of the AI SDK, LangChain and the OpenAI Agents SDK as libraries, into a temporary folder
 * (`--dir` to keep and reuse one), runs each through one tool round trip against the recorder on 127.0.0.1
 * (scripts/clients/recorder.ts) and writes `test/fixtures/clients/<client>/<version>/<scenario>.<n>.json`.
 *
 *   npm run clients:record                              # everything, latest releases
 *   npm run clients:record -- --only codex,ai-sdk       # a subset (client ids, or a library group)
 *   npm run clients:record -- --pin @openai/codex@0.169.0 --dir /tmp/clients
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { firstTool } from '../test/sdk/strict-upstreams.js'
import { clis, makeSandbox, runCli } from './clients/clis.js'
import { writeScenario } from './clients/fixtures.js'
import { flags, installInto, resolveVersion } from './clients/install.js'
import { libraries, runLibraryScenario } from './clients/libraries.js'
import { startRecorder } from './clients/recorder.js'

const fixturesRoot = resolve(import.meta.dirname, '..', 'test', 'fixtures', 'clients')
const key = 'sk-recorder-0123456789abcdef'

async function main(): Promise<void> {
  const options = flags(process.argv.slice(2))
  const wanted = (id: string, group?: string) =>
    !options.only || options.only.includes(id) || (group !== undefined && options.only.includes(group))
  const root = options.dir ?? mkdtempSync(join(tmpdir(), 'clients-record-'))
  const install = join(root, 'install')
  const selectedClis = clis.filter((cli) => wanted(cli.id))
  const selectedLibraries = libraries.filter((library) => wanted(library.id, library.group))
  const packages = new Set([
    ...selectedClis.map((cli) => cli.package),
    ...selectedLibraries.flatMap((library) => library.packages),
  ])
  const versions: Record<string, string> = {}
  for (const name of packages) versions[name] = resolveVersion(name, options.pins.get(name))
  installInto(install, versions)

  const recorder = await startRecorder([key])
  const replacements = new Map([
    [key, '[redacted]'],
    [root, '/tmp/clients-record'],
    // Claude Code names a project's folder after its path, slashes as dashes.
    [root.replaceAll('/', '-'), '-tmp-clients-record'],
  ])
  const summary: string[] = []
  const failures: string[] = []
  try {
    for (const cli of selectedClis) {
      const version = versions[cli.package] as string
      for (const scenario of cli.scenarios) {
        const { home, work } = makeSandbox(join(root, scenario.name), cli.id)
        recorder.requests.length = 0
        const rejected = recorder.rejections.length
        recorder.script(cli.toolCall(work))
        const bin = join(install, 'node_modules', '.bin', cli.bin)
        const run = await runCli({ cli, bin, baseURL: recorder.url, home, work, key, model: scenario.model })
        const turns = recorder.requests.filter((request) => request.format).length
        const files = writeScenario(fixturesRoot, cli.id, version, scenario.name, recorder.requests, replacements)
        const roundTrip = turns >= 2 && JSON.stringify(recorder.requests).includes(cli.marker)
        summary.push(
          `${cli.id} ${version} ${scenario.name}: ${files.length} requests (${turns} generation), round trip ${roundTrip ? 'yes' : 'NO'}`,
        )
        if (!roundTrip || run.code !== 0 || recorder.rejections.length > rejected) {
          failures.push(
            `${cli.id} ${version} ${scenario.name}: exit ${run.code}${run.timedOut ? ' (timed out)' : ''}\n--- stdout\n${run.stdout.slice(-2000)}\n--- stderr\n${run.stderr.slice(-4000)}`,
          )
        }
      }
    }
    for (const library of selectedLibraries) {
      const version = versions[library.packages[library.packages.length - 1] as string] as string
      for (const scenario of library.scenarios) {
        recorder.requests.length = 0
        const rejected = recorder.rejections.length
        recorder.script(scenario.toolCall ?? firstTool)
        const run = await runLibraryScenario(install, library, scenario, recorder.url, key)
        const turns = recorder.requests.filter((request) => request.format).length
        const files = writeScenario(fixturesRoot, library.id, version, scenario.name, recorder.requests, replacements)
        summary.push(`${library.id} ${version} ${scenario.name}: ${files.length} requests (${turns} generation)`)
        if (run.code !== 0 || turns < 2 || recorder.rejections.length > rejected)
          failures.push(
            `${library.id} ${scenario.name}: exit ${run.code}\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-4000)}`,
          )
      }
    }
  } finally {
    await recorder.close()
    if (!options.dir) rmSync(root, { recursive: true, force: true })
  }
  console.log(summary.join('\n'))
  if (recorder.rejections.length > 0) console.log(`stand-in rejections:\n${recorder.rejections.join('\n')}`)
  const cliVersions = selectedClis.map((cli) => `${cli.package} ${versions[cli.package]}`).join(', ')
  console.log(`\nREADME: Clients last recorded: ${cliVersions}`)
  if (failures.length > 0) {
    console.error(`\n${failures.length} client(s) did not complete a tool round trip:\n\n${failures.join('\n\n')}`)
    process.exitCode = 1
  }
}

await main()
