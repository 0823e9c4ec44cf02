/**
 * An upstream configuration the gateway cannot serve is refused when it is created (issue 23 §4), naming the upstream
 * and the field — never accepted and then answered with a 500 on every request.
 */
import type { UpstreamOnlyFormatId } from '../formats/format.js'
import { gatewayFormats } from '../formats/gateway.js'
import { providerSpec, providerSpecs } from '../providers/index.js'
import type { ProviderUpstream } from '../providers/provider.js'
import type { UpstreamOptions } from './options.js'

const formatIds = gatewayFormats.map((format) => format.id as string)
/** Formats spoken only to upstreams, each by the providers whose spec lists it (`converse`: Bedrock). */
const upstreamOnly: readonly string[] = ['converse'] satisfies UpstreamOnlyFormatId[]
const known = (ids: readonly string[]) => ids.map((id) => `'${id}'`).join(', ')

/** The problem with `upstream` as `"<field> …"`, or undefined. */
function problem(upstream: UpstreamOptions): string | undefined {
  if (typeof upstream !== 'object' || upstream === null) return 'must be an object'
  const format = upstream.format as string
  if (format !== 'mock' && !formatIds.includes(format) && !upstreamOnly.includes(format))
    return `format "${String(format)}" is not one of ${known([...formatIds, ...upstreamOnly, 'mock'])}`
  const headers = upstream.headers
  if (headers !== undefined && typeof headers !== 'function' && (typeof headers !== 'object' || headers === null))
    return 'headers must be an object or a function returning one'
  if (upstream.provider === undefined) {
    if (upstreamOnly.includes(format)) {
      const by = Object.keys(providerSpecs).filter((id) => providerSpec(id)?.formats.includes(format as never))
      return `format "${format}" needs a provider (${known(by)})`
    }
    if (format !== 'mock' && !upstream.baseURL) return `baseURL is required (or format: 'mock')`
    return undefined
  }
  const spec = providerSpec(upstream.provider)
  if (!spec) return `provider "${String(upstream.provider)}" is not one of ${known(Object.keys(providerSpecs))}`
  if (!spec.formats.includes(format as never))
    return `format "${format}" is not served by provider '${upstream.provider}' (it serves ${known(spec.formats)})`
  return spec.check(upstream as ProviderUpstream)
}

/** Throws a TypeError naming the upstream and the field when it cannot be served. */
export function validateUpstream(name: string, upstream: UpstreamOptions): void {
  const found = problem(upstream)
  if (found !== undefined) throw new TypeError(`createGateway: upstreams.${name}: ${found}`)
}
