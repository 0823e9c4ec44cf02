/**
 * The libraries `npm run clients:record` records, each with its default settings through one tool round trip
 * (`get_weather`, answered by the tool's `execute`), non-streaming and streaming: the Vercel AI SDK (`openai(model)`
 * — the Responses API — and `openai.chat`, `anthropic`, `google`), LangChain (`ChatOpenAI`, `ChatAnthropic`,
 * `ChatGoogleGenerativeAI`) and the OpenAI Agents SDK. Each scenario is a small ES module run with node in the
 * install folder, reading `BASE_URL` (the recorder, no `/v1`) and `API_KEY` from its environment.
 */
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ToolCallScript } from '../../test/sdk/strict-upstreams.js'
import type { CliRun } from './clis.js'

export interface LibraryScenario {
  name: string
  /** The tool call turn 1 answers (the first tool, `{"city":"Paris"}`, when absent). */
  toolCall?: ToolCallScript
  code: string
}

export interface Library {
  id: string
  /** `--only` accepts the group (`ai-sdk`, `langchain`, `openai-agents`) as well as the id. */
  group: string
  /** The packages it needs; the last one names the fixtures' version folder. */
  packages: string[]
  scenarios: LibraryScenario[]
}

const prompt = 'What is the weather in Paris? Use the get_weather tool.'
const weatherSchema = `{ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }`

/** An AI SDK scenario: `generateText` or `streamText` with one tool and `stopWhen: stepCountIs(3)`. */
function aiSdk(provider: string, create: string, model: string, api: string, stream: boolean): LibraryScenario {
  const call = stream
    ? `const result = streamText(options)
let text = ''
for await (const delta of result.textStream) text += delta
console.log(text, (await result.steps).length)`
    : `const result = await generateText(options)
console.log(result.text, result.steps.length)`
  return {
    name: `${api}-${stream ? 'stream' : 'generate'}`,
    code: `import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai'
import { ${create} } from '${provider}'
const provider = ${create}({ apiKey: process.env.API_KEY, baseURL: process.env.BASE_URL + '${provider === '@ai-sdk/google' ? '/v1beta' : '/v1'}' })
const options = {
  model: provider.${model},
  prompt: '${prompt}',
  tools: {
    get_weather: tool({
      description: 'Current weather for a city',
      inputSchema: jsonSchema(${weatherSchema}),
      execute: async ({ city }) => ({ city, temperature_c: 21 }),
    }),
  },
  stopWhen: stepCountIs(3),
  maxRetries: 0,
}
${call}
`,
  }
}

/** A LangChain scenario: `bindTools`, then the tool's result as a `ToolMessage`, invoked or streamed. */
function langchain(provider: string, chatClass: string, options: string, stream: boolean): LibraryScenario {
  const ask = stream
    ? `async function ask(messages) {
  let whole
  for await (const chunk of await model.stream(messages)) whole = whole === undefined ? chunk : whole.concat(chunk)
  return whole
}`
    : 'const ask = (messages) => model.invoke(messages)'
  return {
    name: stream ? 'stream' : 'invoke',
    code: `import { ${chatClass} } from '${provider}'
import { HumanMessage, ToolMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
const getWeather = tool(async ({ city }) => JSON.stringify({ city, temperature_c: 21 }), {
  name: 'get_weather',
  description: 'Current weather for a city',
  schema: ${weatherSchema},
})
const model = new ${chatClass}({ ${options}, maxRetries: 0 }).bindTools([getWeather])
${ask}
const messages = [new HumanMessage('${prompt}')]
const first = await ask(messages)
messages.push(first)
for (const call of first.tool_calls ?? []) {
  messages.push(new ToolMessage({ tool_call_id: call.id, content: await getWeather.invoke(call.args) }))
}
const second = await ask(messages)
console.log(second.content)
`,
  }
}

