// The physical baseline (peers.md): a bare node:http proxy that parses and re-serialises the JSON, no Fetch objects.
// env: PORT, UPSTREAM (port)
import { Agent, createServer, request } from 'node:http'

const agent = new Agent({ keepAlive: true })
const upstream = Number(process.env.UPSTREAM)

function readAll(stream, done) {
  const chunks = []
  stream.on('data', (chunk) => chunks.push(chunk))
  stream.on('end', () => done(Buffer.concat(chunks)))
}

createServer((req, res) => {
  readAll(req, (raw) => {
    let body
    try {
      body = JSON.stringify(JSON.parse(raw.toString()))
    } catch {
      res.writeHead(400).end()
      return
    }
    const out = request(
      {
        host: '127.0.0.1',
        port: upstream,
        path: req.url,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (up) => {
        if ((up.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          res.writeHead(up.statusCode ?? 502, { 'content-type': 'text/event-stream' })
          up.pipe(res)
          return
        }
        readAll(up, (answer) => {
          const json = JSON.stringify(JSON.parse(answer.toString()))
          res.writeHead(up.statusCode ?? 502, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(json),
          })
          res.end(json)
        })
      },
    )
    out.on('error', () => res.destroy())
    out.end(body)
  })
}).listen(Number(process.env.PORT), '127.0.0.1')
// A clean exit on SIGTERM, so `node --cpu-prof` writes its profile (bench/profile.ts, PROFILE_SERVER=bare).
process.on('SIGTERM', () => process.exit(0))
