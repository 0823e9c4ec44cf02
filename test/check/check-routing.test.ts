/**
 * `interlingua check` against gateways that route: `--header 'name: value'` (a gateway's routing headers, such as
 * Portkey's x-portkey-provider) goes with every request the check sends, a malformed one stops the run with exit 2;
 * and the invalid-body check sends the run's model, so a gateway that routes by model first reaches its validation.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createGateway } from '../../src/gateway/create-gateway.js'
import { checkCommand } from '../../src/node/check/cli-check.js'
import { toNodeListener } from '../../src/node.js'

let server: Server
let url: string
const seen: (string | null)[] = []

beforeAll(async () => {
  const gateway = createGateway({ apiKeys: ['client-key'] })
  // A gateway that routes only requests carrying its header, as Portkey does with x-portkey-provider.
  server = createServer(
    toNodeListener(async (request) => {
      const route = request.headers.get('x-route')
      seen.push(route)
      if (route !== 'mock')
        return Response.json({ error: { message: 'x-route missing', type: 'invalid_request_error' } }, { status: 400 })
      // Routes by model before it reads the rest of the body (as @musistudio/llms does): an unknown model is a 404.
      const body = request.method === 'POST' ? await request.clone().json() : {}
      if (body.model !== undefined && body.model !== 'gpt-4o-mini')
        return Response.json(
          { error: { message: `The model ${body.model} does not exist`, type: 'invalid_request_error' } },
          { status: 404 },
        )
      return gateway.fetch(request)
    }),
  )
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((done) => server.close(done))
})

async function run(args: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const status = await checkCommand(
    args,
    (t) => {
      out += t
    },
    (t) => {
      err += t
    },
  ).catch((e: Error) => {
    err += e.message
    return 2
  })
  return { status, out, err }
}

it('every request carries the --header given, and the checks pass through the routing gateway (error-invalid-body with the run’s model)', async () => {
  seen.length = 0
  const { status, out } = await run([
    url,
    '--format',
    'chat-completions',
    '--key',
    'client-key',
    '--header',
    'X-Route:  mock ',
    '--json',
  ])
  const report = JSON.parse(out)
  expect(report.checks.filter((c: { pass: boolean }) => !c.pass)).toEqual([])
  expect(status).toBe(0)
  expect(seen.length).toBeGreaterThanOrEqual(6)
  expect(new Set(seen)).toEqual(new Set(['mock']))
})

it('without the header the same run fails, and a malformed --header is refused before any request', async () => {
  const without = await run([url, '--format', 'chat-completions', '--key', 'client-key', '--json'])
  expect(without.status).toBe(1)
  expect(JSON.parse(without.out).checks.find((c: { id: string }) => c.id === 'json-answer')).toMatchObject({
    pass: false,
    detail: expect.stringContaining('x-route missing'),
  })
  seen.length = 0
  for (const bad of ['no-colon', ': value', 'bad name: value']) {
    const refused = await run([url, '--header', bad])
    expect(refused.status).toBe(2)
    expect(refused.err).toContain(`not a header: ${bad}`)
  }
  expect(seen).toEqual([])
})