function agents(stream: boolean): LibraryScenario {
  return {
    name: stream ? 'run-stream' : 'run',
    code: `import { Agent, OpenAIResponsesModel, Runner, tool } from '@openai/agents'
import OpenAI from 'openai'
const client = new OpenAI({ apiKey: process.env.API_KEY, baseURL: process.env.BASE_URL + '/v1', maxRetries: 0 })
const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: ${weatherSchema},
  strict: true,
  execute: async ({ city }) => city + ': 21 degrees',
})
const agent = new Agent({
  name: 'weather',
  instructions: 'Answer with the weather.',
  model: new OpenAIResponsesModel(client, 'gpt-5.5'),
  tools: [getWeather],
})
const runner = new Runner({ tracingDisabled: true })
${
  stream
    ? `const result = await runner.run(agent, '${prompt}', { stream: true, maxTurns: 4 })
await result.completed`
    : `const result = await runner.run(agent, '${prompt}', { maxTurns: 4 })`
}
console.log(result.finalOutput)
`,
  }
}

const both = <T>(make: (stream: boolean) => T): T[] => [make(false), make(true)]

export const libraries: readonly Library[] = [
  {
    id: 'ai-sdk-openai',
    group: 'ai-sdk',
    packages: ['ai', '@ai-sdk/openai'],
    scenarios: [
      ...both((stream) => aiSdk('@ai-sdk/openai', 'createOpenAI', "responses('gpt-5.5')", 'responses', stream)),
      ...both((stream) => aiSdk('@ai-sdk/openai', 'createOpenAI', "chat('gpt-5.5')", 'chat', stream)),
    ],
  },
  {
    id: 'ai-sdk-anthropic',
    group: 'ai-sdk',
    packages: ['ai', '@ai-sdk/anthropic'],
    scenarios: both((stream) =>
      aiSdk('@ai-sdk/anthropic', 'createAnthropic', "languageModel('claude-sonnet-5-5')", 'messages', stream),
    ),
  },
  {
    id: 'ai-sdk-google',
    group: 'ai-sdk',
    packages: ['ai', '@ai-sdk/google'],
    scenarios: both((stream) =>
      aiSdk(
        '@ai-sdk/google',
        'createGoogleGenerativeAI',
        "languageModel('gemini-2.5-flash')",
        'generate-content',
        stream,
      ),
    ),
  },
  {
    id: 'langchain-openai',
    group: 'langchain',
    packages: ['@langchain/core', '@langchain/openai'],
    scenarios: both((stream) =>
      langchain(
        '@langchain/openai',
        'ChatOpenAI',
        "model: 'gpt-5.5', apiKey: process.env.API_KEY, configuration: { baseURL: process.env.BASE_URL + '/v1' }",
        stream,
      ),
    ),
  },
  {
    id: 'langchain-anthropic',
    group: 'langchain',
    packages: ['@langchain/core', '@langchain/anthropic'],
    scenarios: both((stream) =>
      langchain(
        '@langchain/anthropic',
        'ChatAnthropic',
        "model: 'claude-sonnet-5-5', apiKey: process.env.API_KEY, anthropicApiUrl: process.env.BASE_URL",
        stream,
      ),
    ),
  },
  {
    id: 'langchain-google-genai',
    group: 'langchain',
    packages: ['@langchain/core', '@langchain/google-genai'],
    scenarios: both((stream) =>
      langchain(
        '@langchain/google-genai',
        'ChatGoogleGenerativeAI',
        "model: 'gemini-2.5-flash', apiKey: process.env.API_KEY, baseUrl: process.env.BASE_URL",
        stream,
      ),
    ),
  },
  {
    id: 'openai-agents',
    group: 'openai-agents',
    packages: ['openai', '@openai/agents'],
    scenarios: both(agents),
  },
]

/** Runs one scenario's module with node in the install folder. */
export function runLibraryScenario(
  install: string,
  library: Library,
  scenario: LibraryScenario,
  baseURL: string,
  key: string,
): Promise<CliRun> {
  const file = join(install, `${library.id}-${scenario.name}.mjs`)
  writeFileSync(file, scenario.code)
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], {
      cwd: install,
      env: { PATH: process.env.PATH ?? '', BASE_URL: baseURL, API_KEY: key },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, 60_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, timedOut })
    })
  })
}
