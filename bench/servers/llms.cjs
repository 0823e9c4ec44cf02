// @musistudio/llms (messages client → chat-completions upstream), per peers.md. env: PORT, UPSTREAM (port)
// Its CommonJS build: the ESM build fails on Node 20 ("Dynamic require of child_process is not supported").
const llms = require('@musistudio/llms')

const Server = llms.default ?? llms
const server = new Server({
  logger: false,
  initialConfig: {
    HOST: '127.0.0.1',
    PORT: Number(process.env.PORT),
    LOG: false,
    providers: [
      {
        name: 'up',
        api_base_url: `http://127.0.0.1:${process.env.UPSTREAM}/v1/chat/completions`,
        api_key: 'sk-bench-openai',
        models: ['gpt-4o-mini'],
        transformer: { use: ['streamoptions'] },
      },
    ],
  },
})
server.start().catch((error) => {
  console.error(error)
  process.exit(1)
})
