/**
 * How each agent CLI is pointed at a local server and driven through one tool round trip, with the base-URL variables
 * each documents (shared reference: clients-2026-11.md), `HOME` in a temp dir and telemetry off. Used by
 * `npm run clients:record` (against the recorder) and `npm run clients:e2e` (against the gateway).
 */
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ToolCallScript } from '../../test/sdk/strict-upstreams.js'

export type CliId = 'codex' | 'claude-code' | 'gemini-cli'

export interface CliSpec {
  id: CliId
  /** The npm package it ships in, and the command it installs. */
  package: string
  bin: string
  /** Its scenarios: the fixtures' file prefix, and the model asked for (the CLI's default when absent). */
  scenarios: Array<{ name: string; model?: string }>
  /** The tool the scripted upstream calls on turn 1, with arguments that work in the sandbox `dir`. */
  toolCall(dir: string): ToolCallScript
  /** The prompt: it names the tool, so that a cooperative model (the gateway's mock model) calls it. */
  prompt: string
  /** The text the tool's result puts in turn 2 (proof the tool ran). */
  marker: string
}

/** The file the round trip reads (Claude Code, Gemini CLI) or prints (Codex): its content is the marker. */
const marker = 'interlingua-round-trip-marker'

export const clis: readonly CliSpec[] = [
  {
    id: 'codex',
    package: '@openai/codex',
    bin: 'codex',
    // With its default model (0.169: gpt-6.1-sol, 0.171: gpt-6.2-sol) Codex sends its tools in an `additional_tools`
    // input item, and runs commands only through `exec` (namespace `functions`), a custom tool taking JavaScript that
    // calls `tools.exec_command`; with an older model, top-level `tools` with `exec_command` and hosted tools.
    scenarios: [{ name: 'exec-tool-loop' }, { name: 'exec-tool-loop-gpt-5.5', model: 'gpt-5.5' }],
    toolCall: (dir) => (names) => {
      if (names.includes('exec_command'))
        return { name: 'exec_command', arguments: JSON.stringify({ cmd: 'cat notes.txt', workdir: dir }) }
      // Off OpenAI the namespace member is flattened (`functions__exec`).
      const exec = names.find((name) => name === 'exec' || name.endsWith('__exec'))
      if (exec === undefined) return undefined
      const input = `const result = await tools.exec_command({ cmd: 'cat notes.txt', workdir: ${JSON.stringify(dir)} })\ntext(result)\n`
      return { name: exec, custom: true, arguments: input }
    },
    prompt:
      'Run `cat notes.txt` with the exec_command tool (through exec when that is the only tool) and tell me what it prints.',
    marker,
  },
  {
    id: 'claude-code',
    package: '@anthropic-ai/claude-code',
    bin: 'claude',
    // `--model sonnet` (what the shared reference recorded) and `haiku`, whose loop ends with the system entry last.
    scenarios: [
      { name: 'print-tool-loop', model: 'sonnet' },
      { name: 'print-tool-loop-haiku', model: 'haiku' },
    ],
    toolCall: (dir) => (names) =>
      names.includes('Read')
        ? { name: 'Read', arguments: JSON.stringify({ file_path: join(dir, 'notes.txt') }) }
        : undefined,
    prompt: 'Read the file notes.txt with the Read tool and tell me what it says.',
    marker,
  },
  {
    id: 'gemini-cli',
    package: '@google/gemini-cli',
    bin: 'gemini',
    scenarios: [{ name: 'prompt-tool-loop', model: 'gemini-2.5-flash' }],
    toolCall: (dir) => (names) =>
      names.includes('read_file')
        ? { name: 'read_file', arguments: JSON.stringify({ file_path: join(dir, 'notes.txt') }) }
        : undefined,
    prompt: 'Use read_file to read the file notes.txt and tell me what it says.',
    marker,
  },
]

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
  timedOut: boolean
}

/** A fresh sandbox: `home` (HOME), `work` (the cwd, holding notes.txt). */
export function makeSandbox(root: string, id: CliId): { home: string; work: string } {
  const home = join(root, `${id}-home`)
  const work = join(root, `${id}-work`)
  mkdirSync(home, { recursive: true })
  mkdirSync(work, { recursive: true })
  writeFileSync(join(work, 'notes.txt'), `${marker}\n`)
  return { home, work }
}

/** The command line and environment that point a CLI at `baseURL` (no `/v1`), writing its config files into `home`. */
function invocation(
  { id, prompt }: CliSpec,
  bin: string,
  baseURL: string,
  home: string,
  key: string,
  model: string | undefined,
): { command: string; args: string[]; env: Record<string, string> } {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    TMPDIR: join(home, 'tmp'),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
    DO_NOT_TRACK: '1',
    NO_UPDATE_NOTIFIER: '1',
  }
  mkdirSync(env.TMPDIR as string, { recursive: true })
  if (id === 'codex') {
    const codexHome = join(home, '.codex')
    mkdirSync(codexHome, { recursive: true })
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model_provider = "recorder"',
        ...(model ? [`model = "${model}"`] : []),
        'check_for_update_on_startup = false',
        '',
        '[analytics]',
        'enabled = false',
        '',
        '[model_providers.recorder]',
        'name = "recorder"',
        `base_url = "${baseURL}/v1"`,
        'env_key = "RECORDER_API_KEY"',
        'wire_api = "responses"',
        '',
      ].join('\n'),
    )
    return {
      command: bin,
      args: ['exec', '--skip-git-repo-check', prompt],
      env: { ...env, CODEX_HOME: codexHome, RECORDER_API_KEY: key },
    }
  }
  if (id === 'claude-code') {
    return {
      command: bin,
      args: ['-p', prompt, ...(model ? ['--model', model] : []), '--tools', 'Read'],
      env: {
        ...env,
        ANTHROPIC_BASE_URL: baseURL,
        ANTHROPIC_API_KEY: key,
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    }
  }
  const settings = join(home, '.gemini')
  mkdirSync(settings, { recursive: true })
  writeFileSync(
    join(settings, 'settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' } },
      telemetry: { enabled: false },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    }),
  )
  return {
    command: bin,
    args: ['-p', prompt, ...(model ? ['-m', model] : [])],
    env: {
      ...env,
      GOOGLE_GEMINI_BASE_URL: baseURL,
      GEMINI_API_KEY: key,
      GEMINI_CLI_NO_RELAUNCH: 'true',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    },
  }
}

/** Runs a CLI once (stdin closed) and waits for it, killing it after `timeoutMs`. */
export function runCli(options: {
  cli: CliSpec
  bin: string
  baseURL: string
  home: string
  work: string
  key: string
  model?: string
  timeoutMs?: number
}): Promise<CliRun> {
  const { command, args, env } = invocation(
    options.cli,
    options.bin,
    options.baseURL,
    options.home,
    options.key,
    options.model,
  )
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.work, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    const timer = setTimeout(() => {
      timedOut = true
      // The CLI's own process group (it was started detached): its children go with it.
      if (child.pid) process.kill(-child.pid, 'SIGKILL')
    }, options.timeoutMs ?? 120_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, timedOut })
    })
  })
}
