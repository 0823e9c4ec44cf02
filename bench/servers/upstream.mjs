// An instant local upstream for the bench: answers every format's generate route with a canned body.
// env: PORT, CANNED (JSON file: { [format]: { json, sse } }), HOLD=1 keeps streams open after the first events.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const canned = JSON.parse(readFileSync(process.env.CANNED, 'utf8'))
const hold = process.env.HOLD === '1'
const events = {}
for (const [format, body] of Object.entries(canned)) {
  events[format] = body.sse
    .split('\n\n')
    .filter(Boolean)
    .map((event) => `${event}\n\n`)
}

function formatOf(url) {
  if (url.includes('/chat/completions')) return 'chat-completions'
  if (url.includes('/messages')) return 'messages'
  if (url.includes('generateContent') || url.includes('GenerateContent')) return 'content-generation'
  return undefined
}

createServer((req, res) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    const format = formatOf(req.url ?? '')
    if (!format) {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end('{"error":{"message":"not found"}}')
      return
    }
    let stream = (req.url ?? '').includes('streamGenerateContent')
    try {
      stream ||= JSON.parse(Buffer.concat(chunks).toString()).stream === true
    } catch {}
    if (!stream) {
      const body = canned[format].json
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      res.end(body)
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const list = events[format]
    if (hold) {
      // The first few events (start, first text delta): a gateway sends its headers once content has begun.
      for (const event of list.slice(0, 5)) res.write(event)
      return // held open until the client goes away
    }
    for (const event of list) res.write(event)
    res.end()
  })
})
  .listen(Number(process.env.PORT), '127.0.0.1')
  .on('connection', (socket) => socket.setNoDelay(true))
