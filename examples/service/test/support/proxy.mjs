/**
 * A small round-robin reverse proxy on 127.0.0.1 (a random port), the stand-in for the load balancer in front of
 * several instances: each request goes to the next instance in turn, on a connection of its own (no affinity), with
 * `X-Forwarded-For` set. `proxy.hits` counts the requests each instance received. `targets` is read per request, so
 * instances can be pushed after the proxy started (their PUBLIC_URL is the proxy's address).
 *
 *   const proxy = await startProxy([a.base, b.base])   // { base, hits, close() }
 */
import { createServer, request } from 'node:http'

export async function startProxy(targets) {
  let next = 0
  const hits = []
  const server = createServer((req, res) => {
    const index = next++ % targets.length
    hits[index] = (hits[index] ?? 0) + 1
    const target = new URL(targets[index])
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: {
          ...req.headers,
          host: target.host,
          'x-forwarded-for': req.socket.remoteAddress,
          connection: 'close',
        },
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' })
      res.end(`proxy: ${error.message}`)
    })
    req.pipe(upstream)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve)
        server.closeAllConnections()
      }),
  }
}
