/** `interlingua check <baseURL>`: the command line of the conformance checks (./run.ts). */
import { CheckAbort, formatMarkdown, formatTable, runChecks } from './run.js'
import { type CheckFormat, checkFormats } from './wire.js'

export const checkUsage = `Usage: interlingua check <baseURL> [--format chat-completions|responses|messages|content-generation|all]
       [--key KEY] [--model ID | --model FORMAT=ID]... [--header 'NAME: VALUE']... [--only FEATURE] [--json]
       [--no-sdk]
       interlingua check --markdown        (every check, what it verifies, the source of the rule)

Runs the conformance checks against an endpoint and prints one row per check, then a summary. Answers are read with
the official SDKs (openai, @anthropic-ai/sdk, @google/genai) where installed, else (or with --no-sdk) with
interlingua's own decoders; the report says which.
Exit status: 0 when every check run passed, 1 when one failed, 2 when the run could not be done.`

/** Runs the command; resolves to the exit status. */
export async function checkCommand(
  args: string[],
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  let endpoint: string | undefined
  let key: string | undefined
  let only: string | undefined
  let json = false
  let sdks = true
  let formats: CheckFormat[] | undefined
  const models: Partial<Record<CheckFormat, string>> = {}
  const headers: Record<string, string> = {}
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    const value = () => {
      const next = args[++i]
      if (next === undefined) throw new CheckAbort(`${arg} needs a value`)
      return next
    }
    if (arg === '--help' || arg === '-h') {
      out(checkUsage)
      return 0
    }
    if (arg === '--markdown') {
      out(formatMarkdown())
      return 0
    }
    if (arg === '--json') json = true
    else if (arg === '--no-sdk') sdks = false
    else if (arg === '--key') key = value()
    else if (arg === '--only') only = value()
    else if (arg === '--header') {
      const header = value()
      const colon = header.indexOf(':')
      const name = header.slice(0, colon).trim()
      if (colon < 1 || !/^[!#$%&'*+.^_`|~\w-]+$/.test(name)) throw new CheckAbort(`not a header: ${header}`)
      headers[name.toLowerCase()] = header.slice(colon + 1).trim()
    } else if (arg === '--format') {
      const format = value()
      if (format === 'all') formats = [...checkFormats]
      else if (checkFormats.includes(format as CheckFormat)) formats = [...(formats ?? []), format as CheckFormat]
      else throw new CheckAbort(`unknown format ${format}`)
    } else if (arg === '--model') {
      const model = value()
      const [format, id] = model.includes('=') ? model.split('=', 2) : [undefined, model]
      if (format === undefined) for (const f of checkFormats) models[f] = id as string
      else if (checkFormats.includes(format as CheckFormat)) models[format as CheckFormat] = id as string
      else throw new CheckAbort(`unknown format in --model ${model}`)
    } else if (arg.startsWith('-')) throw new CheckAbort(`unknown option ${arg}`)
    else endpoint = arg
  }
  if (endpoint === undefined) throw new CheckAbort('a base URL is required')
  try {
    new URL(endpoint)
  } catch {
    throw new CheckAbort(`not a URL: ${endpoint}`)
  }
  const progress = (line: string) => err(`\r\x1b[2K${line}`)
  const report = await runChecks({
    endpoint,
    models,
    sdks,
    onProgress: progress,
    ...(key !== undefined ? { key } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(formats ? { formats } : {}),
    ...(only !== undefined ? { only } : {}),
  })
  err('\r\x1b[2K')
  out(json ? JSON.stringify(report, null, 2) : formatTable(report))
  return report.failed === 0 && report.checks.length > 0 ? 0 : 1
}

/** The command from `process.argv`, exiting with its status. */
export function runCheckCommand(args: string[]): void {
  checkCommand(
    args,
    (text) => process.stdout.write(`${text}\n`),
    (text) => process.stderr.write(text),
  ).then(
    (status) => process.exit(status),
    (error: Error) => {
      process.stderr.write(
        `\ninterlingua check: ${error.message}\n${error instanceof CheckAbort ? '' : `${error.stack}\n`}`,
      )
      if (error instanceof CheckAbort && /needs a value|unknown|required|not a URL|not a header/.test(error.message))
        process.stderr.write(`${checkUsage}\n`)
      process.exit(2)
    },
  )
}
