import worker from './.bundle/gateway.mjs'

Deno.serve(
  { hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}`) },
  worker.fetch,
)
