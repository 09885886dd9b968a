import { type LookupAddress, lookup } from 'node:dns'
import { lookup as lookupAll } from 'node:dns/promises'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'
import { invalid } from '../../../lib/errors.js'

export interface TargetRules {
  readonly allowedHosts: readonly string[]
  readonly allowHttp: boolean
}

// DECISIONS §11: the ranges a webhook may not reach (ipaddr.js names them; `private` is 10/8,
// 172.16/12 and 192.168/16, `carrierGradeNat` 100.64/10, `uniqueLocal` fc00::/7).
const REFUSED_RANGES = new Set(['loopback', 'private', 'carrierGradeNat', 'uniqueLocal', 'linkLocal', 'unspecified'])

/** Whether an address is one a webhook may not reach, IPv4-mapped IPv6 judged as the IPv4 it maps. */
export function isRefusedAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true
  let parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address()
  return REFUSED_RANGES.has(parsed.range())
}

/** The host as the URL writes it, lower case, IPv6 without its brackets. */
const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1')

export const isAllowedHost = (url: URL, rules: TargetRules) => rules.allowedHosts.includes(hostOf(url))

/** Why a URL may not be a webhook target, or null when it may (DNS is asked unless the host is allowed). */
export async function refusal(raw: string, rules: TargetRules): Promise<string | null> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'URL must be absolute'
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && rules.allowHttp)) {
    return rules.allowHttp ? 'URL must use https or http' : 'URL must use https'
  }
  if (isAllowedHost(url, rules)) return null
  const host = hostOf(url)
  if (isIP(host)) return isRefusedAddress(host) ? 'URL points to a private, loopback, link-local or unspecified address' : null
  let addresses: LookupAddress[]
  try {
    addresses = await lookupAll(host, { all: true, verbatim: true })
  } catch {
    return 'URL host does not resolve'
  }
  if (addresses.length === 0) return 'URL host does not resolve'
  if (addresses.some((a) => isRefusedAddress(a.address)))
    return 'URL host resolves to a private, loopback, link-local or unspecified address'
  return null
}

/** A 422 at `["body","url"]` for a URL that may not be a webhook target. */
export async function assertTarget(raw: string, rules: TargetRules): Promise<void> {
  const reason = await refusal(raw, rules)
  if (reason) throw invalid(['body', 'url'], reason)
}

/**
 * A `lookup` for the HTTP request that refuses a refused address at connect time, so a name that
 * resolves somewhere else by now (DNS rebinding) is caught too.
 */
export const guardedLookup: typeof lookup = ((hostname: string, options: any, callback: any) => {
  lookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error)
    const refused = addresses.find((a) => isRefusedAddress(a.address))
    if (refused) return callback(Object.assign(new Error(`Refused address ${refused.address}`), { code: 'EREFUSEDTARGET' }))
    if (options?.all) return callback(null, addresses)
    callback(null, addresses[0].address, addresses[0].family)
  })
}) as typeof lookup
