/**
 * The parts of `npm run peers:check` that need no third-party package: interlingua's own gateway in front of the
 * upstreams, and one route's checks against any gateway (the script runs it for each peer too).
 */
import { createGateway } from '../../src/gateway/create-gateway.js'
import { CheckAbort, type CheckResult, runChecks } from '../../src/node/check/run.js'
import type { StrictFormat } from '../../src/node/testing/index.js'
import { type GatewayId, notOffered, ourModel, type Route, routes, targetFor } from './routes.js'
import type { RouteRun } from './table.js'
import { upstreamFormats, upstreamModel } from './upstream.js'

/** interlingua's own gateway in front of the same upstreams: one public model per upstream format, one client key. */
export function ourGateway(urls: Record<StrictFormat, string>, key: string) {
  const upstreamsOption = Object.fromEntries(
    upstreamFormats.map((format) => [
      format,
      {
        format,
        baseURL: format === 'chat-completions' || format === 'responses' ? `${urls[format]}/v1` : urls[format],
        apiKey: key,
      },
    ]),
  )
  const models = Object.fromEntries(
    upstreamFormats.map((format) => [ourModel(format), { upstream: format, model: upstreamModel[format] }]),
  )
  return createGateway({ upstreams: upstreamsOption, models, apiKeys: [key] })
}

/** `interlingua check` of one route's client format: its checks, or why the run stopped before any. */
export async function checkRoute(
  endpoint: string,
  route: Route,
  target: { model: string; headers?: Record<string, string> },
  key: string,
): Promise<{ checks: CheckResult[]; abort?: string }> {
  try {
    const report = await runChecks({
      endpoint,
      key,
      formats: [route.client],
      models: { [route.client]: target.model },
      timeoutMs: 10_000,
      ...(target.headers ? { headers: target.headers } : {}),
    })
    return { checks: report.checks }
  } catch (error) {
    if (error instanceof CheckAbort) return { checks: [], abort: error.message }
    throw error
  }
}

/**
 * Every route (./routes.ts) against each gateway in `endpoints`, in the table's order; a route the gateway does not
 * offer is not run. `done` hears of each run as it ends (the script's progress line).
 */
export async function checkRoutes(
  endpoints: Partial<Record<GatewayId, string>>,
  upstreams: Record<StrictFormat, string>,
  key: string,
  done: (run: RouteRun) => void = () => {},
): Promise<RouteRun[]> {
  const runs: RouteRun[] = []
  for (const route of routes)
    for (const gateway of ['interlingua', 'portkey', 'musistudio'] as const) {
      const endpoint = endpoints[gateway]
      if (endpoint === undefined) continue
      const unavailable = notOffered(gateway, route)
      if (unavailable) {
        runs.push({ gateway, route, checks: [], notOffered: unavailable })
        continue
      }
      const run: RouteRun = {
        gateway,
        route,
        ...(await checkRoute(endpoint, route, targetFor(gateway, route, upstreams), key)),
      }
      runs.push(run)
      done(run)
    }
  return runs
}
