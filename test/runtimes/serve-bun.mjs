import worker from './.bundle/gateway.mjs'

const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: worker.fetch })
console.log(`listening on http://127.0.0.1:${server.port}`)
