/// <reference types="node" />
/**
 * `createNodeMediaFetch()`: the fetch for the gateway's media fetcher on Node, checking the address each connection
 * actually goes to. The media fetcher itself can only check literal addresses and `localhost` (Web-standard runtimes
 * cannot resolve names), so a public-looking name that resolves — via DNS or `/etc/hosts` — to loopback or a private
 * network would be fetched. Here the agents' `lookup` hook refuses such an address before the socket connects, on
 * every redirect hop too (DNS rebinding between a check and the connect is not possible: the check is the lookup the
 * socket uses).
 *
 * @example
 * const gateway = createGateway({ upstreams, media: { fetch: createNodeMediaFetch() } })
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import type { LookupFunction } from 'node:net'
import { isPrivateHost } from '../gateway/media.js'
import { createNodeFetch } from './fetch.js'

export interface NodeMediaFetchOptions {
  /** The resolver the guarded lookup wraps. @defaultValue `dns.lookup` */
  lookup?: LookupFunction
  /** Connect to private and loopback addresses too (turns the check off). @defaultValue false */
  allowPrivate?: boolean
}

/** The error code of a connection refused because its address is private (`error.cause.code`). */
export const privateAddressCode = 'ERR_INTERLINGUA_PRIVATE_ADDRESS'

function refusal(hostname: string, address: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${address}, a private or loopback address`)
  error.code = privateAddressCode
  return error
}

/** A `lookup` for sockets that fails when the name resolves to any private or loopback address. */
export function guardedLookup(base: LookupFunction = dnsLookup as LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family)
      const all: LookupAddress[] = Array.isArray(address) ? address : [{ address, family: family ?? 4 }]
      const bad = all.find((entry) => isPrivateHost(entry.address))
      if (bad) return callback(refusal(hostname, bad.address), '', 4)
      callback(null, address, family)
    })
  }
}

/** A fetch (over `node:http`/`node:https`) whose connections refuse private and loopback addresses after DNS. */
export function createNodeMediaFetch(options: NodeMediaFetchOptions = {}): typeof fetch {
  const lookup = options.allowPrivate ? options.lookup : guardedLookup(options.lookup)
  const agentOptions = lookup ? { lookup } : {}
  return createNodeFetch({ httpAgent: new HttpAgent(agentOptions), httpsAgent: new HttpsAgent(agentOptions) })
}
